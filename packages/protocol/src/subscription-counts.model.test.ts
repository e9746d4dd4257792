import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { createApp } from './app.js';
import { createStaticAppProvider } from './app-provider.js';
import { localNodeOf, RealtimeServer } from './realtime-server.js';
import { signChannel } from './signing.js';
import { createMemoryCluster } from './testing/memory-cluster.js';
import { MemoryTransport, type MemorySocket } from './testing/memory-transport.js';

const app = createApp({ id: 'model-counts', key: 'model-counts-key', secret: 'secret', enableSubscriptionCount: true, subscriptionCountIntervalMs: 15, maxFramesPerSecond: 10_000 });
const channels = ['room', 'private-room'] as const;
type Channel = (typeof channels)[number];
const engines = 3;
const slots = 6;

/** Who is subscribed where: what every subscriber's last count must say in the end. */
type Model = Record<Channel, Set<number>>;

interface Real {
  transports: MemoryTransport[];
  sockets: MemorySocket[];
  /** Frames of each slot's current socket before its latest subscribe, per channel: only later counts are its own. */
  subscribedAt: Record<Channel, number>[];
  /** Reconnects in flight (a closed slot gets a new socket on another node). */
  pending: Promise<void>[];
  /** The node each socket is on. */
  byTransport: Map<MemorySocket, MemoryTransport>;
}

async function connect(transport: MemoryTransport): Promise<MemorySocket> {
  const socket = await transport.connect({ appKey: app.key });
  await vi.waitUntil(() => socket.events('pusher:connection_established').length === 1);
  return socket;
}

const lastCount = (socket: MemorySocket, channel: Channel, from: number): number | undefined => {
  for (let index = socket.frames.length - 1; index >= from; index--) {
    const frame = JSON.parse(socket.frames[index]!) as { event: string; channel?: string; data?: string };
    if (frame.event === 'pusher_internal:subscription_count' && frame.channel === channel) return (JSON.parse(frame.data!) as { subscription_count: number }).subscription_count;
  }
  return undefined;
};

class Subscribe implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly slot: number,
    readonly channel: Channel,
  ) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    await Promise.all(real.pending);
    const socket = real.sockets[this.slot]!;
    // A second subscribe is ignored, as pusher-js never sends one: only a new subscription starts a new count.
    if (!model[this.channel].has(this.slot)) real.subscribedAt[this.slot]![this.channel] = socket.frames.length;
    const auth = this.channel.startsWith('private-') ? signChannel(app, socket.socketId, this.channel) : undefined;
    socket.receive({ event: 'pusher:subscribe', data: { channel: this.channel, auth } });
    model[this.channel].add(this.slot);
  }
  toString = () => `subscribe(${this.slot}, ${this.channel})`;
}

class Unsubscribe implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly slot: number,
    readonly channel: Channel,
  ) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    await Promise.all(real.pending);
    real.sockets[this.slot]!.receive({ event: 'pusher:unsubscribe', data: { channel: this.channel } });
    model[this.channel].delete(this.slot);
  }
  toString = () => `unsubscribe(${this.slot}, ${this.channel})`;
}

/** The client goes away (its channels leave with it) and comes back, unsubscribed, on the next node. */
class Reconnect implements fc.AsyncCommand<Model, Real> {
  constructor(readonly slot: number) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    await Promise.all(real.pending);
    real.sockets[this.slot]!.close(1000, 'bye');
    for (const channel of channels) model[channel].delete(this.slot);
    const transport = real.transports[(real.transports.indexOf(transportOf(real, this.slot)) + 1) % engines]!;
    real.pending.push(
      connect(transport).then((socket) => {
        real.sockets[this.slot] = socket;
        real.byTransport.set(socket, transport);
        real.subscribedAt[this.slot] = { room: 0, 'private-room': 0 };
      }),
    );
  }
  toString = () => `reconnect(${this.slot})`;
}

function transportOf(real: Real, slot: number): MemoryTransport {
  return real.byTransport.get(real.sockets[slot]!)!;
}

const slot = fc.nat(slots - 1);
const channel = fc.constantFrom(...channels);
const commands = fc.commands(
  [
    fc.tuple(slot, channel).map(([s, c]) => new Subscribe(s, c)),
    fc.tuple(slot, channel).map(([s, c]) => new Unsubscribe(s, c)),
    slot.map((s) => new Reconnect(s)),
  ],
  { maxCommands: 25 },
);

describe('subscription counts across three engines, against a model', () => {
  it('leave every subscriber with the exact cluster-wide count once the changes settle, and no state behind', async () => {
    await fc.assert(
      fc.asyncProperty(commands, async (sequence) => {
        const cluster = createMemoryCluster();
        const servers = Array.from({ length: engines }, () => new RealtimeServer({ apps: createStaticAppProvider([app]), scaler: cluster.node() }));
        await Promise.all(servers.map((server) => server.start()));
        const transports = servers.map((server) => new MemoryTransport(server));
        const real: Real = { transports, sockets: [], subscribedAt: [], pending: [], byTransport: new Map() };
        for (let index = 0; index < slots; index++) {
          const transport = transports[index % engines]!;
          const socket = await connect(transport);
          real.sockets.push(socket);
          real.byTransport.set(socket, transport);
          real.subscribedAt.push({ room: 0, 'private-room': 0 });
        }
        const model: Model = { room: new Set(), 'private-room': new Set() };
        try {
          await fc.asyncModelRun(() => ({ model, real }), sequence);
          await Promise.all(real.pending);
          const expected = () => channels.flatMap((c) => [...model[c]].sort().map((s) => ({ slot: s, channel: c, count: model[c].size })));
          const observed = () => channels.flatMap((c) => [...model[c]].sort().map((s) => ({ slot: s, channel: c, count: lastCount(real.sockets[s]!, c, real.subscribedAt[s]![c]) })));
          await vi.waitUntil(() => JSON.stringify(observed()) === JSON.stringify(expected()), { timeout: 3_000, interval: 5 }).catch(() => undefined);
          expect(observed()).toEqual(expected());
          for (const c of channels) expect(await servers[0]!.scaler.subscriptionCount(app.id, c)).toBe(model[c].size);
          await vi.waitUntil(() => servers.every((server) => localNodeOf(server).subscriptionCounts.size === 0), { timeout: 1_000, interval: 5 });
        } finally {
          for (const socket of real.sockets) socket.close(1000, 'done');
          await Promise.all(servers.map((server) => server.stop()));
        }
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});
