import { createApp, createStaticAppProvider, RealtimeServer } from '@org/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createUwsServer, type UwsServer } from './uws-server.js';
import { isNativeUws, loadUws } from './load-uws.js';

const app = createApp({ id: '1', key: 'key', secret: 'secret', maxMessageSize: 1_000 });
let engine: RealtimeServer;
let transport: UwsServer;
let port: number;

beforeAll(async () => {
  engine = new RealtimeServer({ apps: createStaticAppProvider([app]) });
  transport = await createUwsServer({
    server: engine,
    host: '127.0.0.1',
    port: 0,
    maxRequestSize: 64,
    maxBackpressure: 64 * 1024,
    fetch: async (request) => {
      const path = new URL(request.url).pathname;
      if (path === '/broken-stream') return new Response(new ReadableStream({ pull: (controller) => controller.error(new Error('stream failed')) }));
      return Response.json({ method: request.method, path, body: await request.text() });
    },
    plain: ({ method, path, query, headers, body }) => {
      if (path === '/plain/throws') throw new Error('handler bug');
      if (!path.startsWith('/plain/')) return undefined;
      const echoed = { method, path, query, library: headers['x-pusher-library'], body: Buffer.from(body).toString() };
      return { status: 201, headers: { 'content-type': 'application/json', 'x-served-by': 'plain' }, body: JSON.stringify(echoed) };
    },
  });
  await engine.start();
  port = await transport.listen();
});

afterAll(async () => {
  transport.stopListening();
  await engine.stop();
});

/** A raw client that collects frames and its close code. */
async function connect(path = '/app/key?protocol=7') {
  const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`);
  const frames: { event: string; channel?: string; data?: unknown }[] = [];
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  ws.on('message', (data) => frames.push(JSON.parse(data.toString()) as { event: string }));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  await expect.poll(() => frames.length).toBeGreaterThan(0);
  return { ws, frames, closed };
}

describe('uWebSockets.js transport', () => {
  it('loads the native addon, not the JavaScript emulation', () => {
    expect(isNativeUws(loadUws())).toBe(true);
  });

  it('hands the connection to the engine, which answers with connection_established', async () => {
    const { ws, frames } = await connect();
    expect(frames[0]?.event).toBe('pusher:connection_established');
    ws.close();
  });

  it('closes an unknown app key with 4001 after the pusher:error frame', async () => {
    const { frames, closed } = await connect('/app/unknown');
    expect(await closed).toBe(4001);
    expect(frames[0]).toMatchObject({ event: 'pusher:error', data: { code: 4001 } });
  });

  it('fans out through native topics to every subscriber', async () => {
    const clients = await Promise.all([connect(), connect(), connect()]);
    for (const { ws } of clients) ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel: 'news' } }));
    for (const { frames } of clients) await expect.poll(() => frames.some((f) => f.event === 'pusher_internal:subscription_succeeded')).toBe(true);
    await engine.trigger(app, { name: 'update', data: 'hello', channels: ['news'] });
    for (const { frames } of clients) await expect.poll(() => frames.find((f) => f.event === 'update')?.data).toBe('hello');
    for (const { ws } of clients) ws.close();
  });

  it('answers a binary frame with a 4200 error and keeps the socket open', async () => {
    const { ws, frames } = await connect();
    ws.send(Buffer.from([1, 2, 3]), { binary: true });
    await expect.poll(() => frames.find((f) => f.event === 'pusher:error')?.data).toMatchObject({ code: 4200 });
    ws.send(JSON.stringify({ event: 'pusher:ping', data: {} }));
    await expect.poll(() => frames.at(-1)?.event).toBe('pusher:pong');
    ws.close();
  });

  it('drops a connection that sends invalid UTF-8 in a text frame, and keeps serving others', async () => {
    const { ws, closed } = await connect();
    ws.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
    expect(await closed).not.toBe(1000);
    expect((await connect()).frames[0]?.event).toBe('pusher:connection_established');
  });

  it('closes a connection that sends a frame over the payload limit with 1009, and keeps serving others', async () => {
    const { ws, closed } = await connect();
    ws.send(JSON.stringify({ event: 'client-x', channel: 'private-a', data: 'x'.repeat(30_000) }));
    expect(await closed).toBe(1009);
    expect((await connect()).frames[0]?.event).toBe('pusher:connection_established');
  });

  it('closes a client that stops reading once its buffer passes maxBackpressure', async () => {
    const slow = await connect();
    slow.ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel: 'firehose' } }));
    await expect.poll(() => slow.frames.some((f) => f.event === 'pusher_internal:subscription_succeeded')).toBe(true);
    // Stop reading from the TCP socket: the server's buffer for this client grows.
    (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    // Enough to fill the kernel's loopback buffers and then uWS's 64 KiB allowance.
    const payload = 'y'.repeat(900);
    let closedCode: number | undefined;
    void slow.closed.then((code) => (closedCode = code));
    for (let i = 0; i < 60_000 && closedCode === undefined; i++) {
      await engine.trigger(app, { name: 'tick', data: payload, channels: ['firehose'] });
      if (i % 1000 === 0) {
        (slow.ws as unknown as { _socket: { resume(): void; pause(): void } })._socket.resume();
        (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();
      }
    }
    (slow.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    expect(await slow.closed).not.toBe(1000);
    const fresh = await connect();
    expect(fresh.frames[0]?.event).toBe('pusher:connection_established');
    fresh.ws.close();
  });

  it('bridges HTTP requests to the fetch handler with method, path and body', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/apps/1/events?x=1`, { method: 'POST', body: '{"a":1}' });
    expect(await response.json()).toEqual({ method: 'POST', path: '/apps/1/events', body: '{"a":1}' });
  });

  it('answers from the plain handler with the request as plain values, before the fetch handler', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/plain/events?a=1&b=2`, { method: 'POST', body: '{"n":1}', headers: { 'x-pusher-library': 'test' } });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-served-by')).toBe('plain');
    expect(await response.json()).toEqual({ method: 'POST', path: '/plain/events', query: 'a=1&b=2', library: 'test', body: '{"n":1}' });
  });

  it('answers 500 with a JSON error when the plain handler throws, and keeps serving', async () => {
    const failed = await fetch(`http://127.0.0.1:${port}/plain/throws`);
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ error: 'Internal server error.', code: 500 });
    expect((await fetch(`http://127.0.0.1:${port}/plain/ok`)).status).toBe(201);
  });

  it('answers HEAD with the length a GET would have and no body', async () => {
    const head = await fetch(`http://127.0.0.1:${port}/thing`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(JSON.stringify({ method: 'HEAD', path: '/thing', body: '' }).length));
    expect(await head.text()).toBe('');
  });

  it('answers 500 when the response body fails midway, and settles the request', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/broken-stream`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'Internal server error.', code: 500 });
    expect(transport.inFlightRequests).toBe(0);
  });

  it('refuses HTTP bodies over maxRequestSize with 413 and a JSON error', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/apps/1/events`, { method: 'POST', body: 'z'.repeat(65) });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: 'the request body is larger than 64 bytes', code: 413 });
  });
});
