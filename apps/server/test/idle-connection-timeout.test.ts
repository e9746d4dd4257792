import { beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { connected, pusherClient } from './helpers/clients.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { connectRaw } from './helpers/raw-socket.js';
import { sleep } from './helpers/wait.js';

// The shortest timeouts the config accepts, so the sweep is observable in a few seconds.
const fast = testApp('fast', { activity_timeout: 1, ping_interval: 1 });
let daemon: RunningDaemon;

beforeAll(async () => {
  daemon = await startDaemon(daemonConfig([fast]));
});

describe('server pings on idle connections', () => {
  it('announces the app activity_timeout in the handshake', async () => {
    const { socket } = await connectRaw(daemon, fast.key);
    const established = socket.received[0]!;
    expect(JSON.parse(established.data as string)).toMatchObject({ activity_timeout: 1 });
  });

  it('pings a silent client after activity_timeout and closes it with 4201 when no pong follows', async () => {
    const { socket } = await connectRaw(daemon, fast.key);
    const openedAt = Date.now();
    const ping = await socket.next('pusher:ping', 4_000);
    expect(ping).toEqual({ event: 'pusher:ping', data: {} });
    expect(Date.now() - openedAt).toBeGreaterThanOrEqual(900);

    const error = await socket.next('pusher:error', 4_000);
    expect(error.data).toEqual({ code: 4201, message: expect.any(String) });
    const close = await socket.closedWithin(2_000);
    expect(close.code).toBe(4201);
  });

  it('keeps a client that answers every ping with pusher:pong', async () => {
    const { socket } = await connectRaw(daemon, fast.key);
    socket.ws.on('message', (data) => {
      if ((JSON.parse(String(data)) as { event: string }).event === 'pusher:ping') socket.send({ event: 'pusher:pong', data: {} });
    });
    await socket.next('pusher:ping', 4_000);
    await sleep(3_000);
    expect(socket.received.filter((frame) => frame.event === 'pusher:ping').length).toBeGreaterThanOrEqual(2);
    expect(socket.received.some((frame) => frame.event === 'pusher:error')).toBe(false);
    expect(socket.isOpen).toBe(true);
    socket.close();
  });

  it('keeps pusher-js connected: it answers the server pings on its own', async () => {
    const client = pusherClient(daemon, fast);
    const socketId = await connected(client);
    const errors: unknown[] = [];
    client.connection.bind('error', (error: unknown) => errors.push(error));
    await sleep(3_500);
    expect(errors).toEqual([]);
    expect(client.connection.state).toBe('connected');
    expect(client.connection.socket_id).toBe(socketId);
  });
});
