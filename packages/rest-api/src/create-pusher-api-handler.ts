import type { App } from '@org/protocol';
import { checkBodySize } from './body-limit.js';
import { allowedOriginFor, preflightAnswer, withCorsHeaders } from './cors.js';
import type { ApiRoute } from './endpoint.js';
import { endpoints } from './endpoints/index.js';
import { answerForError, errorAnswer } from './error-response.js';
import { notifyResponse, reportError } from './hooks.js';
import { resolveOptions, type PusherApiOptions, type ResolvedOptions } from './options.js';
import type { PlainRequest, PlainResponse } from './plain-http.js';
import { parseQueryString } from './query-string.js';
import { needsUrlParsing, requestTarget, urlParsedTarget } from './request-target.js';
import { createRouter, type RouteMatch } from './router.js';
import { answerIdempotently, idempotencyKey, requestDigest } from './idempotency.js';
import { prepareEndpoint, requireAppById, runPrepared } from './run-endpoint.js';

export interface PusherApiHandler {
  /**
   * Answers any request: the `/apps/:appId/...` endpoints, their preflights, and the 404, 405
   * and 413 errors. Never rejects. A host serving more routes (health, metrics) answers them in
   * front of it, matched on `routedPath`.
   */
  handle(request: PlainRequest): Promise<PlainResponse>;
  /** The `maxRequestSize` option: a server reading bodies can stop reading past it (the answer is then a 413). */
  readonly maxRequestSize: number;
}

/** What an answer was about, for the hono adapter's context variables. */
export interface AnswerNotes {
  app: App | undefined;
  /** The matched pattern without the prefix, or `unmatched`. */
  route: string;
}

/** The HTTP API as a function of plain values; `createPusherApi` mounts the same one in hono. */
interface Pipeline extends PusherApiHandler {
  /** Every route pattern, with the prefix, in hono syntax: what a hono app mounting the pipeline claims. */
  readonly patterns: readonly string[];
  /** `handle`, also filling `notes`. */
  answer(request: PlainRequest, notes?: AnswerNotes): Promise<PlainResponse>;
  /** The answer to a request refused while its body was read (a 413, or a 400 for a bad `Content-Length`). */
  refuse(request: Omit<PlainRequest, 'body'>, error: unknown, notes?: AnswerNotes): PlainResponse;
}

interface Route {
  pattern: string;
  endpoint: ApiRoute;
  /** The `Allow` header of its 405. */
  allow: string;
}

const noBody = new Uint8Array(0);

/** An answer given to many requests: frozen, so a server that tried to add to it would fail loudly instead of changing the next answer. */
function shared(answer: PlainResponse): PlainResponse {
  Object.freeze(answer.headers);
  return Object.freeze(answer);
}

const jsonHeaders: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json' });
/** The headers of most 200s: JSON to an app that allows every origin. */
const jsonToAnyOrigin = Object.freeze(withCorsHeaders(jsonHeaders, '*'));
const notFound = shared(errorAnswer(404, 'Not found'));
/** On an answer replayed to a retry with the same `X-Idempotency-Key`. */
const replayHeader = 'x-idempotent-replay';

/**
 * The Pusher HTTP API as a function of plain values: method, path, query, the
 * `authorization`, `origin` and `x-idempotency-key` headers and the body bytes in; status, headers
 * and body out. For servers that hold the whole request already
 * (uWebSockets.js), without a fetch `Request` and `Response` per call; the
 * hono app from `createPusherApi` is this same pipeline behind a thin adapter.
 *
 * @example
 * const api = createPusherApiHandler({ server });
 * const { status, headers, body } = await api.handle({ method: 'GET', path: '/apps/app-1/connections', query: '', headers: { authorization: 'Bearer app-secret' }, body: new Uint8Array() });
 */
export function createPusherApiHandler(options: PusherApiOptions): PusherApiHandler {
  const { handle, maxRequestSize } = createPipeline(resolveOptions(options));
  return { handle, maxRequestSize };
}

/**
 * One request's way through: the target as a URL parser would see it, the
 * route (whatever the method), the body size (413 before anything else), then
 * the route's method (HEAD as GET, without the body; OPTIONS as a preflight;
 * others 405). Each answer is reported to `onResponse` once.
 */
export function createPipeline(config: ResolvedOptions): Pipeline {
  const { pathPrefix: prefix, maxRequestSize, idempotency } = config;
  const routes: Route[] = endpoints.map((endpoint) => ({ pattern: `/apps/:appId${endpoint.path}`, endpoint, allow: `${endpoint.method}, OPTIONS` }));
  const router = createRouter(prefix, routes.map((route) => ({ pattern: route.pattern, route })));

  /** Any error thrown on the way, as its answer; one we did not expect goes to `onError`. */
  const failure = (error: unknown, method: string, route: string): PlainResponse => {
    const answer = answerForError(error);
    if (answer.unexpected) reportError(config, error, { method, route });
    return errorAnswer(answer.status, answer.message, answer.headers);
  };

  const endpointAnswer = async (endpoint: ApiRoute, app: App, request: PlainRequest, path: string, match: RouteMatch<Route>, query: string): Promise<PlainResponse> => {
    const allowOrigin = allowedOriginFor(app, request.headers['origin']);
    try {
      const prepared = prepareEndpoint(config, endpoint, {
        app,
        method: request.method,
        path: path.startsWith(prefix) ? path.slice(prefix.length) : path,
        params: match.params,
        query: parseQueryString(query),
        authorization: request.headers['authorization'] ?? null,
        body: endpoint.method === 'POST' ? request.body : noBody,
      });
      const headers = allowOrigin === '*' ? jsonToAnyOrigin : withCorsHeaders(jsonHeaders, allowOrigin);
      // Claimed only now: the request is signed and valid. Without a store the header is ignored.
      const store = endpoint.idempotent ? idempotency : undefined;
      const key = store && idempotencyKey(request.headers);
      if (!store || key === undefined) return { status: 200, headers, body: JSON.stringify(await runPrepared(config, app, prepared)) };
      const outcome = await answerIdempotently(store, app.id, key, requestDigest(endpoint.path, request.body), async () =>
        JSON.stringify(await runPrepared(config, app, prepared)),
      );
      return { status: outcome.status, headers: outcome.replayed ? { ...headers, [replayHeader]: 'true' } : headers, body: outcome.body };
    } catch (error) {
      const answer = failure(error, request.method, match.route.pattern);
      return allowOrigin === undefined ? answer : { ...answer, headers: withCorsHeaders(answer.headers, allowOrigin) };
    }
  };

  const answer = async (request: PlainRequest, notes?: AnswerNotes): Promise<PlainResponse> => {
    const { method } = request;
    let route = 'unmatched';
    let app: App | undefined;
    let response: PlainResponse;
    try {
      // Most paths are routed as sent; an unusual one as a URL parser rewrites it.
      const target = needsUrlParsing(request.path) ? urlParsedTarget(request.path, request.query) : request;
      const match = router.match(target.path);
      if (match) route = match.route.pattern;
      // GET and HEAD carry no body (a fetch Request cannot have one): one sent anyway is ignored.
      if (method !== 'GET' && method !== 'HEAD') checkBodySize(request.body.byteLength, maxRequestSize);
      if (!match) {
        response = notFound;
      } else {
        const { endpoint } = match.route;
        if ((method === 'HEAD' ? 'GET' : method) === endpoint.method || method === 'OPTIONS') {
          // The app is found first: an unknown app is a 404 (without CORS headers) even without credentials.
          const found = requireAppById(config, match.params['appId'] ?? '');
          app = found instanceof Promise ? await found : found;
          response =
            method === 'OPTIONS'
              ? preflightAnswer(allowedOriginFor(app, request.headers['origin']), [endpoint.method])
              : await endpointAnswer(endpoint, app, request, target.path, match, target.query);
        } else {
          response = methodNotAllowed(method, match.route.allow);
        }
      }
    } catch (error) {
      response = failure(error, method, route);
    }
    if (notes) {
      notes.app = app;
      notes.route = route;
    }
    // A failing metrics hook must not turn a good answer into an error.
    notifyResponse(config, { app, method, route, status: response.status });
    return method === 'HEAD' && response.body !== '' ? { ...response, body: '' } : response;
  };

  return {
    maxRequestSize,
    patterns: routes.map((route) => `${prefix}${route.pattern}`),
    answer,
    handle: (request) => answer(request),
    refuse(request, error, notes) {
      const { method } = request;
      let route = 'unmatched';
      try {
        const match = router.match(requestTarget(request.path, request.query).path);
        if (match) route = match.route.pattern;
      } catch {
        // Reported as unmatched.
      }
      const response = failure(error, method, route);
      if (notes) {
        notes.app = undefined;
        notes.route = route;
      }
      notifyResponse(config, { app: undefined, method, route, status: response.status });
      return method === 'HEAD' ? { ...response, body: '' } : response;
    },
  };
}

function methodNotAllowed(method: string, allow: string): PlainResponse {
  return errorAnswer(405, `${method} is not allowed here; use ${allow}`, { allow });
}
