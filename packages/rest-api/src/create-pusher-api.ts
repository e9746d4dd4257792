import type { App } from '@org/protocol';
import { Hono, type Context } from 'hono';
import { createPipeline, type AnswerNotes } from './create-pusher-api-handler.js';
import { idempotencyKeyHeader } from './idempotency.js';
import { resolveOptions, type PusherApiOptions } from './options.js';
import type { PlainResponse } from './plain-http.js';
import { splitUrl } from './query-string.js';
import { readBody } from './read-body.js';

/** The hono environment of the API: what a request learned on its way. */
export interface PusherApiEnv {
  Variables: {
    /** The app of an `/apps/:appId/...` request, once found. */
    app: App | undefined;
    /** The matched route pattern (without `pathPrefix`), `unmatched` otherwise. */
    route: string;
  };
}

/**
 * The Pusher-compatible HTTP API as a hono app: trigger, batch, channels,
 * users, terminate, connections (health and metrics are the host's routes).
 * Serve it with any hono adapter, call its `fetch` with a standard `Request`,
 * or mount it in a larger hono app. It is the pipeline of
 * `createPusherApiHandler` behind a thin adapter: each request's URL, three
 * headers and body (read up to `maxRequestSize`) go in as plain values, the
 * plain answer comes back as a `Response`.
 *
 * @example
 * const api = createPusherApi({ server });
 * serve({ fetch: api.fetch, hostname: '127.0.0.1', port: 6001 });
 */
export function createPusherApi(options: PusherApiOptions): Hono<PusherApiEnv> {
  const config = resolveOptions(options);
  const pipeline = createPipeline(config);
  const api = new Hono<PusherApiEnv>();

  const serve = async (c: Context<PusherApiEnv>): Promise<Response> => {
    const raw = c.req.raw;
    const { path, query } = splitUrl(raw.url);
    const headers = { authorization: c.req.header('authorization'), origin: c.req.header('origin'), [idempotencyKeyHeader]: c.req.header(idempotencyKeyHeader) };
    const head = { method: raw.method, path, query, headers };
    const notes: AnswerNotes = { app: undefined, route: 'unmatched' };
    let answer: PlainResponse;
    try {
      const body = await readBody(raw, config.maxRequestSize);
      answer = await pipeline.answer({ ...head, body }, notes);
    } catch (error) {
      answer = pipeline.refuse(head, error, notes);
    }
    c.set('app', notes.app);
    c.set('route', notes.route);
    return toResponse(answer);
  };

  // Only the API's own paths are claimed, so the app mounts beside other routes; everything else
  // that reaches it (its own 404s) goes through the pipeline too.
  for (const pattern of pipeline.patterns) api.all(pattern, serve);
  api.notFound(serve);
  return api;
}

function toResponse({ status, headers, body }: PlainResponse): Response {
  // A copy: answers share header objects, and a server may add to the init it is given (@hono/node-server sets content-length).
  return new Response(status === 204 || body === '' ? null : body, { status, headers: { ...headers } });
}
