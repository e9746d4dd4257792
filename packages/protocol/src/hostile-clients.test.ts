import { describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import { createStaticAppProvider } from './app-provider.js';
import { signChannel } from './signing.js';
import { ErrorCode } from './close-codes.js';
import { createLocalScaler } from './local-scaler.js';
import { localNodeOf, RealtimeServer } from './realtime-server.js';
import type { Scaler } from './scaler.js';
import type { ServerEventMap } from './server-events.js';
import { MemoryTransport, settle, type MemorySocket } from './testing/memory-transport.js';

const app = createApp({ id: '1', key: 'key', secret: 'secret', maxChannelsPerConnection: 3, maxFramesPerSecond: 10, maxClientEventsPerSecond: 100 });

function setup(scaler: Scaler = createLocalScaler()) {
  const server = new RealtimeServer({ apps: createStaticAppProvider([app]), scaler });
  const seen: { [K in keyof ServerEventMap]?: ServerEventMap[K][] } = {};
  const record = <K extends keyof ServerEventMap>(name: K) => server.events.on(name, (payload) => void (seen[name] ??= []).push(payload as never));
  for (const name of ['frame.refused', 'subscription.refused', 'handler.failed', 'connection.flood_closed'] as const) record(name);
  return { server, scaler, seen, transport: new MemoryTransport(server) };
}

async function subscribePrivate(socket: MemorySocket, channel: string) {
  socket.receive({ event: 'pusher:subscribe', data: { channel, auth: signChannel(app, socket.socketId, channel) } });
  await settle();
}

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('frames nested too deeply', () => {
  it('answers a client event whose data nests thousands of levels with 4200, relays nothing and keeps serving', async () => {
    const { server, transport, seen } = setup();
    const [sender, peer] = [await transport.connect({ appKey: 'key' }), await transport.connect({ appKey: 'key' })];
    await subscribePrivate(sender, 'private-room');
    await subscribePrivate(peer, 'private-room');
    const before = peer.frames.length;

    sender.receive(`{"event":"client-x","channel":"private-room","data":${nested(5_000)}}`);
    expect(sender.events('pusher:error').at(-1)?.data).toEqual({ code: ErrorCode.ReconnectNow, message: 'Invalid message format: JSON nests deeper than 64 levels.' });
    expect(peer.frames.length).toBe(before);
    expect(seen['frame.refused']).toEqual([{ app, reason: 'too_deep' }]);

    sender.receive({ event: 'client-x', channel: 'private-room', data: { ok: true } });
    expect(peer.events('client-x')).toEqual([{ event: 'client-x', channel: 'private-room', data: { ok: true } }]);
    expect(localNodeOf(server).connections.size).toBe(2);
  });

  it('refuses string data that is deeply nested JSON (receivers parse it), with 4301 to the sender only', async () => {
    const { transport } = setup();
    const [sender, peer] = [await transport.connect({ appKey: 'key' }), await transport.connect({ appKey: 'key' })];
    await subscribePrivate(sender, 'private-room');
    await subscribePrivate(peer, 'private-room');
    sender.receive({ event: 'client-x', channel: 'private-room', data: nested(5_000) });
    expect(sender.events('pusher:error').at(-1)?.data).toEqual({ code: ErrorCode.ClientEventRejected, message: 'Event data nests JSON deeper than 64 levels.' });
    expect(peer.events('client-x')).toEqual([]);
  });

  it('accepts data nested exactly to the limit', async () => {
    const { transport } = setup();
    const [sender, peer] = [await transport.connect({ appKey: 'key' }), await transport.connect({ appKey: 'key' })];
    await subscribePrivate(sender, 'private-room');
    await subscribePrivate(peer, 'private-room');
    sender.receive(`{"event":"client-x","channel":"private-room","data":${nested(63)}}`);
    expect(peer.events('client-x')).toHaveLength(1);
  });

  it('refuses presence channel_data and sign-in user_data that nest too deeply, without throwing', async () => {
    const { transport, seen } = setup();
    const socket = await transport.connect({ appKey: 'key' });
    const channelData = `{"user_id":"u","user_info":${nested(3_000)}}`;
    const channel = 'presence-room';
    socket.receive({ event: 'pusher:subscribe', data: { channel, auth: signChannel(app, socket.socketId, channel, channelData), channel_data: channelData } });
    await settle();
    expect(socket.events('pusher:subscription_error')[0]?.data).toMatchObject({ type: 'LimitReached', error: 'channel_data nests deeper than 64 levels' });
    expect(seen['subscription.refused']).toEqual([{ app, channel, reason: 'invalid_presence_data' }]);
    expect(socket.closed).toBeUndefined();
  });
});

describe('channels per connection', () => {
  it('refuses a subscription past the limit with LimitReached and 4100, and admits one after an unsubscribe', async () => {
    const { server, transport, seen } = setup();
    const socket = await transport.connect({ appKey: 'key' });
    for (const channel of ['a', 'b', 'c', 'd']) socket.receive({ event: 'pusher:subscribe', data: { channel } });
    await settle();
    expect(socket.events('pusher_internal:subscription_succeeded').map((frame) => frame.channel)).toEqual(['a', 'b', 'c']);
    expect(socket.events('pusher:subscription_error')).toEqual([
      {
        event: 'pusher:subscription_error',
        channel: 'd',
        data: { type: 'LimitReached', error: 'A connection may hold at most 3 channels; unsubscribe from one first.', status: ErrorCode.OverCapacity },
      },
    ]);
    expect(seen['subscription.refused']).toEqual([{ app, channel: 'd', reason: 'channel_limit' }]);
    expect(await server.channels(app)).toEqual({ a: {}, b: {}, c: {} });

    socket.receive({ event: 'pusher:unsubscribe', data: { channel: 'a' } });
    socket.receive({ event: 'pusher:subscribe', data: { channel: 'd' } });
    await settle();
    expect(Object.keys(await server.channels(app)).sort()).toEqual(['b', 'c', 'd']);
  });
});

describe('frames per second', () => {
  it('drops frames over the limit with one 4301 per second, and serves the next second', async () => {
    const { server, transport, seen } = setup();
    const socket = await transport.connect({ appKey: 'key' });
    localNodeOf(server).now = 1_000_000;
    for (let i = 0; i < 15; i++) socket.receive({ event: 'pusher:ping', data: {} });
    expect(socket.events('pusher:pong')).toHaveLength(10);
    expect(socket.events('pusher:error')).toEqual([
      { event: 'pusher:error', data: { code: ErrorCode.ClientEventRejected, message: 'Rate limit exceeded: at most 10 frames per second; frames dropped.' } },
    ]);
    expect(seen['frame.refused']).toHaveLength(5);

    localNodeOf(server).now += 1_000;
    socket.receive({ event: 'pusher:ping', data: {} });
    expect(socket.events('pusher:pong')).toHaveLength(11);
    expect(socket.closed).toBeUndefined();
  });

  it('closes with 4100 a connection that sends twice the limit in one second', async () => {
    const { server, transport, seen } = setup();
    const [flooder, bystander] = [await transport.connect({ appKey: 'key' }), await transport.connect({ appKey: 'key' })];
    localNodeOf(server).now = 2_000_000;
    for (let i = 0; i < 25 && !flooder.closed; i++) flooder.receive({ event: 'pusher:ping', data: {} });
    expect(flooder.closed).toEqual({ code: ErrorCode.OverCapacity, reason: 'Too many frames: at most 10 per second.' });
    expect(seen['connection.flood_closed']).toEqual([{ app, socketId: flooder.socketId }]);
    bystander.receive({ event: 'pusher:ping', data: {} });
    expect(bystander.events('pusher:pong')).toHaveLength(1);
  });

  it('counts binary frames too: answered with 4200 within the budget, closed with 4100 when flooding', async () => {
    const { server, transport, seen } = setup();
    const socket = await transport.connect({ appKey: 'key' });
    localNodeOf(server).now = 2_500_000;
    for (let i = 0; i < 25 && !socket.closed; i++) server.binaryMessage(socket.connection!, 3);
    expect(socket.events('pusher:error').slice(0, 10).every((frame) => (frame.data as { code: number }).code === ErrorCode.ReconnectNow)).toBe(true);
    // Ten answered, one 4301 for the second over budget, then the 4100 that closes it.
    expect(socket.events('pusher:error').slice(10).map((frame) => (frame.data as { code: number }).code)).toEqual([ErrorCode.ClientEventRejected, ErrorCode.OverCapacity]);
    expect(socket.closed?.code).toBe(ErrorCode.OverCapacity);
    expect(seen['frame.refused']?.filter(({ reason }) => reason === 'binary')).toHaveLength(10);
  });

  it('closes with 4100 a connection over the limit three seconds in a row, but not one that pauses in between', async () => {
    const { server, transport } = setup();
    const [steady, pausing] = [await transport.connect({ appKey: 'key' }), await transport.connect({ appKey: 'key' })];
    localNodeOf(server).now = 3_000_000;
    for (const [second, sockets] of [[0, [steady, pausing]], [1, [steady]], [2, [steady, pausing]], [3, [pausing]]] as const) {
      localNodeOf(server).now = 3_000_000 + second * 1_000;
      for (const socket of sockets) for (let i = 0; i < 12; i++) if (!socket.closed) socket.receive({ event: 'pusher:ping', data: {} });
    }
    expect(steady.closed?.code).toBe(ErrorCode.OverCapacity);
    expect(pausing.closed).toBeUndefined();
  });
});

describe('a handler that fails', () => {
  it('answers the sender with pusher:error, reports handler.failed, and keeps the connection and the node up', async () => {
    const local = createLocalScaler();
    const failing: Scaler = {
      ...local,
      async addSubscription(appId, channel, socketId) {
        if (channel === 'boom') throw new Error('scaler exploded');
        return local.addSubscription(appId, channel, socketId);
      },
    };
    const { transport, seen } = setup(failing);
    const socket = await transport.connect({ appKey: 'key' });
    socket.receive({ event: 'pusher:subscribe', data: { channel: 'boom' } });
    await settle();
    expect(socket.events('pusher:error').at(-1)?.data).toEqual({ code: null, message: 'Server error while handling the message.' });
    expect(seen['handler.failed']?.map(({ kind }) => kind)).toEqual(['subscribe']);
    expect(socket.closed).toBeUndefined();

    socket.receive({ event: 'pusher:subscribe', data: { channel: 'fine' } });
    await settle();
    expect(socket.events('pusher_internal:subscription_succeeded').map((frame) => frame.channel)).toEqual(['fine']);
  });

  it('survives a cluster message whose delivery throws', async () => {
    let deliver: ((message: never) => void) | undefined;
    const local = createLocalScaler();
    const { server, transport, seen } = setup({
      ...local,
      async start(onMessage) {
        deliver = onMessage as (message: never) => void;
      },
    });
    await server.start();
    const socket = await transport.connect({ appKey: 'key' });
    socket.receive({ event: 'pusher:subscribe', data: { channel: 'room' } });
    await settle();
    transport.publish = () => {
      throw new Error('transport exploded');
    };
    expect(() => deliver?.({ type: 'broadcast', appId: '1', channel: 'room', frame: '{}' } as never)).not.toThrow();
    expect(seen['handler.failed']?.map(({ kind }) => kind)).toEqual(['cluster_message']);
    await server.stop();
  });
});
