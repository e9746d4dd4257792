import { originAllowed, type App } from '@org/protocol';
import type { PlainResponse } from './plain-http.js';

const corsAllowedHeaders = 'Authorization, Content-Type, X-Pusher-Library';

/**
 * The `Access-Control-Allow-Origin` value for a request from `origin`, or
 * undefined when the app does not allow it (the browser then blocks the answer).
 */
export function allowedOriginFor(app: App, origin: string | undefined): string | undefined {
  if (app.allowedOrigins.includes('*')) return '*';
  if (origin === undefined || !originAllowed(app.allowedOrigins, origin)) return undefined;
  return origin;
}

/** `headers` plus the CORS headers of an answer to an allowed origin (none when it is not allowed). */
export function withCorsHeaders(headers: Readonly<Record<string, string>>, allowOrigin: string | undefined): Readonly<Record<string, string>> {
  if (allowOrigin === undefined) return headers;
  const withCors: Record<string, string> = {
    ...headers,
    'access-control-allow-origin': allowOrigin,
    'access-control-expose-headers': 'Retry-After',
  };
  if (allowOrigin !== '*') withCors['vary'] = 'Origin';
  return withCors;
}

const noPreflight: PlainResponse = Object.freeze({ status: 204, headers: Object.freeze({}), body: '' });

/** The answer to an OPTIONS preflight for a route allowing `methods`. */
export function preflightAnswer(allowOrigin: string | undefined, methods: readonly string[]): PlainResponse {
  if (allowOrigin === undefined) return noPreflight;
  const headers: Record<string, string> = {
    'access-control-allow-headers': corsAllowedHeaders,
    'access-control-allow-methods': [...methods, 'OPTIONS'].join(', '),
    'access-control-allow-origin': allowOrigin,
    'access-control-max-age': '600',
  };
  if (allowOrigin !== '*') headers['vary'] = 'Origin';
  return { status: 204, headers, body: '' };
}
