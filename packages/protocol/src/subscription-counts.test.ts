import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp, type App } from './app.js';
import { createStaticAppProvider } from './app-provider.js';
import { localNodeOf, RealtimeServer } from './realtime-server.js';
import type { Scaler } from './scaler.js';
import { signChannel } from './signing.js';
import { createMemoryCluster } from './testing/memory-cluster.js';
import { MemoryTransport, settle, type MemorySocket } from './testing/memory-transport.js';

const counting = createApp({ id: 'counting', key: 'counting-key', secret: 'secret', enableSubscriptionCount: true, subscriptionCountIntervalMs: 50, maxConnections: 2_000 });
const silent = createApp({ id: 'silent', key: 'silent-key', secret: 'secret' });

/** The counts a socket received on a channel, in order (pusher-js reads `data` as JSON text). */
const countsOf = (socket: MemorySocket, channel: string) =>
  socket
    .events('pusher_internal:subscription_count')
    .filter((frame) => frame.channel === channel)
    .map((frame) => (JSON.parse(frame.data as string) as { subscription_count: number }).subscription_count);

async function engine(scaler?: Scaler, apps: App[] = [counting, silent]) {
  const server = new RealtimeServer({ apps: createStaticAppProvider(apps), ...(scaler ? { scaler } : {}) });
  await server.start();
  return { server, transport: new MemoryTransport(server) };
}

const servers: RealtimeServer[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

async function connect(transport: MemoryTransport, app: App = counting): Promise<MemorySocket> {
  const socket = await transport.connect({ appKey: app.key });
  await vi.waitUntil(() => socket.events('pusher:connection_established').length === 1);
  return socket;
}

function subscribe(socket: MemorySocket, channel: string, app: App = counting): void {
  if (channel.startsWith('presence-')) {
    const channelData = JSON.stringify({ user_id: socket.socketId });
    socket.receive({ event: 'pusher:subscribe', data: { channel, auth: signChannel(app, socket.socketId, channel, channelData), channel_data: channelData } });
  } else {
    const auth = channel.startsWith('private-') ? signChannel(app, socket.socketId, channel) : undefined;
    socket.receive({ event: 'pusher:subscribe', data: { channel, auth } });
  }
}

describe('subscription counts on one node', () => {
  it('sends every subscriber the count after a subscribe, an unsubscribe and a close, as pusher-js reads it', async () => {
    const { server, transport } = await engine();
    servers.push(server);
    const [a, b, c] = [await connect(transport), await connect(transport), await connect(transport)];
    subscribe(a, 'room');
    await vi.waitUntil(() => countsOf(a, 'room').at(-1) === 1);
    expect(a.frames.at(-1)).toBe('{"event":"pusher_internal:subscription_count","channel":"room","data":"{\\"subscription_count\\":1}"}');
    // The confirmation comes first: pusher-js keeps the count on a channel it knows is subscribed.
    expect(a.messages.findIndex((m) => m.event === 'pusher_internal:subscription_succeeded')).toBeLessThan(a.messages.findIndex((m) => m.event === 'pusher_internal:subscription_count'));

    subscribe(b, 'room');
    subscribe(c, 'room');
    await vi.waitUntil(() => countsOf(a, 'room').at(-1) === 3 && countsOf(b, 'room').at(-1) === 3 && countsOf(c, 'room').at(-1) === 3, { timeout: 2_000 });
    c.receive({ event: 'pusher:unsubscribe', data: { channel: 'room' } });
    await vi.waitUntil(() => countsOf(a, 'room').at(-1) === 2 && countsOf(b, 'room').at(-1) === 2, { timeout: 2_000 });
    const heardByC = countsOf(c, 'room').length;
    b.close(1000, 'bye');
    await vi.waitUntil(() => countsOf(a, 'room').at(-1) === 1, { timeout: 2_000 });
    expect(countsOf(c, 'room')).toHaveLength(heardByC); // unsubscribed: hears no more counts
  });

  it('counts private, encrypted and cache channels, never presence channels', async () => {
    const { server, transport } = await engine();
    servers.push(server);
    const socket = await connect(transport);
    for (const channel of ['private-x', 'private-encrypted-x', 'cache-x', 'presence-x']) subscribe(socket, channel);
    await vi.waitUntil(() => ['private-x', 'private-encrypted-x', 'cache-x'].every((channel) => countsOf(socket, channel).at(-1) === 1), { timeout: 2_000 });
    await vi.waitUntil(() => socket.events('pusher_internal:subscription_succeeded').length === 4);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(countsOf(socket, 'presence-x')).toEqual([]);
  });

  it('sends nothing for an app with the option off (the default), and keeps no state for it', async () => {
    const { server, transport } = await engine();
    servers.push(server);
    const [a, b] = [await connect(transport, silent), await connect(transport, silent)];
    subscribe(a, 'room', silent);
    subscribe(b, 'room', silent);
    await vi.waitUntil(() => b.events('pusher_internal:subscription_succeeded').length === 1);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect([...a.events('pusher_internal:subscription_count'), ...b.events('pusher_internal:subscription_count')]).toEqual([]);
    expect(localNodeOf(server).subscriptionCounts.size).toBe(0);
  });

  it('reports subscription.count and message.sent with the event name', async () => {
    const { server, transport } = await engine();
    servers.push(server);
    const counts: number[] = [];
    const sent: string[] = [];
    server.events.on('subscription.count', ({ app, channel, count }) => {
      if (app.id === counting.id && channel === 'room') counts.push(count);
    });
    server.events.on('message.sent', ({ event }) => sent.push(event));
    const [a, b] = [await connect(transport), await connect(transport)];
    subscribe(a, 'room');
    await vi.waitUntil(() => counts.at(-1) === 1);
    subscribe(b, 'room');
    await vi.waitUntil(() => counts.at(-1) === 2, { timeout: 2_000 });
    b.close(1000, 'bye');
    a.close(1000, 'bye');
    await vi.waitUntil(() => counts.at(-1) === 0, { timeout: 2_000 });
    expect(sent).toContain('pusher_internal:subscription_count');
  });
});

describe('coalescing', () => {
  it('turns 1,000 joins within one interval into at most 2 frames per subscriber already there, then forgets the channel', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const slow = createApp({ ...counting, id: 'slow', key: 'slow-key', subscriptionCountIntervalMs: 1_000 });
    const { server, transport } = await engine(undefined, [slow]);
    servers.push(server);
    const existing = await Promise.all(Array.from({ length: 5 }, () => connect(transport, slow)));
    for (const socket of existing) subscribe(socket, 'crowd', slow);
    await settle();
    await vi.advanceTimersByTimeAsync(2_500); // a quiet interval: the next join is a leading edge
    const before = existing.map((socket) => countsOf(socket, 'crowd').length);
    expect(existing.every((socket) => countsOf(socket, 'crowd').at(-1) === 5)).toBe(true);

    const joiners: MemorySocket[] = [];
    for (let i = 0; i < 1_000; i++) {
      const socket = await transport.connect({ appKey: slow.key });
      subscribe(socket, 'crowd', slow);
      joiners.push(socket);
    }
    await settle(20);
    await vi.advanceTimersByTimeAsync(1_000); // the trailing edge
    await settle(20);
    for (const [index, socket] of existing.entries()) {
      expect(countsOf(socket, 'crowd').length - before[index]!).toBeLessThanOrEqual(2);
      expect(countsOf(socket, 'crowd').at(-1)).toBe(1_005);
    }
    expect(joiners.every((socket) => countsOf(socket, 'crowd').at(-1) === 1_005)).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000); // a quiet interval
    expect(localNodeOf(server).subscriptionCounts.size).toBe(0);
  });
});

describe('subscription counts across nodes', () => {
  it('keeps no state for signals about channels without a local subscriber, or of apps without counts', async () => {
    const cluster = createMemoryCluster();
    const receiver = await engine(cluster.node());
    const sender = cluster.node();
    await sender.start(() => {});
    servers.push(receiver.server);
    for (let i = 0; i < 1_000; i++) sender.publish({ type: 'subscription-count-changed', appId: counting.id, channel: `nobody-${i}` });
    sender.publish({ type: 'subscription-count-changed', appId: silent.id, channel: 'room' });
    sender.publish({ type: 'subscription-count-changed', appId: 'no-such-app', channel: 'room' });
    await settle();
    expect(localNodeOf(receiver.server).subscriptionCounts.size).toBe(0);
  });

  it('tells subscribers on every node the cluster-wide count', async () => {
    const cluster = createMemoryCluster();
    const nodes = [await engine(cluster.node()), await engine(cluster.node())];
    servers.push(...nodes.map((node) => node.server));
    const [a, b] = [await connect(nodes[0]!.transport), await connect(nodes[1]!.transport)];
    subscribe(a, 'room');
    await vi.waitUntil(() => countsOf(a, 'room').at(-1) === 1);
    subscribe(b, 'room');
    await vi.waitUntil(() => countsOf(a, 'room').at(-1) === 2 && countsOf(b, 'room').at(-1) === 2, { timeout: 2_000 });
    b.close(1000, 'bye');
    await vi.waitUntil(() => countsOf(a, 'room').at(-1) === 1, { timeout: 2_000 });
  });

  it('tells the other nodes the final count when a node stops with changes still coalescing', async () => {
    const cluster = createMemoryCluster();
    const shared = cluster.node();
    // The stopping node's second socket leaves the shared state later than its first (a slower removal).
    let slowSocket = '';
    const stopping = await engine({
      ...shared,
      removeConnection: async (appId, socketId, held, signedInAs) => {
        if (socketId === slowSocket) await new Promise((resolve) => setTimeout(resolve, 20));
        return shared.removeConnection(appId, socketId, held, signedInAs);
      },
    });
    const staying = await engine(cluster.node());
    servers.push(staying.server);
    const [first, second, watcher] = [await connect(stopping.transport), await connect(stopping.transport), await connect(staying.transport)];
    slowSocket = second.socketId;
    for (const socket of [first, second, watcher]) subscribe(socket, 'room');
    await vi.waitUntil(() => countsOf(watcher, 'room').at(-1) === 3, { timeout: 2_000 });
    await new Promise((resolve) => setTimeout(resolve, 120)); // the interval is over: the next change acts at once

    await stopping.server.stop();
    await vi.waitUntil(() => countsOf(watcher, 'room').at(-1) === 1, { timeout: 1_000 });
  });
});
