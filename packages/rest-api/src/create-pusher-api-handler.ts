import type { App } from '@org/protocol';
import { allowedOriginFor, corsHeaders } from './cors.js';
import type { ApiRoute } from './endpoint.js';
import { endpoints } from './endpoints/index.js';
import { answerForError, errorContentType, errorJson } from './error-response.js';
import { PusherApiError } from './errors.js';
import { notifyResponse, reportError } from './hooks.js';
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
      const info = { method: request.method, route: pattern };
      let app: App | undefined;
      let response: PlainResponse;
      try {
        app = await findApp(config, match.params['appId'] ?? '');
        response = await answerEndpoint(config, endpoint, app, request, match.params, info);
        Object.assign(response.headers, corsHeaders(allowedOriginFor(app, request.headers['origin'])));
      } catch (error) {
        // Only an unknown app gets here: answered without CORS headers, as the hono app does.
        response = errorAnswer(config, error, info);
      }
      notifyResponse(config, { app, ...info, status: response.status });
      return response;
    },
  };
}

/** The shared pipeline on plain values; every failure becomes its JSON error answer. */
async function answerEndpoint(
  config: ResolvedOptions,
  endpoint: ApiRoute,
  app: App,
  request: PlainRequest,
  params: Record<string, string>,
  info: { method: string; route: string },
): Promise<PlainResponse> {
  try {
    const body = endpoint.method === 'POST' ? request.body : noBody;
    if (body.byteLength > config.maxRequestSize) {
      throw new PusherApiError('PAYLOAD_TOO_LARGE', `the request body is larger than ${config.maxRequestSize} bytes`);
    }
    const result = await runEndpoint(config, endpoint, {
      app,
      method: request.method,
      path: request.path.slice(config.pathPrefix.length),
      params,
      query: parseQueryString(request.query),
      authorization: request.headers['authorization'] ?? null,
      body,
    });
    return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(result) };
  } catch (error) {
    return errorAnswer(config, error, info);
  }
}

function errorAnswer(config: ResolvedOptions, error: unknown, info: { method: string; route: string }): PlainResponse {
  const answer = answerForError(error);
  if (answer.unexpected) reportError(config, error, info);
  return { status: answer.status, headers: { 'content-type': errorContentType, ...answer.headers }, body: errorJson(answer.status, answer.message) };
}
