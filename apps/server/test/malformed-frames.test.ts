import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { connectRaw, type CloseInfo, type Frame, type RawSocket } from './helpers/raw-socket.js';

const app = testApp('malformed');
let daemon: RunningDaemon;

beforeAll(async () => {
  daemon = await startDaemon(daemonConfig([app]));
});

afterEach(async () => {
  // Whatever the previous frame did, the daemon is alive and a new client still gets a handshake.
  expect(daemon.process.exitCode).toBeNull();
  const { socket, socketId } = await connectRaw(daemon, app.key);
  expect(socketId).toMatch(/^\d+\.\d+$/);
  socket.close();
});

/** Sends `payload` on a fresh connection; resolves with the first answer frame and/or the close. */
async function answerTo(payload: string | Buffer, options: { binary?: boolean } = {}): Promise<{ socket: RawSocket; frame?: Frame; close?: CloseInfo }> {
  const { socket } = await connectRaw(daemon, app.key);
  socket.send(payload, options);
  // next() rejects as soon as the socket closes without a matching frame.
  const frame = await socket.next(() => true, 3_000).catch(() => undefined);
  const close = socket.isOpen ? undefined : await socket.closedWithin(1_000);
  return { socket, ...(frame ? { frame } : {}), ...(close ? { close } : {}) };
}

/** The connection is still usable: a ping gets its pong. */
async function stillUsable(socket: RawSocket): Promise<void> {
  socket.send({ event: 'pusher:ping', data: {} });
  expect((await socket.next('pusher:pong')).event).toBe('pusher:pong');
}

const recoverable: [string, string, number][] = [
  ['text that is not JSON', 'hello {', 4200],
  ['an empty frame', '', 4200],
  ['a JSON array', '[1,2,3]', 4200],
  ['a JSON string', '"pusher:ping"', 4200],
  ['JSON null', 'null', 4200],
  ['a number', '42', 4200],
  ['an object without event', '{"data":{}}', 4200],
  ['a numeric event', '{"event":5,"data":{}}', 4200],
  ['an object event', '{"event":{"name":"pusher:ping"}}', 4200],
  ['subscribe with string data', '{"event":"pusher:subscribe","data":"presence-x"}', 4200],
  ['subscribe with a numeric channel', '{"event":"pusher:subscribe","data":{"channel":123}}', 4200],
  ['subscribe without data', '{"event":"pusher:subscribe"}', 4200],
  ['unsubscribe with a null channel', '{"event":"pusher:unsubscribe","data":{"channel":null}}', 4200],
  ['an unknown pusher: event', '{"event":"pusher:teleport","data":{}}', 4200],
  ['a pusher_internal: event from a client', '{"event":"pusher_internal:subscription_succeeded","channel":"x","data":"{}"}', 4200],
  ['an unknown non-client event', '{"event":"hello","data":{}}', 4301],
  ['a client event with a numeric channel', '{"event":"client-x","channel":7,"data":{}}', 4301],
  ['deeply nested JSON', `${'['.repeat(5_000)}${']'.repeat(5_000)}`, 4200],
];

describe('malformed frames never crash the daemon', () => {
  it.each(recoverable)('answers %s with pusher:error %i and keeps the connection', async (_label, payload, code) => {
    const { socket, frame } = await answerTo(payload);
    expect(frame).toEqual({ event: 'pusher:error', data: { code, message: expect.any(String) } });
    await stillUsable(socket);
  });

  it('answers a binary frame with pusher:error 4200', async () => {
    const { socket, frame } = await answerTo(Buffer.from('{"event":"pusher:ping","data":{}}'), { binary: true });
    expect(frame).toEqual({ event: 'pusher:error', data: { code: 4200, message: expect.stringMatching(/binary/i) } });
    await stillUsable(socket);
  });

  it('fails the connection on a text frame of invalid UTF-8 bytes (PROTOCOL.md: closed, as RFC 6455 requires)', async () => {
    const { frame, close } = await answerTo(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]), { binary: false });
    expect(frame).toBeUndefined();
    // uWebSockets.js validates text frames itself and drops the connection without a close frame (1006).
    expect([1006, 1007]).toContain(close?.code);
  });

  it('closes the connection on a frame over the payload limit', async () => {
    const { socket } = await connectRaw(daemon, app.key);
    socket.send(JSON.stringify({ event: 'client-huge', channel: 'private-x', data: 'h'.repeat(100_000) }));
    const close = await socket.closedWithin(5_000);
    expect([1006, 1009]).toContain(close.code);
    expect(socket.received.some((frame) => frame.event === 'client-huge')).toBe(false);
  });

  it('closes a malformed pusher:signin (data null) with 4009', async () => {
    const { socket } = await connectRaw(daemon, app.key);
    socket.send('{"event":"pusher:signin","data":null}');
    expect((await socket.next('pusher:error')).data).toMatchObject({ code: 4009 });
    expect((await socket.closedWithin()).code).toBe(4009);
  });

  it('answers a flood of garbage from many sockets at once and keeps every connection usable', async () => {
    const garbage: [string | Buffer, boolean][] = [['{"event":', false], [Buffer.from([0xff, 0x00, 0x13]), true], ['[]', false], ['{"event":"pusher:subscribe","data":7}', false]];
    const sockets = await Promise.all(Array.from({ length: 10 }, () => connectRaw(daemon, app.key)));
    for (const { socket } of sockets) for (let i = 0; i < 50; i++) socket.send(garbage[i % 4]![0], { binary: garbage[i % 4]![1] });
    await Promise.all(sockets.map(({ socket }) => stillUsable(socket)));
    for (const { socket } of sockets) expect(socket.received.filter((frame) => frame.event === 'pusher:error')).toHaveLength(50);
    for (const { socket } of sockets) socket.close();
  });

  it('survives many sockets sending invalid UTF-8 text at once', async () => {
    const sockets = await Promise.all(Array.from({ length: 10 }, () => connectRaw(daemon, app.key)));
    for (const { socket } of sockets) for (let i = 0; i < 20; i++) socket.send(Buffer.from([0xc3, 0x28, i]), { binary: false });
    await Promise.all(sockets.map(({ socket }) => socket.closedWithin().catch(() => undefined)));
    expect(daemon.process.exitCode).toBeNull();
  });
});
