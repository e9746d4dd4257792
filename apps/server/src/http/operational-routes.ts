import type { RealtimeServer } from '@org/protocol';
import {
  errorAnswer,
  preflightAnswer,
  routedPath,
  withCorsHeaders,
  type PlainRequest,
  type PlainResponse,
  type PusherApiHandler,
  type ResponseInfo,
} from '@org/rest-api';

export interface OperationalRoutesOptions {
  /** The engine: `/up` and `/pusher/health` answer 503 while it drains, and each answer is emitted on its events. */
  server: RealtimeServer;
  /** The server's `path`: these routes live under it, as the API's do. */
  pathPrefix: string;
  /** The API's `maxRequestSize`: a bigger body is the API's to refuse (its one 413, for every path). */
  maxRequestSize: number;
  /** Readiness beyond draining: 503 while it returns false. Default: always ready. */
  ready?: (() => boolean) | undefined;
  /** Serves `GET /metrics` when given (metrics enabled and not on a port of their own); a 404 otherwise. */
  metrics?: (() => Promise<{ contentType: string; body: string }>) | undefined;
  /** After every answer of these routes (metrics: HTTP requests by status). If it throws, the answer stands. */
  onResponse?: ((info: ResponseInfo) => void) | undefined;
  /** A failed `metrics` (answered 500 without details), or a throwing `onResponse`. */
  onError?: ((error: unknown, info: { method: string; route: string }) => void) | undefined;
}

type Route = '/up' | '/pusher/health' | '/metrics';

/** An answer given to many requests: frozen, so a server that added to it would fail loudly instead of changing the next answer. */
function shared(answer: PlainResponse): PlainResponse {
  Object.freeze(answer.headers);
  return Object.freeze(answer);
}

// The answers of the API's own conventions: JSON errors, and health open to every origin (status pages poll it).
const healthy = shared({ status: 200, headers: withCorsHeaders({ 'content-type': 'application/json' }, '*'), body: JSON.stringify({ health: 'OK' }) });
const notReady = errorAnswer(503, 'the server is not ready or is shutting down', { 'retry-after': '5' });
const unhealthy = shared({ ...notReady, headers: withCorsHeaders(notReady.headers, '*') });
const healthPreflight = shared(preflightAnswer('*', ['GET']));
const metricsPreflight = shared(preflightAnswer(undefined, ['GET']));
const metricsUnavailable = shared(errorAnswer(500, 'Internal server error'));
const allow = 'GET, OPTIONS';

/**
 * The public port's operational routes, `/up`, `/pusher/health` and (when given `metrics`)
 * `/metrics`, answered in front of the Pusher HTTP API and in its conventions: the same path
 * reading (`routedPath`), JSON errors, HEAD as GET without the body, OPTIONS as a preflight,
 * other methods 405 with `Allow`, a body over `maxRequestSize` the API's 413. Everything else goes to `api`.
 */
export function withOperationalRoutes(api: PusherApiHandler, options: OperationalRoutesOptions): (request: PlainRequest) => PlainResponse | Promise<PlainResponse> {
  const { server, pathPrefix, maxRequestSize, ready, metrics, onResponse, onError } = options;
  const tooLarge = shared(errorAnswer(413, `the request body is larger than ${maxRequestSize} bytes`));
  const routes = new Map<string, Route>([
    [`${pathPrefix}/up`, '/up'],
    [`${pathPrefix}/pusher/health`, '/pusher/health'],
  ]);
  if (metrics) routes.set(`${pathPrefix}/metrics`, '/metrics');

  const routeOf = (path: string, query: string): Route | undefined => {
    try {
      return routes.get(routedPath(path, query));
    } catch {
      return undefined; // a path no URL parser reads: the API answers it
    }
  };

  const report = (error: unknown, method: string, route: Route): void => {
    try {
      onError?.(error, { method, route });
    } catch {
      // The error reporter itself failed; nothing sensible is left to do.
    }
  };

  const scrape = async (method: string): Promise<PlainResponse> => {
    try {
      const { contentType, body } = await metrics!();
      return { status: 200, headers: { 'content-type': contentType }, body };
    } catch (error) {
      report(error, method, '/metrics');
      return metricsUnavailable;
    }
  };

  const finish = (method: string, route: Route, response: PlainResponse): PlainResponse => {
    const info: ResponseInfo = { app: undefined, method, route, status: response.status };
    try {
      onResponse?.(info);
    } catch (error) {
      report(error, method, route);
    }
    server.events.emit('http.api.response', info);
    return method === 'HEAD' && response.body !== '' ? { ...response, body: '' } : response;
  };

  return (request) => {
    const route = routeOf(request.path, request.query);
    const { method } = request;
    if (!route) return api.handle(request);
    // The API's one 413 (before anything else, no CORS headers), reported under this route as the API would.
    if (method !== 'GET' && method !== 'HEAD' && request.body.byteLength > maxRequestSize) return finish(method, route, tooLarge);
    if (method === 'GET' || method === 'HEAD') {
      if (route === '/metrics') return scrape(method).then((response) => finish(method, route, response));
      return finish(method, route, !server.draining && (ready?.() ?? true) ? healthy : unhealthy);
    }
    if (method === 'OPTIONS') return finish(method, route, route === '/metrics' ? metricsPreflight : healthPreflight);
    return finish(method, route, errorAnswer(405, `${method} is not allowed here; use ${allow}`, { allow }));
  };
}
