import { originAllowed, type App } from '@org/protocol';

export const corsAllowedHeaders = 'Authorization, Content-Type, X-Pusher-Library';

/**
 * The `Access-Control-Allow-Origin` value for a request from `origin`, or
 * undefined when the app does not allow it (the browser then blocks the answer).
 */
export function allowedOriginFor(app: App, origin: string | undefined): string | undefined {
  if (app.allowedOrigins.includes('*')) return '*';
  if (origin === undefined || !originAllowed(app.allowedOrigins, origin)) return undefined;
  return origin;
}

/** The CORS headers of an answer to an allowed origin (none when it is not allowed). */
export function corsHeaders(allowOrigin: string | undefined): Record<string, string> {
  if (allowOrigin === undefined) return {};
  const headers: Record<string, string> = {
    'access-control-allow-origin': allowOrigin,
    'access-control-expose-headers': 'Retry-After',
  };
  if (allowOrigin !== '*') headers['vary'] = 'Origin';
  return headers;
}

/** Adds CORS headers to an answer, copying it when its headers are immutable. */
export function withCorsHeaders(response: Response, allowOrigin: string | undefined): Response {
  if (allowOrigin === undefined) return response;
  const add = (target: Response) => {
    for (const [name, value] of Object.entries(corsHeaders(allowOrigin))) {
      if (name === 'vary') target.headers.append(name, value);
      else target.headers.set(name, value);
    }
    return target;
  };
  try {
    return add(response);
  } catch {
    return add(new Response(response.body, response));
  }
}

/** The answer to an OPTIONS preflight for a route allowing `methods`. */
export function preflightResponse(allowOrigin: string | undefined, methods: readonly string[]): Response {
  if (allowOrigin === undefined) return new Response(null, { status: 204 });
  const headers: Record<string, string> = {
    'access-control-allow-origin': allowOrigin,
    'access-control-allow-methods': [...methods, 'OPTIONS'].join(', '),
    'access-control-allow-headers': corsAllowedHeaders,
    'access-control-max-age': '600',
  };
  if (allowOrigin !== '*') headers.vary = 'Origin';
  return new Response(null, { status: 204, headers });
}
