import fc from 'fast-check';
import { createApp } from '../app.js';
import { createStaticAppProvider } from '../app-provider.js';
import type { ConnectionRecord } from '../connection.js';
import { localNodeOf, RealtimeServer } from '../realtime-server.js';
import type { Scaler } from '../scaler.js';
import { signChannel } from '../signing.js';
import { MemoryTransport, type MemorySocket } from './memory-transport.js';
import type { TestRunner } from './test-runner.js';

export interface SubscriptionCountModelOptions {
  /** Creates `count` scaler nodes sharing one cluster state and bus, fresh for each generated run. */
  createNodes(count: number): Promise<Scaler[]>;
  /** Engines in the cluster, one per node. Default 3. */
  engines?: number;
  /** Generated sequences to try. Default 25. */
  runs?: number;
  /** How long the counts may take to settle after the last command. Default 3 s. */
  settleTimeoutMs?: number;
  /** Per-test timeout, handed to the runner's `it`. Default 120 s. */
  testTimeoutMs?: number;
}

const channels = ['room', 'private-room'] as const;
type Channel = (typeof channels)[number];
const slots = 6;
const intervalMs = 15;

/** Who is subscribed where: what every subscriber's last count must say in the end. */
type Model = Record<Channel, Set<number>>;

interface Real {
  transports: MemoryTransport[];
  sockets: MemorySocket[];
  /** The node each socket is on. */
  transportOf: Map<MemorySocket, MemoryTransport>;
  /** Frames of each slot's socket before its latest subscription, per channel: only later counts answer it. */
  subscribedAt: Record<Channel, number>[];
  /** Reconnects in flight. */
  pending: Promise<void>[];
  signer: { app: Parameters<typeof signChannel>[0] };
}

async function until(condition: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function connect(transport: MemoryTransport, appKey: string): Promise<MemorySocket> {
  const socket = await transport.connect({ appKey });
  await until(() => socket.events('pusher:connection_established').length === 1, 'connection established', 2_000);
  return socket;
}

/** The last count a socket received on a channel from frame `from` on. */
function lastCount(socket: MemorySocket, channel: Channel, from: number): number | undefined {
  for (let index = socket.frames.length - 1; index >= from; index--) {
    const frame = JSON.parse(socket.frames[index]!) as { event: string; channel?: string; data?: string };
    if (frame.event === 'pusher_internal:subscription_count' && frame.channel === channel) return (JSON.parse(frame.data!) as { subscription_count: number }).subscription_count;
  }
  return undefined;
}

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
    const auth = this.channel.startsWith('private-') ? signChannel(real.signer.app, socket.socketId, this.channel) : undefined;
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
    const old = real.sockets[this.slot]!;
    old.close(1000, 'bye');
    for (const channel of channels) model[channel].delete(this.slot);
    const transport = real.transports[(real.transports.indexOf(real.transportOf.get(old)!) + 1) % real.transports.length]!;
    real.pending.push(
      connect(transport, real.signer.app.key).then((socket) => {
        real.sockets[this.slot] = socket;
        real.transportOf.set(socket, transport);
        real.subscribedAt[this.slot] = { room: 0, 'private-room': 0 };
      }),
    );
  }
  toString = () => `reconnect(${this.slot})`;
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

/**
 * The model-based check of subscription counts a scaler must pass: random subscribes, unsubscribes
 * and reconnects (to another node) of six clients spread over several engines, sent without waiting
 * for answers; once they settle, every subscriber's last `pusher_internal:subscription_count` must be
 * the model's count for its channel, the scaler's count the same, and no engine may keep a coalescing
 * entry after a quiet interval.
 */
export function runSubscriptionCountModel(runner: TestRunner, name: string, options: SubscriptionCountModelOptions): void {
  const { describe, expect, it } = runner;
  const engines = options.engines ?? 3;
  const settleTimeoutMs = options.settleTimeoutMs ?? 3_000;
  describe(`${name}: subscription counts converge to the exact count`, () => {
    it(`leaves every subscriber with the cluster-wide count once changes settle, over ${engines} engine(s)`, async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(commands, async (sequence) => {
          const suffix = `${process.pid}-${Date.now()}-${++run}`;
          const app = createApp({ id: `counts-${suffix}`, key: `counts-key-${suffix}`, secret: 'secret', enableSubscriptionCount: true, subscriptionCountIntervalMs: intervalMs, maxFramesPerSecond: 10_000 });
          const scalers = await options.createNodes(engines);
          const servers = scalers.map((scaler) => new RealtimeServer({ apps: createStaticAppProvider([app]), scaler }));
          await Promise.all(servers.map((server) => server.start()));
          const transports = servers.map((server) => new MemoryTransport(server));
          const real: Real = { transports, sockets: [], transportOf: new Map(), subscribedAt: [], pending: [], signer: { app } };
          try {
            for (let index = 0; index < slots; index++) {
              const transport = transports[index % engines]!;
              const socket = await connect(transport, app.key);
              real.sockets.push(socket);
              real.transportOf.set(socket, transport);
              real.subscribedAt.push({ room: 0, 'private-room': 0 });
            }
            const model: Model = { room: new Set(), 'private-room': new Set() };
            await fc.asyncModelRun(() => ({ model, real }), sequence);
            await Promise.all(real.pending);
            const expected = () => channels.flatMap((c) => [...model[c]].sort().map((s) => ({ slot: s, channel: c, count: model[c].size })));
            const observed = () => channels.flatMap((c) => [...model[c]].sort().map((s) => ({ slot: s, channel: c, count: lastCount(real.sockets[s]!, c, real.subscribedAt[s]![c]) })));
            // First every change committed (the clients' operations done, the scaler at the model's counts): from then
            // on every read answers the final count, so a match below cannot be a passing intermediate state.
            await until(() => real.sockets.every((socket) => ((socket.connection as ConnectionRecord | undefined)?.channelOps?.size ?? 0) === 0), 'channel operations to finish', settleTimeoutMs);
            for (const c of channels) await expect.poll(() => servers[0]!.scaler.subscriptionCount(app.id, c), { timeout: settleTimeoutMs, interval: 5 }).toBe(model[c].size);
            await until(() => JSON.stringify(observed()) === JSON.stringify(expected()), 'the counts to settle', settleTimeoutMs).catch(() => undefined);
            expect(observed(), `after ${sequence.toString()}`).toEqual(expected());
            await until(() => servers.every((server) => localNodeOf(server).subscriptionCounts.size === 0), 'no coalescing entry left', 1_000);
          } finally {
            for (const socket of real.sockets) socket.close(1000, 'done');
            await Promise.all(servers.map((server) => server.stop()));
          }
        }),
        { numRuns: options.runs ?? 25 },
      );
    }, options.testTimeoutMs ?? 120_000);
  });
}
