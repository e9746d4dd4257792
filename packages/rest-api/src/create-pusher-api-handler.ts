import type { App } from '@org/protocol';
import { allowedOriginFor } from './cors.js';
import { endpoints } from './endpoints/index.js';
import { answerForError, errorContentType, errorJson } from './error-response.js';
import { PusherApiError } from './errors.js';
import { resolveOptions, type PusherApiOptions, type ResolvedOptions } from './options.js';
import { parseQueryString } from './query-string.js';
import { compileRoutes, matchRoute } from './route-match.js';
import { findApp, runEndpoint } from './run-endpoint.js';

/** A request a server has already read in full: no streams, no URL object. */
export interface PlainRequest {
  /** Upper case. */
  method: string;
  /** The raw path, with the deployment prefix, without the query. */
  path: string;
  /** The raw query string, without `?`. */
  query: string;
  /** Lower-case names. */
  headers: Readonly<Record<string, string>>;
  body: Uint8Array;
}

export interface PlainResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface PusherApiHandler {
  /**
   * Answers an `/apps/:appId/...` endpoint request; resolves to undefined for
   * anything else (other paths, preflights, wrong methods), which the hono app
   * from `createPusherApi` answers.
   */
  handle(request: PlainRequest): Promise<PlainResponse | undefined>;
}

const noBody = new Uint8Array(0);

/**
 * The HTTP API's endpoints as a plain function, for servers that hold the
 * whole request already (uWebSockets.js): the same pipeline, statuses, bodies,
 * CORS headers and `onResponse` calls as `createPusherApi`, without building a
 * fetch `Request` and `Response` per call, which costs more than the work itself.
 *
 * @example
 * const options = { server };
 * const api = createPusherApi(options);
 * const direct = createPusherApiHandler(options);
 * // per request: (await direct.handle(plain)) ?? (await api.fetch(toRequest(plain)))
 */
export function createPusherApiHandler(options: PusherApiOptions): PusherApiHandler {
  const config = resolveOptions(options);
  const routes = compileRoutes(config.pathPrefix, endpoints);

  return {
    async handle(request) {
      const match = matchRoute(routes, request.method, request.path);
      if (!match) return undefined;
      const { endpoint, pattern } = match.route;
      let app: App | undefined;
      let response: PlainResponse;
      try {
        app = await findApp(config, match.params['appId'] ?? '');
        try {
          const body = endpoint.method === 'POST' ? request.body : noBody;
          if (body.byteLength > config.maxRequestSize) {
            throw new PusherApiError('PAYLOAD_TOO_LARGE', `the request body is larger than ${config.maxRequestSize} bytes`);
          }
          const result = await runEndpoint(config, endpoint, {
            app,
            method: request.method,
            path: request.path.slice(config.pathPrefix.length),
            params: match.params,
            query: parseQueryString(request.query),
            authorization: request.headers['authorization'] ?? null,
            body,
          });
          response = { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(result) };
        } catch (error) {
          response = errorAnswer(config, error, request.method, pattern);
        }
        addCorsHeaders(response, allowedOriginFor(app, request.headers['origin']));
      } catch (error) {
        // No app: answered without CORS headers, as the hono app does.
        response = errorAnswer(config, error, request.method, pattern);
      }
      if (config.onResponse) {
        try {
          config.onResponse({ app, method: request.method, route: pattern, status: response.status });
        } catch (error) {
          report(config, error, request.method, pattern);
        }
      }
      return response;
    },
  };
}

function errorAnswer(config: ResolvedOptions, error: unknown, method: string, route: string): PlainResponse {
  const answer = answerForError(error);
  if (answer.unexpected) report(config, error, method, route);
  return { status: answer.status, headers: { 'content-type': errorContentType, ...answer.headers }, body: errorJson(answer.status, answer.message) };
}

function addCorsHeaders(response: PlainResponse, allowOrigin: string | undefined): void {
  if (allowOrigin === undefined) return;
  response.headers['access-control-allow-origin'] = allowOrigin;
  response.headers['access-control-expose-headers'] = 'Retry-After';
  if (allowOrigin !== '*') response.headers['vary'] = 'Origin';
}

function report(config: ResolvedOptions, error: unknown, method: string, route: string): void {
  try {
    config.onError?.(error, { method, route });
  } catch {
    // The error reporter itself failed; nothing sensible is left to do.
  }
}
