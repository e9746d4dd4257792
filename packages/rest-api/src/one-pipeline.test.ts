import { createStaticAppProvider, hostEvents, RealtimeServer } from '@org/protocol';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPusherApi } from './create-pusher-api.js';
import { createPusherApiHandler, type PusherApiHandler } from './create-pusher-api-handler.js';
import { routedPath } from './request-target.js';
import type { PlainRequest } from './plain-http.js';
import type { ResponseInfo } from './response-event.js';
import { mainApp, otherApp } from '../test/support/test-fixture.js';

let server: RealtimeServer;
let handler: PusherApiHandler;
const reported: Omit<ResponseInfo, 'app'>[] = [];

beforeAll(async () => {
  server = new RealtimeServer({ apps: createStaticAppProvider([mainApp, otherApp]) });
  await server.start();
  handler = createPusherApiHandler({ server, maxRequestSize: 100, onResponse: ({ method, route, status }) => reported.push({ method, route, status }) });
});
afterAll(() => server.stop());

const plain = (method: string, path: string, extra: Partial<PlainRequest> = {}): PlainRequest => ({ method, path, query: '', headers: {}, body: new Uint8Array(), ...extra });
const bearer = { authorization: `Bearer ${mainApp.secret}` };

describe('createPusherApiHandler answers every request itself', () => {
  it('serves preflights, 404 and 405 from plain values', async () => {
    expect(await handler.handle(plain('OPTIONS', '/apps/app-1/events'))).toMatchObject({ status: 204, headers: { 'access-control-allow-methods': 'POST, OPTIONS' }, body: '' });
    expect(await handler.handle(plain('GET', '/nope'))).toMatchObject({ status: 404, body: '{"error":"Not found","code":404}' });
    expect(await handler.handle(plain('DELETE', '/apps/app-1/channels'))).toMatchObject({ status: 405, headers: { allow: 'GET, OPTIONS' } });
  });

  it('serves only the API: /up, /pusher/health and /metrics are 404s, for the host to answer in front of it', async () => {
    for (const path of ['/up', '/pusher/health', '/metrics']) {
      expect(await handler.handle(plain('GET', path)), path).toMatchObject({ status: 404, body: '{"error":"Not found","code":404}' });
    }
    expect(reported.at(-1)).toEqual({ method: 'GET', route: 'unmatched', status: 404 });
  });

  it('answers HEAD as GET without the body', async () => {
    const answer = await handler.handle(plain('HEAD', '/apps/app-1/connections', { headers: bearer }));
    expect(answer).toMatchObject({ status: 200, headers: { 'content-type': 'application/json' }, body: '' });
  });

  it('refuses a body over maxRequestSize with the one 413, before routing: same answer for every path and app, no CORS headers', async () => {
    const body = new Uint8Array(101);
    const expected = { status: 413, headers: { 'content-type': 'application/json; charset=UTF-8' }, body: '{"error":"the request body is larger than 100 bytes","code":413}' };
    for (const path of ['/apps/app-1/events', '/apps/app-2/events', '/apps/unknown/events', '/up', '/nope']) {
      expect(await handler.handle(plain('POST', path, { body, headers: { origin: 'https://allowed.example' } })), path).toEqual(expected);
    }
    expect(reported.at(-1)).toEqual({ method: 'POST', route: 'unmatched', status: 413 });
    expect(handler.maxRequestSize).toBe(100);
  });

  it('ignores a body sent with GET, as a fetch Request cannot carry one', async () => {
    expect((await handler.handle(plain('GET', '/apps/app-1/connections', { headers: bearer, body: new Uint8Array(500) }))).status).toBe(200);
  });

  it('reads a path the way a URL parser does: dot segments resolved, # kept', async () => {
    expect((await handler.handle(plain('GET', '/nope/../apps/app-1/connections', { headers: bearer }))).status).toBe(200);
    expect((await handler.handle(plain('GET', '/apps/app-1/connections#x', { headers: bearer }))).status).toBe(404);
  });
});

describe('routedPath', () => {
  it('is the path the handler routes on, for routes a host answers in front of it', () => {
    expect(routedPath('/up')).toBe('/up');
    expect(routedPath('/nope/../up')).toBe('/up');
    expect(routedPath('/%75p')).toBe('/up');
    expect(routedPath('/realtime/./up')).toBe('/realtime/up');
    expect(routedPath('/up#x')).toBe('/up%23x');
    expect(routedPath('/apps/a%2Fb/events')).toBe('/apps/a%2Fb/events');
  });
});

describe('the http.api.response event', () => {
  it('is emitted on the server\'s events for every answer, after onResponse, and reaches host events as HttpApiEvent', async () => {
    const order: string[] = [];
    const emitted: ResponseInfo[] = [];
    const host = hostEvents(server);
    const hostSeen: ResponseInfo[] = [];
    host.on('Realtime.WebSocket.HttpApiEvent', (info) => void hostSeen.push(info));
    const off = server.events.on('http.api.response', (info) => {
      order.push('event');
      emitted.push(info);
    });
    const observed = createPusherApiHandler({ server, onResponse: () => void order.push('onResponse') });
    try {
      await observed.handle(plain('GET', '/apps/app-1/connections', { headers: bearer }));
      await observed.handle(plain('GET', '/nope'));
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(emitted).toEqual([
        { app: mainApp, method: 'GET', route: '/apps/:appId/connections', status: 200 },
        { app: undefined, method: 'GET', route: 'unmatched', status: 404 },
      ]);
      expect(order).toEqual(['onResponse', 'event', 'onResponse', 'event']);
      expect(hostSeen).toEqual(emitted);
    } finally {
      off();
      host.off();
    }
  });
});

describe('createPusherApi mounted in a larger hono app', () => {
  it('claims only its own routes, so the host app keeps its routes and its 404', async () => {
    const host = new Hono();
    host.get('/hello', (c) => c.text('hi'));
    host.route('/', createPusherApi({ server }));
    host.get('/after', (c) => c.text('after'));
    expect(await (await host.request('/hello')).text()).toBe('hi');
    expect(await (await host.request('/after')).text()).toBe('after');
    expect(await (await host.request('/apps/app-1/connections', { headers: bearer })).json()).toEqual({ connections: 0 });
    expect((await host.request('/apps/app-1/events')).status).toBe(405);
    expect(await (await host.request('/elsewhere')).text()).toBe('404 Not Found');
    // Health is the host's to serve, e.g. `host.get('/up', ...)`: the API claims no such route.
    expect(await (await host.request('/up')).text()).toBe('404 Not Found');
  });

  it('tells the host app which app and route a request was for', async () => {
    const host = new Hono<{ Variables: { app: { id: string } | undefined; route: string } }>();
    const seen: string[] = [];
    host.use('*', async (c, next) => {
      await next();
      seen.push(`${c.get('route')} ${c.get('app')?.id ?? '-'} ${c.res.status}`);
    });
    host.route('/', createPusherApi({ server }));
    await host.request('/apps/app-1/connections', { headers: bearer });
    await host.request('/apps/app-1/events');
    expect(seen).toEqual(['/apps/:appId/connections app-1 200', '/apps/:appId/events - 405']);
  });
});
