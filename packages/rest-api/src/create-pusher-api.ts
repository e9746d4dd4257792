import type { App } from '@org/protocol';
import { Hono, type Context } from 'hono';
import { allowedOriginFor, preflightResponse, withCorsHeaders } from './cors.js';
import type { ApiRoute } from './endpoint.js';
import { endpoints } from './endpoints/index.js';
import { errorResponse, responseForError } from './error-response.js';
import { resolveOptions, type PusherApiOptions, type ResolvedOptions } from './options.js';
import { parseQueryString, splitUrl } from './query-string.js';
import { notifyResponse, reportError } from './hooks.js';
import { readBody } from './read-body.js';
import { findApp as findAppById, runEndpoint } from './run-endpoint.js';

/** The hono environment of the API: what a request learned on its way. */
export interface PusherApiEnv {
  Variables: {
    /** The app of an `/apps/:appId/...` request, once found. */
    app: App | undefined;
    /** The matched route pattern (without `pathPrefix`), `unmatched` otherwise. */
    route: string;
  };
}

type ApiContext = Context<PusherApiEnv>;
type Method = 'GET' | 'POST';

const noBody = new Uint8Array(0);

/**
 * The Pusher-compatible HTTP API as a hono app: trigger, batch, channels,
 * users, terminate, connections, plus `/up`, `/pusher/health` and `/metrics`.
 * Serve it with any hono adapter, or call its `fetch` with a standard `Request`.
 *
 * @example
 * const api = createPusherApi({ server });
 * serve({ fetch: api.fetch, hostname: '127.0.0.1', port: 6001 });
 */
export function createPusherApi(options: PusherApiOptions): Hono<PusherApiEnv> {
  const config = resolveOptions(options);
  const root = new Hono<PusherApiEnv>();
  const api = config.pathPrefix === '' ? root : root.basePath(config.pathPrefix);

  const answerError = (error: unknown, c: ApiContext): Response => {
    const { response, unexpected } = responseForError(error);
    if (unexpected) reportError(config, error, { method: c.req.method, route: c.get('route') });
    return response;
  };

  root.use('*', async (c, next) => {
    c.set('route', 'unmatched');
    await next();
    // A failing metrics hook must not turn a good answer into an error.
    notifyResponse(config, { app: c.get('app'), method: c.req.method, route: c.get('route'), status: c.res.status });
  });
  root.onError(answerError);
  root.notFound(() => errorResponse(404, 'Not found'));

  /** Registers a route's handlers plus its OPTIONS preflight and a 405 for other methods. */
  const route = (
    path: string,
    handlers: Partial<Record<Method, (c: ApiContext) => Promise<Response>>>,
    allowOrigin: (c: ApiContext) => Promise<string | undefined>,
  ) => {
    const methods = Object.keys(handlers) as Method[];
    for (const method of methods) {
      const handler = handlers[method];
      if (!handler) continue;
      api.on(method, path, (c) => {
        c.set('route', path);
        return handler(c);
      });
    }
    api.options(path, async (c) => {
      c.set('route', path);
      return preflightResponse(await allowOrigin(c), methods);
    });
    const allow = [...methods, 'OPTIONS'].join(', ');
    api.all(path, (c) => {
      c.set('route', path);
      return errorResponse(405, `${c.req.method} is not allowed here; use ${allow}`, { allow });
    });
  };

  const findApp = async (c: ApiContext): Promise<App> => {
    const app = await findAppById(config, c.req.param('appId') ?? '');
    c.set('app', app);
    return app;
  };

  for (const endpoint of endpoints) {
    route(
      `/apps/:appId${endpoint.path}`,
      {
        [endpoint.method]: async (c: ApiContext) => {
          // The app is found first: an unknown app is a 404 even without credentials.
          const app = await findApp(c);
          let response: Response;
          try {
            response = await handleEndpoint(c, config, endpoint, app);
          } catch (error) {
            response = answerError(error, c);
          }
          return withCorsHeaders(response, allowedOriginFor(app, c.req.header('origin')));
        },
      },
      async (c) => allowedOriginFor(await findApp(c), c.req.header('origin')),
    );
  }

  const everyOrigin = () => Promise.resolve('*');
  const health = (c: ApiContext) => {
    const healthy = !config.server.draining && (config.ready?.() ?? true);
    const response = healthy
      ? c.json({ health: 'OK' })
      : errorResponse(503, 'the server is not ready or is shutting down', { 'retry-after': '5' });
    return Promise.resolve(withCorsHeaders(response, '*'));
  };
  route('/up', { GET: health }, everyOrigin);
  route('/pusher/health', { GET: health }, everyOrigin);

  const { metrics } = config;
  if (metrics) {
    route(
      '/metrics',
      {
        GET: async () => {
          const { contentType, body } = await metrics();
          return new Response(body, { headers: { 'content-type': contentType } });
        },
      },
      () => Promise.resolve(undefined),
    );
  }

  return root;
}

/** Reads what the hono request holds into the shared pipeline of `/apps/:appId/...`. */
async function handleEndpoint(c: ApiContext, config: ResolvedOptions, endpoint: ApiRoute, app: App): Promise<Response> {
  const body = endpoint.method === 'POST' ? await readBody(c.req.raw, config.maxRequestSize) : noBody;
  const url = splitUrl(c.req.url);
  const result = await runEndpoint(config, endpoint, {
    app,
    method: c.req.method,
    path: url.path.startsWith(config.pathPrefix) ? url.path.slice(config.pathPrefix.length) : url.path,
    params: c.req.param(),
    query: parseQueryString(url.query),
    authorization: c.req.header('authorization') ?? null,
    body,
  });
  return c.json(result);
}
