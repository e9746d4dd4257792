import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApp } from './app.js';
import { createStaticAppProvider } from './app-provider.js';
import { ErrorCode } from './close-codes.js';
import { localNodeOf, RealtimeServer } from './realtime-server.js';
import { signChannel, signUser } from './signing.js';
import { MemoryTransport, settle, type MemorySocket } from './testing/memory-transport.js';

// Pusher's "Authorized connections": with the option on, a connection that neither signed in nor was
// confirmed on a private- or presence- channel is closed with 4009 once the timeout has passed.
const guarded = createApp({ id: '1', key: 'guarded', secret: 's1', enableUserAuthentication: true, userAuthenticationTimeout: 2 });
const open = createApp({ id: '2', key: 'open', secret: 's2' });
const reason = 'Connection not authorized within 2 seconds: sign in (pusher.signin()) or subscribe to a private or presence channel.';

function setup() {
  const server = new RealtimeServer({ apps: createStaticAppProvider([guarded, open]), sweepIntervalMs: 1_000 });
  const transport = new MemoryTransport(server);
  const closedUnauthorized: string[] = [];
  server.events.on('connection.unauthorized_closed', ({ app, socketId }) => closedUnauthorized.push(`${app.id}:${socketId}`));
  return { server, transport, closedUnauthorized };
}

async function subscribe(socket: MemorySocket, channel: string, auth = signChannel(guarded, socket.socketId, channel)) {
  socket.receive({ event: 'pusher:subscribe', data: { channel, auth } });
  await settle();
}

describe('authorized connections (enableUserAuthentication)', () => {
  // Only the clock and the sweep's interval are faked: the memory transport settles on real setImmediate.
  beforeEach(() => vi.useFakeTimers({ now: 0, toFake: ['Date', 'setInterval', 'clearInterval'] }));
  afterEach(() => vi.useRealTimers());

  it('closes an anonymous connection with pusher:error and close 4009 at the timeout, not before', async () => {
    const { server, transport, closedUnauthorized } = setup();
    await server.start();
    const socket = await transport.connect({ appKey: 'guarded' });
    vi.advanceTimersByTime(1_000);
    expect(socket.closed).toBeUndefined();
    // A client that talks (pings, public subscriptions) is still anonymous.
    await subscribe(socket, 'news', '');
    socket.receive({ event: 'pusher:ping', data: {} });
    vi.advanceTimersByTime(1_000);
    expect(socket.events('pusher:error').map((frame) => frame.data)).toEqual([{ code: ErrorCode.Unauthorized, message: reason }]);
    expect(socket.closed).toEqual({ code: 4009, reason });
    expect(closedUnauthorized).toEqual([`1:${socket.socketId}`]);
    await settle();
    expect(localNodeOf(server).connections.size).toBe(0);
    await server.stop();
  });

  it('keeps a connection that signed in', async () => {
    const { server, transport, closedUnauthorized } = setup();
    await server.start();
    const socket = await transport.connect({ appKey: 'guarded' });
    const userData = JSON.stringify({ id: 'ada' });
    socket.receive({ event: 'pusher:signin', data: { auth: signUser(guarded, socket.socketId, userData), user_data: userData } });
    vi.advanceTimersByTime(10_000);
    expect(socket.closed).toBeUndefined();
    expect(closedUnauthorized).toEqual([]);
    await server.stop();
  });

  it.each(['private-a', 'private-encrypted-a', 'private-cache-a', 'presence-a', 'presence-cache-a'])('keeps a connection confirmed on %s, even after it unsubscribes', async (channel) => {
    const { server, transport } = setup();
    await server.start();
    const socket = await transport.connect({ appKey: 'guarded' });
    const channelData = JSON.stringify({ user_id: 'u1' });
    const presence = channel.startsWith('presence-');
    socket.receive({
      event: 'pusher:subscribe',
      data: presence ? { channel, auth: signChannel(guarded, socket.socketId, channel, channelData), channel_data: channelData } : { channel, auth: signChannel(guarded, socket.socketId, channel) },
    });
    await settle();
    expect(socket.events('pusher_internal:subscription_succeeded')).toHaveLength(1);
    socket.receive({ event: 'pusher:unsubscribe', data: { channel } });
    await settle();
    vi.advanceTimersByTime(10_000);
    expect(socket.closed).toBeUndefined();
    await server.stop();
  });

  it('closes a connection whose private subscription was refused', async () => {
    const { server, transport } = setup();
    await server.start();
    const socket = await transport.connect({ appKey: 'guarded' });
    await subscribe(socket, 'private-a', 'guarded:bad');
    expect(socket.events('pusher:subscription_error')).toHaveLength(1);
    vi.advanceTimersByTime(2_000);
    expect(socket.closed?.code).toBe(4009);
    await server.stop();
  });

  it('leaves anonymous connections of an app without the option alone', async () => {
    const { server, transport, closedUnauthorized } = setup();
    await server.start();
    const socket = await transport.connect({ appKey: 'open' });
    socket.receive({ event: 'pusher:ping', data: {} }); // keeps it from the activity ping's 4201
    vi.advanceTimersByTime(20_000);
    expect(socket.closed).toBeUndefined();
    expect(closedUnauthorized).toEqual([]);
    await server.stop();
  });

  it('refuses a timeout that is not a positive integer of at most a day', () => {
    for (const userAuthenticationTimeout of [0, 1.5, 86_401]) {
      expect(() => createApp({ id: 'x', key: 'k', secret: 's', userAuthenticationTimeout })).toThrow(/userAuthenticationTimeout/);
    }
    expect(createApp({ id: 'x', key: 'k', secret: 's', userAuthenticationTimeout: 86_400 }).userAuthenticationTimeout).toBe(86_400);
  });
});
