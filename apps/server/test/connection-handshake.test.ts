import { beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { connected, disconnect, pusherClient } from './helpers/clients.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { connectRaw, openRaw } from './helpers/raw-socket.js';
import { sleep, waitFor } from './helpers/wait.js';

const open = testApp('open', { activity_timeout: 42 });
const guarded = testApp('guarded', { allowed_origins: ['https://app.example.com', '*.trusted.test'] });
const inherits = testApp('inherits');
let daemon: RunningDaemon;

beforeAll(async () => {
  // A server-level activity_timeout that only apps without their own value inherit.
  daemon = await startDaemon(daemonConfig([open, guarded, inherits], { servers: { main: { activity_timeout: 7 } } }));
});

describe('connection handshake', () => {
  it('sends pusher:connection_established with a digits.digits socket_id and the app activity_timeout', async () => {
    const socket = await openRaw(daemon, open.key);
    const frame = await socket.next('pusher:connection_established');
    expect(typeof frame.data).toBe('string');
    const data = JSON.parse(frame.data as string) as Record<string, unknown>;
    expect(data).toEqual({ socket_id: expect.stringMatching(/^\d+\.\d+$/), activity_timeout: 42 });
    expect(socket.texts[0]).toBe(`{"event":"pusher:connection_established","data":${JSON.stringify(frame.data)}}`);
    socket.close();
  });

  it('lets an app without activity_timeout inherit the server-level value (the app value wins when set)', async () => {
    const { socket } = await connectRaw(daemon, inherits.key);
    expect(JSON.parse(socket.received[0]!.data as string)).toMatchObject({ activity_timeout: 7 });
  });

  it('gives every connection a different socket_id', async () => {
    const ids = await Promise.all(Array.from({ length: 5 }, async () => (await connectRaw(daemon, open.key)).socketId));
    expect(new Set(ids).size).toBe(5);
  });

  it('connects without a protocol query parameter (only a given, wrong one is refused)', async () => {
    const { socketId } = await connectRaw(daemon, open.key, { query: '' });
    expect(socketId).toMatch(/^\d+\.\d+$/);
  });

  it('connects pusher-js and exposes the socket id', async () => {
    const client = pusherClient(daemon, open);
    const socketId = await connected(client);
    expect(socketId).toMatch(/^\d+\.\d+$/);
    disconnect(client);
  });

  it('answers an unknown app key with pusher:error 4001, then closes with 4001', async () => {
    const socket = await openRaw(daemon, 'no-such-key');
    const error = await socket.next('pusher:error');
    expect(error).toEqual({ event: 'pusher:error', data: { code: 4001, message: expect.stringContaining('no-such-key') } });
    expect((await socket.closedWithin()).code).toBe(4001);
    expect(socket.received.map((frame) => frame.event)).toEqual(['pusher:error']);
  });

  it('makes pusher-js report 4001 for an unknown key and give up instead of reconnecting', async () => {
    const client = pusherClient(daemon, { ...open, key: 'unknown-to-the-daemon' });
    const codes: number[] = [];
    const states: string[] = [];
    // Refused during the handshake, pusher-js wraps the pusher:error in a WebSocketError.
    client.connection.bind('error', (error: { error?: { data?: { code?: number } } }) => {
      if (error.error?.data?.code !== undefined) codes.push(error.error.data.code);
    });
    client.connection.bind('state_change', ({ current }: { current: string }) => states.push(current));
    await waitFor(() => (codes.includes(4001) ? true : undefined), 'pusher-js to see 4001');
    await sleep(500);
    expect(states).toEqual(['disconnected']);
    expect(client.connection.state).toBe('disconnected');
    disconnect(client);
  });

  it('refuses protocol=6 with pusher:error 4007 and closes with 4007', async () => {
    const socket = await openRaw(daemon, open.key, { query: 'protocol=6&client=js&version=1.0' });
    const error = await socket.next('pusher:error');
    expect(error.data).toEqual({ code: 4007, message: expect.any(String) });
    expect((await socket.closedWithin()).code).toBe(4007);
  });

  it('refuses an origin outside allowed_origins with 4009 and closes', async () => {
    const socket = await openRaw(daemon, guarded.key, { origin: 'https://evil.example.org' });
    const error = await socket.next('pusher:error');
    expect(error.data).toEqual({ code: 4009, message: expect.any(String) });
    expect((await socket.closedWithin()).code).toBe(4009);
  });

  it('refuses a missing Origin when allowed_origins is restricted', async () => {
    const socket = await openRaw(daemon, guarded.key);
    expect((await socket.next('pusher:error')).data).toMatchObject({ code: 4009 });
    expect((await socket.closedWithin()).code).toBe(4009);
  });

  it('accepts an origin listed exactly or matching a *. wildcard', async () => {
    const exact = await connectRaw(daemon, guarded.key, { origin: 'https://app.example.com' });
    const wildcard = await connectRaw(daemon, guarded.key, { origin: 'https://eu.trusted.test' });
    expect(exact.socketId).not.toBe(wildcard.socketId);
    expect(exact.socket.isOpen && wildcard.socket.isOpen).toBe(true);
  });

  it('answers pusher:ping with pusher:pong', async () => {
    const { socket } = await connectRaw(daemon, open.key);
    socket.send({ event: 'pusher:ping', data: {} });
    const pong = await socket.next('pusher:pong');
    expect(pong).toEqual({ event: 'pusher:pong', data: {} });
    expect(socket.isOpen).toBe(true);
  });

  it('keeps pusher-js connected across its own ping/pong exchange', async () => {
    const client = pusherClient(daemon, open);
    await connected(client);
    // pusher-js sends pusher:ping itself when asked to check activity; the reply must reach it.
    const pong = new Promise<void>((resolve) => client.connection.bind('message', (message: { event: string }) => {
      if (message.event === 'pusher:pong') resolve();
    }));
    client.send_event('pusher:ping', {});
    await pong;
    expect(client.connection.state).toBe('connected');
    disconnect(client);
  });
});
