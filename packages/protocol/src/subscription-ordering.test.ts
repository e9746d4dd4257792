import { describe, expect, it } from 'vitest';
import { createApp, type App } from './app.js';
import { createStaticAppProvider } from './app-provider.js';
import { signChannel } from './signing.js';
import { createLocalScaler } from './local-scaler.js';
import { RealtimeServer } from './realtime-server.js';
import type { Scaler } from './scaler.js';
import { createMemoryCluster } from './testing/memory-cluster.js';
import { MemoryTransport, settle, type MemorySocket } from './testing/memory-transport.js';

/** What a client sees, in order, around its subscription: Pusher's guarantees, and ours. */
const roomy = createApp({ id: 'order', key: 'order-key', secret: 'order-secret' });
const single = createApp({ id: 'single', key: 'single-key', secret: 'single-secret', maxPresenceMembers: 1 });

/** A scaler whose chosen call waits until the test releases it, so the test decides the interleaving. */
function gatedScaler(inner: Scaler, gated: 'joinPresence' | 'cachedEvent') {
  const waiting: (() => void)[] = [];
  const call = inner[gated] as (...args: unknown[]) => unknown;
  const scaler: Scaler = {
    ...inner,
    [gated]: async (...args: unknown[]) => {
      await new Promise<void>((resolve) => waiting.push(resolve));
      return call(...args);
    },
  };
  return { scaler, release: () => waiting.splice(0).forEach((resolve) => resolve()) };
}

/** Every state call takes a few milliseconds, as a Redis round trip does; the bus stays as fast as it is. */
function withLatency(inner: Scaler, ms = 3): Scaler {
  const slow: Record<string, unknown> = { ...inner };
  for (const [name, value] of Object.entries(inner)) {
    if (typeof value !== 'function' || ['start', 'publish', 'close'].includes(name)) continue;
    slow[name] = async (...args: unknown[]) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return (value as (...a: unknown[]) => unknown).apply(inner, args);
    };
  }
  return slow as unknown as Scaler;
}

async function engine(scaler: Scaler) {
  const server = new RealtimeServer({ apps: createStaticAppProvider([roomy, single]), scaler });
  await server.start();
  return { server, transport: new MemoryTransport(server) };
}

function subscribePresence(app: App, socket: MemorySocket, channel: string, userId: string) {
  const channelData = JSON.stringify({ user_id: userId });
  socket.receive({ event: 'pusher:subscribe', data: { channel, auth: signChannel(app, socket.socketId, channel, channelData), channel_data: channelData } });
}

async function established(transport: MemoryTransport): Promise<MemorySocket> {
  const socket = await transport.connect({ appKey: roomy.key });
  while (socket.events('pusher:connection_established').length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
  return socket;
}

const events = (socket: MemorySocket) => socket.messages.slice(1).map((frame) => frame.event);

describe('presence subscribers', () => {
  it('hear no channel event before subscription_succeeded, and none at all when refused as full', async () => {
    const { scaler, release } = gatedScaler(createLocalScaler(), 'joinPresence');
    const { server, transport } = await engine(scaler);
    const [first, second] = [await transport.connect({ appKey: single.key }), await transport.connect({ appKey: single.key })];
    subscribePresence(single, first, 'presence-room', 'a');
    await settle();
    await server.trigger(single, { name: 'early', data: '1', channels: ['presence-room'] });
    release();
    await settle();
    expect(events(first)).toEqual(['pusher_internal:subscription_succeeded']);

    subscribePresence(single, second, 'presence-room', 'b');
    await settle();
    await server.trigger(single, { name: 'secret', data: '2', channels: ['presence-room'] });
    release();
    await settle();
    expect(events(second)).toEqual(['pusher:subscription_error']);
    expect(events(first)).toEqual(['pusher_internal:subscription_succeeded', 'secret']);
  });

  it('hear a member that joins while their own snapshot is being read', async () => {
    const { scaler, release } = gatedScaler(createLocalScaler(), 'joinPresence');
    const { transport } = await engine(scaler);
    const [early, late] = [await transport.connect({ appKey: roomy.key }), await transport.connect({ appKey: roomy.key })];
    subscribePresence(roomy, early, 'presence-room', 'early');
    await settle();
    subscribePresence(roomy, late, 'presence-room', 'late');
    await settle();
    release(); // both joins run now; whichever snapshot lacks the other user, its member_added follows
    await settle();
    const view = (socket: MemorySocket) => {
      const members = new Set<string>();
      for (const frame of socket.messages) {
        const data = typeof frame.data === 'string' ? (JSON.parse(frame.data) as { presence?: { ids: string[] }; user_id?: string }) : {};
        if (frame.event === 'pusher_internal:subscription_succeeded') data.presence?.ids.forEach((id) => members.add(id));
        if (frame.event === 'pusher_internal:member_added' && data.user_id) members.add(data.user_id);
      }
      return [...members].sort();
    };
    expect(view(early)).toEqual(['early', 'late']);
    expect(view(late)).toEqual(['early', 'late']);
  });

  it('see a new member\'s member_added before its first client event, across nodes', async () => {
    const cluster = createMemoryCluster();
    const [one, two] = [await engine(withLatency(cluster.node())), await engine(withLatency(cluster.node()))];
    const watcher = await established(one.transport);
    const joiner = await established(two.transport);
    subscribePresence(roomy, watcher, 'presence-lobby', 'w');
    while (events(watcher).length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    subscribePresence(roomy, joiner, 'presence-lobby', 'j');
    // pusher-js may send a client event the moment it is confirmed.
    while (joiner.events('pusher_internal:subscription_succeeded').length === 0) await new Promise((resolve) => setImmediate(resolve));
    joiner.receive({ event: 'client-hello', channel: 'presence-lobby', data: {} });
    for (let i = 0; i < 2_000 && events(watcher).length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(events(watcher)).toEqual(['pusher_internal:subscription_succeeded', 'pusher_internal:member_added', 'client-hello']);
    await Promise.all([one.server.stop(), two.server.stop()]);
  });
});

describe('member events from another node', () => {
  it.each([
    ['fails', () => Promise.reject(new Error('redis unreachable'))],
    ['never answers', () => new Promise<boolean>(() => {})],
  ])('are delivered unchecked when the presence check %s', async (_, check) => {
    const cluster = createMemoryCluster();
    const watching = { ...cluster.node(), isPresenceMember: check } as Scaler;
    const [one, two] = [await engine(watching), await engine(cluster.node())];
    const watcher = await established(one.transport);
    const joiner = await established(two.transport);
    subscribePresence(roomy, watcher, 'presence-lobby', 'w');
    await settle();
    subscribePresence(roomy, joiner, 'presence-lobby', 'j');
    while (joiner.events('pusher_internal:subscription_succeeded').length === 0) await new Promise((resolve) => setImmediate(resolve));
    joiner.receive({ event: 'client-hello', channel: 'presence-lobby', data: {} });
    for (let i = 0; i < 300 && events(watcher).length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(events(watcher)).toEqual(['pusher_internal:subscription_succeeded', 'pusher_internal:member_added', 'client-hello']);
    await Promise.all([one.server.stop(), two.server.stop()]);
  });
});

describe('cache channels', () => {
  it.each(['cache-score', 'private-cache-score', 'presence-cache-score'])('%s: confirm first, and never replay an older event after a newer live one', async (channel) => {
    const { scaler, release } = gatedScaler(createLocalScaler(), 'cachedEvent');
    const { server, transport } = await engine(scaler);
    await server.trigger(roomy, { name: 'score', data: 'v1', channels: [channel] });
    const socket = await transport.connect({ appKey: roomy.key });
    if (channel.startsWith('presence-')) subscribePresence(roomy, socket, channel, 'fan');
    else socket.receive({ event: 'pusher:subscribe', data: { channel, auth: channel.startsWith('private-') ? signChannel(roomy, socket.socketId, channel) : '' } });
    await settle();
    await server.trigger(roomy, { name: 'score', data: 'v2', channels: [channel] });
    release();
    await settle();
    expect(events(socket)).toEqual(['pusher_internal:subscription_succeeded', 'score']);
    expect(socket.events('score').map((frame) => frame.data)).toEqual(['v2']);
  });

  it('still replays when only a client event came meanwhile (client events are never cached)', async () => {
    const { scaler, release } = gatedScaler(createLocalScaler(), 'cachedEvent');
    const { server, transport } = await engine(scaler);
    await server.trigger(roomy, { name: 'score', data: 'v1', channels: ['private-cache-x'] });
    const [typist, socket] = [await transport.connect({ appKey: roomy.key }), await transport.connect({ appKey: roomy.key })];
    typist.receive({ event: 'pusher:subscribe', data: { channel: 'private-cache-x', auth: signChannel(roomy, typist.socketId, 'private-cache-x') } });
    await settle();
    release();
    await settle();
    socket.receive({ event: 'pusher:subscribe', data: { channel: 'private-cache-x', auth: signChannel(roomy, socket.socketId, 'private-cache-x') } });
    await settle();
    typist.receive({ event: 'client-typing', channel: 'private-cache-x', data: {} });
    release();
    await settle();
    expect(events(socket)).toEqual(['pusher_internal:subscription_succeeded', 'client-typing', 'score']);
    expect(socket.events('score').map((frame) => frame.data)).toEqual(['v1']);
  });

  it('still replays when the only event meanwhile excluded the subscriber (it never saw it live)', async () => {
    const { scaler, release } = gatedScaler(createLocalScaler(), 'cachedEvent');
    const { server, transport } = await engine(scaler);
    const socket = await transport.connect({ appKey: roomy.key });
    socket.receive({ event: 'pusher:subscribe', data: { channel: 'cache-y' } });
    await settle();
    await server.trigger(roomy, { name: 'score', data: 'v1', channels: ['cache-y'], socketId: socket.socketId });
    release();
    await settle();
    expect(events(socket)).toEqual(['pusher_internal:subscription_succeeded', 'score']);
  });

  it('replays the cached event when nothing newer arrived meanwhile', async () => {
    const { scaler, release } = gatedScaler(createLocalScaler(), 'cachedEvent');
    const { server, transport } = await engine(scaler);
    await server.trigger(roomy, { name: 'score', data: 'v1', channels: ['cache-score'] });
    const socket = await transport.connect({ appKey: roomy.key });
    socket.receive({ event: 'pusher:subscribe', data: { channel: 'cache-score' } });
    await settle();
    release();
    await settle();
    expect(socket.events('score').map((frame) => frame.data)).toEqual(['v1']);
  });
});
