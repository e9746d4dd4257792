import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { RateLimitKind } from './options.js';
import { signedFetch, signedQuery, startApi, type ApiFixture } from '../test/support/test-fixture.js';

let api: ApiFixture | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const start = async (options: Parameters<typeof startApi>[0] = {}) => (api = await startApi(options));

/** A POST whose body is sent in chunks without Content-Length, over node:http. */
function postChunked(port: number, path: string, chunks: readonly string[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path, headers: { 'transfer-encoding': 'chunked' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    // The server may answer and close before every chunk is written; that is the point.
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe('routing errors', () => {
  it('answers 404 JSON for an unknown route, inside and outside /apps', async () => {
    const { baseUrl } = await start();
    for (const path of ['/nope', '/apps/app-1/nope', '/apps/app-1/events/extra', '/apps/app-1']) {
      const response = await fetch(`${baseUrl}${path}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: 'Not found', code: 404 });
    }
  });

  it('answers 405 with an Allow header for a wrong method', async () => {
    const { baseUrl } = await start();
    const getEvents = await fetch(`${baseUrl}/apps/app-1/events`);
    expect(getEvents.status).toBe(405);
    expect(getEvents.headers.get('allow')).toBe('POST, OPTIONS');
    expect(await getEvents.json()).toEqual({ error: 'GET is not allowed here; use POST, OPTIONS', code: 405 });
    const deleteChannels = await fetch(`${baseUrl}/apps/app-1/channels`, { method: 'DELETE' });
    expect(deleteChannels.status).toBe(405);
    expect(deleteChannels.headers.get('allow')).toBe('GET, OPTIONS');
  });
});

describe('request size limits', () => {
  it('answers 413 from Content-Length before reading the body', async () => {
    const { baseUrl } = await start({ maxRequestSize: 1_000 });
    const body = JSON.stringify({ name: 'e', data: 'x'.repeat(2_000), channel: 'a' });
    const response = await signedFetch(baseUrl, { method: 'POST', path: '/apps/app-1/events', body });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: 'the request body is larger than 1000 bytes', code: 413 });
  });

  it('answers 413 when a chunked body without Content-Length passes the limit', async () => {
    const fixture = await start({ maxRequestSize: 1_000 });
    const socket = await fixture.subscriber('a');
    const path = `/apps/app-1/events?${signedQuery({ method: 'POST', path: '/apps/app-1/events', body: 'irrelevant' })}`;
    const answer = await postChunked(fixture.port, path, ['{"name":"e","data":"', 'x'.repeat(600), 'x'.repeat(600), '","channel":"a"}']);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ error: 'the request body is larger than 1000 bytes', code: 413 });
    expect(socket.events('e')).toEqual([]);
  });

  it('accepts a chunked body within the limit', async () => {
    const fixture = await start({ maxRequestSize: 1_000 });
    const socket = await fixture.subscriber('a');
    const chunks = ['{"name":"e",', '"data":"hi",', '"channel":"a"}'];
    const path = `/apps/app-1/events?${signedQuery({ method: 'POST', path: '/apps/app-1/events', body: chunks.join('') })}`;
    const answer = await postChunked(fixture.port, path, chunks);
    expect(answer.status).toBe(200);
    expect(socket.events('e')).toHaveLength(1);
  });

  it('enforces the default limit of 10 000 bytes', async () => {
    const { baseUrl } = await start();
    const body = JSON.stringify({ name: 'e', data: 'x'.repeat(10_000), channel: 'a' });
    const response = await signedFetch(baseUrl, { method: 'POST', path: '/apps/app-1/events', body });
    expect(response.status).toBe(413);
  });
});

describe('rate limiting', () => {
  it('asks the limiter with the right kind and points, and answers 429 with Retry-After when refused', async () => {
    const calls: { app: string; kind: RateLimitKind; points: number }[] = [];
    let allow = true;
    const fixture = await start({
      rateLimit: (app, kind, points) => {
        calls.push({ app: app.id, kind, points });
        return Promise.resolve(allow ? { allowed: true } : { allowed: false, retryAfterSeconds: 2.5 });
      },
    });
    const pusher = fixture.pusher();
    await pusher.trigger(['a', 'b', 'c'], 'e', 'x');
    await pusher.triggerBatch([{ channel: 'a', name: 'e', data: 'x' }, { channel: 'b', name: 'e', data: 'x' }]);
    await pusher.get({ path: '/channels' });
    await pusher.terminateUserConnections('u1');
    expect(calls).toEqual([
      { app: 'app-1', kind: 'backend_events', points: 3 },
      { app: 'app-1', kind: 'backend_events', points: 2 },
      { app: 'app-1', kind: 'read', points: 1 },
    ]);

    allow = false;
    const socket = await fixture.subscriber('a');
    const refused = await signedFetch(fixture.baseUrl, { method: 'POST', path: '/apps/app-1/events', body: JSON.stringify({ name: 'e', data: 'x', channel: 'a' }) });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('3');
    expect(await refused.json()).toEqual({ error: 'too many requests; retry in 3 s', code: 429 });
    expect(socket.events('e')).toEqual([]);
    const refusedRead = await signedFetch(fixture.baseUrl, { method: 'GET', path: '/apps/app-1/connections' });
    expect(refusedRead.status).toBe(429);
  });

  it('answers a request costing more than the whole limit with a 429 that says so, without Retry-After', async () => {
    const fixture = await start({ rateLimit: (_app, _kind, points) => Promise.resolve(points > 2 ? { allowed: false, limit: 2 } : { allowed: true }) });
    const socket = await fixture.subscriber('a');
    const refused = await signedFetch(fixture.baseUrl, { method: 'POST', path: '/apps/app-1/events', body: JSON.stringify({ name: 'e', data: 'x', channels: ['a', 'b', 'c'] }) });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBeNull();
    expect(await refused.json()).toEqual({ error: 'this request costs 3 points, more than the 2 a second the limit allows; split it', code: 429 });
    expect(socket.events('e')).toEqual([]);
  });

  it('does not charge the limiter for requests that fail validation or authentication', async () => {
    let calls = 0;
    const { baseUrl } = await start({ rateLimit: () => (calls++, Promise.resolve({ allowed: true })) });
    const tooMany = JSON.stringify({ name: 'e', data: 'x', channels: Array.from({ length: 101 }, (_, i) => `c${i}`) });
    expect((await signedFetch(baseUrl, { method: 'POST', path: '/apps/app-1/events', body: tooMany })).status).toBe(400);
    expect((await fetch(`${baseUrl}/apps/app-1/channels`)).status).toBe(401);
    expect(calls).toBe(0);
  });
});

describe('unexpected failures', () => {
  it('answers 500 without internals and reports the error to onError', async () => {
    const reported: unknown[] = [];
    const { baseUrl } = await start({
      rateLimit: () => Promise.reject(new Error('redis at 10.0.0.7:6379 refused, password=hunter2')),
      onError: (error, info) => reported.push({ message: (error as Error).message, ...info }),
    });
    const response = await signedFetch(baseUrl, { method: 'GET', path: '/apps/app-1/connections' });
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error: 'Internal server error', code: 500 });
    expect(text).not.toContain('hunter2');
    expect(reported).toEqual([{ message: 'redis at 10.0.0.7:6379 refused, password=hunter2', method: 'GET', route: '/apps/:appId/connections' }]);
  });

  it('keeps answering when the onResponse hook throws', async () => {
    const { baseUrl } = await start({
      onResponse: () => {
        throw new Error('metrics broke');
      },
    });
    const response = await signedFetch(baseUrl, { method: 'GET', path: '/apps/app-1/connections' });
    expect(response.status).toBe(200);
  });
});

describe('onResponse', () => {
  it('reports app, method, route pattern and status of every answer', async () => {
    const seen: { app: string | undefined; method: string; route: string; status: number }[] = [];
    const fixture = await start({ onResponse: ({ app, method, route, status }) => seen.push({ app: app?.id, method, route, status }) });
    await fixture.pusher().trigger('a', 'e', 'x');
    await fetch(`${fixture.baseUrl}/apps/app-1/channels/news`);
    await fetch(`${fixture.baseUrl}/apps/zzz/channels`);
    await fetch(`${fixture.baseUrl}/elsewhere`);
    expect(seen).toEqual([
      { app: 'app-1', method: 'POST', route: '/apps/:appId/events', status: 200 },
      { app: 'app-1', method: 'GET', route: '/apps/:appId/channels/:channelName', status: 401 },
      { app: undefined, method: 'GET', route: '/apps/:appId/channels', status: 404 },
      { app: undefined, method: 'GET', route: 'unmatched', status: 404 },
    ]);
  });
});
