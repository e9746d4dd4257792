import fc from 'fast-check';
import { createApp, type App } from '../app.js';
import { createStaticAppProvider } from '../app-provider.js';
import type { ConnectionRecord } from '../connection.js';
import { signChannel } from '../signing.js';
import { RealtimeServer } from '../realtime-server.js';
import type { Scaler } from '../scaler.js';
import { MemoryTransport, type MemorySocket } from './memory-transport.js';
import type { Expect, TestRunner } from './test-runner.js';

export interface EngineModelOptions {
  /** Creates `count` scaler nodes sharing one cluster state and bus (a single node when the scaler has no bus). */
  createNodes(count: number): Promise<Scaler[]>;
  /** Engines in the cluster, one per node. */
  engines: number;
  /** Generated sequences to try. */
  runs?: number;
  /** How long one check waits for the cluster to agree with the model. */
  convergeTimeoutMs?: number;
  /** Sequences always tried first (regressions found earlier). */
  examples?: EngineModelAction[][][];
  /** Per-test timeout, handed to the runner's `it`. */
  testTimeoutMs?: number;
}

type Channel = 'presence-room' | 'room';
const channels: readonly Channel[] = ['presence-room', 'room'];
const witnessChannel = 'model-witness';
/** Four client slots; two share a user, so "last socket of the user" is exercised. */
const slotUsers = ['ann', 'ann', 'bob', 'cy'] as const;

export type EngineModelAction = Action;
type Action = { op: 'subscribe' | 'unsubscribe' | 'rejoin' | 'reconnect'; slot: number; channel: Channel };

const actionArbitrary: fc.Arbitrary<Action> = fc.record({
  op: fc.constantFrom('subscribe', 'unsubscribe', 'rejoin', 'reconnect'),
  slot: fc.nat(slotUsers.length - 1),
  channel: fc.constantFrom(...channels),
});
/** A step: frames of several clients sent back to back, without waiting for any answer. */
const stepsArbitrary = fc.array(fc.array(actionArbitrary, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 8 });

/** The reference model: who is subscribed where, and how many probe events each socket must have. */
class Model {
  readonly subscribers = new Map<Channel, Set<number>>(channels.map((channel) => [channel, new Set<number>()]));

  apply(action: Action): void {
    const set = this.subscribers.get(action.channel)!;
    if (action.op === 'subscribe' || action.op === 'rejoin') set.add(action.slot);
    else if (action.op === 'unsubscribe') set.delete(action.slot);
    else for (const members of this.subscribers.values()) members.delete(action.slot);
  }

  presentUsers(): string[] {
    return [...new Set([...this.subscribers.get('presence-room')!].map((slot) => slotUsers[slot]!))].sort();
  }
}

interface Slot {
  transport: MemoryTransport;
  socket: MemorySocket;
  /** Probe events this socket must have received, per channel. */
  probes: Record<Channel, number>;
}

/**
 * The model-based check every scaler must pass: random interleavings of
 * subscribes, unsubscribes, back-to-back leave-and-rejoins and disconnects
 * from clients spread over several engines, compared after every step with a
 * tiny reference model: subscription counts, presence members and user
 * counts, what each presence subscriber's member events add up to, and which
 * sockets receive a probe event.
 */
export function runEngineModelConformance(runner: TestRunner, name: string, options: EngineModelOptions): void {
  const { describe, expect, it } = runner;
  const convergeTimeoutMs = options.convergeTimeoutMs ?? 2_000;
  describe(`${name}: subscription and presence state converge under any interleaving`, () => {
    it(`matches the reference model after every step, over ${options.engines} engine(s)`, async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(stepsArbitrary, async (steps) => {
          const cluster = await startCluster(options, ++run, expect);
          try {
            const model = new Model();
            for (const [index, step] of steps.entries()) {
              await cluster.apply(step, model);
              await cluster.converge(model, `after step ${index + 1} ${JSON.stringify(step)}`, convergeTimeoutMs);
              await cluster.probe(model);
              await cluster.converge(model, `after the probe of step ${index + 1}`, convergeTimeoutMs);
            }
          } finally {
            await cluster.stop();
          }
        }),
        { numRuns: options.runs ?? 30, examples: (options.examples ?? []).map((steps) => [steps] as [Action[][]]) },
      );
    }, options.testTimeoutMs ?? 120_000);
  });
}

/** Starts the engines and clients of one generated run; `expect` (the runner's) checks each convergence. */
async function startCluster(options: EngineModelOptions, run: number, expect: Expect) {
  const suffix = `${process.pid}-${Date.now()}-${run}`;
  const app: App = createApp({
    id: `model-${suffix}`,
    key: `model-key-${suffix}`,
    secret: 'model-secret',
    maxChannelsPerConnection: 10,
    maxFramesPerSecond: 10_000,
  });
  const scalers = await options.createNodes(options.engines);
  const engines = scalers.map((scaler) => new RealtimeServer({ apps: createStaticAppProvider([app]), scaler }));
  await Promise.all(engines.map((engine) => engine.start()));
  const transports = engines.map((engine) => new MemoryTransport(engine));

  const connect = async (slot: number): Promise<Slot> => {
    const transport = transports[slot % transports.length]!;
    const socket = await transport.connect({ appKey: app.key });
    await until(() => socket.events('pusher:connection_established').length === 1, 'connection established', 2_000);
    return { transport, socket, probes: { 'presence-room': 0, room: 0 } };
  };
  const slots: Slot[] = [];
  for (let slot = 0; slot < slotUsers.length; slot++) slots.push(await connect(slot));
  // One silent witness per engine: once each has a probe, every bus message sent before it was delivered.
  const witnesses: MemorySocket[] = [];
  for (const transport of transports) {
    const witness = await transport.connect({ appKey: app.key });
    await until(() => witness.events('pusher:connection_established').length === 1, 'connection established', 2_000);
    witness.receive({ event: 'pusher:subscribe', data: { channel: witnessChannel } });
    await until(() => witness.events('pusher_internal:subscription_succeeded').length === 1, 'witness subscribed', 2_000);
    witnesses.push(witness);
  }

  const subscribeFrame = (slot: number, socket: MemorySocket, channel: Channel) => {
    if (channel === 'room') return { event: 'pusher:subscribe', data: { channel } };
    const channelData = JSON.stringify({ user_id: slotUsers[slot], user_info: { slot } });
    return { event: 'pusher:subscribe', data: { channel, auth: signChannel(app, socket.socketId, channel, channelData), channel_data: channelData } };
  };

  let probes = 0;

  return {
    async apply(step: Action[], model: Model): Promise<void> {
      const reconnecting = new Set<number>();
      for (const action of step) {
        if (reconnecting.has(action.slot)) continue; // that client is gone until the step ends
        const { socket } = slots[action.slot]!;
        if (action.op === 'subscribe' || action.op === 'rejoin') {
          if (action.op === 'rejoin') socket.receive({ event: 'pusher:unsubscribe', data: { channel: action.channel } });
          socket.receive(subscribeFrame(action.slot, socket, action.channel));
        } else if (action.op === 'unsubscribe') {
          socket.receive({ event: 'pusher:unsubscribe', data: { channel: action.channel } });
        } else {
          socket.close(1000, 'client left');
          reconnecting.add(action.slot);
        }
        model.apply(action);
      }
      for (const slot of reconnecting) slots[slot] = await connect(slot);
    },

    async probe(model: Model): Promise<void> {
      probes++;
      await engines[0]!.trigger(app, { name: 'probe', data: String(probes), channels: [...channels, witnessChannel] });
      for (const channel of channels) for (const slot of model.subscribers.get(channel)!) slots[slot]!.probes[channel]++;
    },

    async converge(model: Model, when: string, timeoutMs: number): Promise<void> {
      const witnessed = () => witnesses.every((witness) => witness.events('probe').length === probes);
      await until(witnessed, `every engine to receive probe ${probes}`, timeoutMs);
      // Every frame sent so far has been handled (a state can match the model halfway through a rejoin).
      const idle = () => slots.every(({ socket }) => (recordOf(socket)?.channelOps?.size ?? 0) === 0);
      await until(idle, 'channel operations to finish', timeoutMs);
      const expected = expectedState(model, slots);
      let actual = await observedState(engines, app, slots);
      const deadline = Date.now() + timeoutMs;
      while (JSON.stringify(actual) !== JSON.stringify(expected) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        actual = await observedState(engines, app, slots);
      }
      expect(actual, when).toEqual(expected);
    },

    async stop(): Promise<void> {
      for (const socket of [...slots.map((slot) => slot.socket), ...witnesses]) socket.close(1000, 'done');
      await Promise.all(engines.map((engine) => engine.stop()));
    },
  };
}

function expectedState(model: Model, slots: Slot[]) {
  const users = model.presentUsers();
  return {
    subscriptionCounts: Object.fromEntries(channels.map((channel) => [channel, model.subscribers.get(channel)!.size])),
    presenceUsers: users,
    userCount: users.length,
    clients: slots.map((slot, index) => ({
      memberView: model.subscribers.get('presence-room')!.has(index) ? users : null,
      probes: slot.probes,
      errors: [],
    })),
  };
}

async function observedState(engines: RealtimeServer[], app: App, slots: Slot[]) {
  const engine = engines[engines.length - 1]!;
  const subscriptionCounts: Record<string, number> = {};
  for (const channel of channels) subscriptionCounts[channel] = (await engine.channel(app, channel, ['subscription_count'])).subscription_count ?? -1;
  const presenceUsers = (await engine.users(app, 'presence-room')).map((user) => user.id).sort();
  const userCount = (await engine.channel(app, 'presence-room', ['user_count'])).user_count ?? -1;
  return {
    subscriptionCounts,
    presenceUsers,
    userCount,
    clients: slots.map(({ socket }) => ({
      memberView: memberView(socket),
      probes: Object.fromEntries(channels.map((channel) => [channel, socket.messages.filter((m) => m.event === 'probe' && m.channel === channel).length])),
      errors: socket.messages.filter((m) => m.event === 'pusher:error' || m.event === 'pusher:subscription_error'),
    })),
  };
}

/**
 * What a pusher-js presence channel would hold: the members of the last
 * subscription_succeeded, then each member_added and member_removed after it.
 * Null when the socket is not (or no longer) confirmed in the channel.
 */
function memberView(socket: MemorySocket): string[] | null {
  const frames = socket.messages.filter((m) => m.channel === 'presence-room');
  let view: Set<string> | null = null;
  for (const frame of frames) {
    if (frame.event === 'pusher_internal:subscription_succeeded') {
      view = new Set((JSON.parse(frame.data as string) as { presence: { ids: string[] } }).presence.ids);
    } else if (view && frame.event === 'pusher_internal:member_added') {
      view.add((JSON.parse(frame.data as string) as { user_id: string }).user_id);
    } else if (view && frame.event === 'pusher_internal:member_removed') {
      view.delete((JSON.parse(frame.data as string) as { user_id: string }).user_id);
    }
  }
  if (view === null || !stillSubscribed(socket)) return null;
  return [...view].sort();
}

/** Whether the engine holds this socket as a confirmed member of the presence channel. */
function stillSubscribed(socket: MemorySocket): boolean {
  return recordOf(socket)?.membership('presence-room')?.active === true && socket.closed === undefined;
}

/** The engine's record behind a test socket: this suite checks the engine's own view too. */
function recordOf(socket: MemorySocket): ConnectionRecord | undefined {
  return socket.connection as ConnectionRecord | undefined;
}

async function until(condition: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
