import { createApp, createStaticAppProvider, hostEvents, RealtimeServer } from '@org/protocol';
import { createPusherApiHandler, type PlainRequest, type ResponseInfo } from '@org/rest-api';
import { createUwsServer } from '@org/transport-uws';
import { afterEach, describe, expect, it } from 'vitest';
import { withOperationalRoutes, type OperationalRoutesOptions } from './operational-routes.js';

/**
 * `/up`, `/pusher/health` and `/metrics` as the daemon serves them: in front of the Pusher API's
 * handler, on a uWS transport. These cases were `@org/rest-api`'s while it served the routes.
 */
const app = createApp({ id: 'app-1', key: 'key-1', secret: 'secret-1' });

type Options = Partial<Omit<OperationalRoutesOptions, 'server'>>;

interface Fixture {
  server: RealtimeServer;
  handle: ReturnType<typeof withOperationalRoutes>;
  baseUrl: string;
  close(): Promise<void>;
}

let fixture: Fixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

async function start(options: Options = {}): Promise<Fixture> {
  const server = new RealtimeServer({ apps: createStaticAppProvider([app]) });
  const pathPrefix = options.pathPrefix ?? '';
  const maxRequestSize = options.maxRequestSize ?? 10_000;
  const handle = withOperationalRoutes(createPusherApiHandler({ server, pathPrefix, maxRequestSize }), { ...options, server, pathPrefix, maxRequestSize });
  const transport = await createUwsServer({ server, plain: handle, host: '127.0.0.1', port: 0, path: pathPrefix, maxRequestSize });
  await server.start();
  const port = await transport.listen();
  fixture = {
    server,
    handle,
    baseUrl: `http://127.0.0.1:${port}`,
    async close() {
      transport.close();
      if (!server.draining) await server.stop();
    },
  };
  return fixture;
}

const plain = (method: string, path: string, extra: Partial<PlainRequest> = {}): PlainRequest => ({ method, path, query: '', headers: {}, body: new Uint8Array(), ...extra });

describe('health endpoints', () => {
  it('answers 200 {"health":"OK"} on /up and /pusher/health when ready', async () => {
    const { baseUrl } = await start();
    for (const path of ['/up', '/pusher/health']) {
      const response = await fetch(`${baseUrl}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(await response.json()).toEqual({ health: 'OK' });
    }
  });

  it('answers 503 JSON while ready() is false, and 200 again once it is true', async () => {
    let ready = false;
    const { baseUrl } = await start({ ready: () => ready });
    const notReady = await fetch(`${baseUrl}/up`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toEqual({ error: 'the server is not ready or is shutting down', code: 503 });
    ready = true;
    expect((await fetch(`${baseUrl}/pusher/health`)).status).toBe(200);
  });

  it('answers 503 while the engine drains', async () => {
    const { baseUrl, server } = await start();
    const stopping = server.stop();
    const response = await fetch(`${baseUrl}/up`);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    await stopping;
  });

  it('allows every origin on the health endpoints', async () => {
    const { baseUrl } = await start();
    const response = await fetch(`${baseUrl}/up`, { headers: { origin: 'https://status.example' } });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const pre = await fetch(`${baseUrl}/pusher/health`, { method: 'OPTIONS', headers: { origin: 'https://status.example', 'access-control-request-method': 'GET' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers 405 for a wrong method', async () => {
    const { baseUrl } = await start();
    const postUp = await fetch(`${baseUrl}/up`, { method: 'POST' });
    expect(postUp.status).toBe(405);
    expect(postUp.headers.get('allow')).toBe('GET, OPTIONS');
    expect(await postUp.json()).toEqual({ error: 'POST is not allowed here; use GET, OPTIONS', code: 405 });
  });

  it('answers 404 outside the path prefix and serves health under it', async () => {
    const { baseUrl } = await start({ pathPrefix: '/realtime' });
    expect((await fetch(`${baseUrl}/up`)).status).toBe(404);
    expect((await fetch(`${baseUrl}/realtime/up`)).status).toBe(200);
  });
});

describe('GET /metrics', () => {
  it('serves what the metrics function returns, with its content type', async () => {
    const body = '# HELP http_requests_total Requests\nhttp_requests_total 3\n';
    const { baseUrl } = await start({ metrics: () => Promise.resolve({ contentType: 'text/plain; version=0.0.4', body }) });
    const response = await fetch(`${baseUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4');
    expect(await response.text()).toBe(body);
  });

  it('is a 404 without a metrics function and a clean 500 when it fails', async () => {
    let api = await start();
    expect((await fetch(`${api.baseUrl}/metrics`)).status).toBe(404);
    await api.close();
    const reported: unknown[] = [];
    api = await start({ metrics: () => Promise.reject(new Error('registry exploded at /srv/secret')), onError: (error) => void reported.push(error) });
    const response = await fetch(`${api.baseUrl}/metrics`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'Internal server error', code: 500 });
    expect(reported).toEqual([new Error('registry exploded at /srv/secret')]);
  });
});

describe('in front of the API, from plain values', () => {
  it('serves health, and leaves /metrics to the API (its 404) without a metrics function', async () => {
    const { handle } = await start();
    expect(await handle(plain('GET', '/up'))).toMatchObject({ status: 200, body: '{"health":"OK"}' });
    expect(await handle(plain('GET', '/metrics'))).toMatchObject({ status: 404 });
    expect(await handle(plain('GET', '/apps/app-1/connections', { headers: { authorization: `Bearer ${app.secret}` } }))).toMatchObject({ status: 200, body: '{"connections":0}' });
  });

  it('answers HEAD as GET without the body', async () => {
    const { handle } = await start();
    const answer = await handle(plain('HEAD', '/up'));
    expect(answer).toMatchObject({ status: 200, headers: { 'content-type': 'application/json' }, body: '' });
  });

  it('answers a body over maxRequestSize with the API\'s one 413, the same answer as for every other path', async () => {
    const { handle } = await start({ maxRequestSize: 100 });
    const body = new Uint8Array(101);
    const expected = { status: 413, headers: { 'content-type': 'application/json; charset=UTF-8' }, body: '{"error":"the request body is larger than 100 bytes","code":413}' };
    for (const path of ['/up', '/pusher/health', '/apps/app-1/events', '/nope']) {
      expect(await handle(plain('POST', path, { body, headers: { origin: 'https://allowed.example' } })), path).toEqual(expected);
    }
  });

  it('ignores a body sent with GET, as a fetch Request cannot carry one', async () => {
    const { handle } = await start({ maxRequestSize: 100 });
    expect((await handle(plain('GET', '/up', { body: new Uint8Array(500) }))).status).toBe(200);
  });

  it('reads a path the way a URL parser does, as the API does: dot segments resolved, # kept', async () => {
    const { handle } = await start();
    expect((await handle(plain('GET', '/nope/../up'))).status).toBe(200);
    expect((await handle(plain('GET', '/%75p'))).status).toBe(200);
    expect((await handle(plain('GET', '/up#x'))).status).toBe(404);
  });

  it('reads the path together with its query, as the API does: "/up " is /up alone, but not before a query', async () => {
    const { handle } = await start();
    expect((await handle(plain('GET', '/up '))).status).toBe(200);
    expect((await handle(plain('GET', '/up ', { query: 'a=1' }))).status).toBe(404);
    expect((await handle(plain('GET', '/up', { query: 'a=1' }))).status).toBe(200);
  });
});

describe('each answer is reported', () => {
  it('to onResponse, with app undefined and the route pattern', async () => {
    const seen: { app: string | undefined; method: string; route: string; status: number }[] = [];
    const { baseUrl } = await start({ onResponse: ({ app: answered, method, route, status }) => seen.push({ app: answered?.id, method, route, status }) });
    await fetch(`${baseUrl}/up`);
    await fetch(`${baseUrl}/pusher/health`, { method: 'DELETE' });
    expect(seen).toEqual([
      { app: undefined, method: 'GET', route: '/up', status: 200 },
      { app: undefined, method: 'DELETE', route: '/pusher/health', status: 405 },
    ]);
  });

  it('reports a 413 under its route, as the API reported it while it served the route', async () => {
    const seen: { route: string; status: number }[] = [];
    const { handle, server } = await start({ maxRequestSize: 100 });
    server.events.on('http.api.response', ({ route, status }) => seen.push({ route, status }));
    await handle(plain('POST', '/up', { body: new Uint8Array(101) }));
    await handle(plain('PUT', '/pusher/health', { body: new Uint8Array(101) }));
    expect(seen).toEqual([
      { route: '/up', status: 413 },
      { route: '/pusher/health', status: 413 },
    ]);
  });

  it('keeps answering when the onResponse hook throws', async () => {
    const { baseUrl } = await start({
      onResponse: () => {
        throw new Error('metrics broke');
      },
    });
    const response = await fetch(`${baseUrl}/up`);
    expect(response.status).toBe(200);
  });

  it('as the http.api.response event on the engine, as the API reports its own answers, which host events pass on', async () => {
    const { server, handle } = await start();
    const emitted: ResponseInfo[] = [];
    server.events.on('http.api.response', (info) => void emitted.push(info));
    const host: ResponseInfo[] = [];
    hostEvents(server).on('Realtime.WebSocket.HttpApiEvent', (info) => void host.push(info));
    await handle(plain('GET', '/up'));
    await handle(plain('GET', '/nope'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(emitted).toEqual([
      { app: undefined, method: 'GET', route: '/up', status: 200 },
      { app: undefined, method: 'GET', route: 'unmatched', status: 404 },
    ]);
    expect(host).toEqual(emitted);
  });
});
