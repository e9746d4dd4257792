import fc from 'fast-check';
import { createApp, type App } from '../app.js';
import { createStaticAppProvider } from '../app-provider.js';
import type { ConnectionRecord } from '../connection.js';
import { RealtimeServer } from '../realtime-server.js';
import type { Scaler } from '../scaler.js';
import { signUser } from '../signing.js';
import { MemoryTransport, type MemorySocket } from './memory-transport.js';
import type { TestRunner } from './test-runner.js';

export interface WatchlistModelOptions {
  /** Creates `count` scaler nodes sharing one cluster state and bus (a single node when the scaler has no bus). */
  createNodes(count: number): Promise<Scaler[]>;
  /** Engines in the cluster, one per node. */
  engines: number;
  /** Generated sequences to try. */
  runs?: number;
  /** How long one check waits for every watcher's view to agree with the model. */
  convergeTimeoutMs?: number;
  /** Per-test timeout, handed to the runner's `it`. */
  testTimeoutMs?: number;
}

const users = ['u0', 'u1', 'u2'] as const;
type User = (typeof users)[number];
const slotCount = 5;

/** A client slot signs in (connecting first, on engine `node`, when closed), closes, or reconnects on `node` and signs in. */
export type WatchlistModelAction = { op: 'signin' | 'close' | 'reconnect'; slot: number; user: User; node: number };

type Event = { name: 'online' | 'offline'; user_ids: string[] };

interface Slot {
  socket: MemorySocket | undefined;
  /** The user it is signed in as, in the model. */
  user: User | undefined;
  /** Watchlist events it had heard when the current step began. */
  heard: number;
}

const eventsOf = (socket: MemorySocket): Event[] =>
  socket.events('pusher_internal:watchlist_events').flatMap((frame) => (JSON.parse(frame.data as string) as { events: Event[] }).events);

/** What pusher-js's user of `watchlist` would believe after these events: the last word on each user. */
function viewOf(events: readonly Event[]): Record<string, boolean> {
  const view: Record<string, boolean> = {};
  for (const { name, user_ids } of events) for (const id of user_ids) view[id] = name === 'online';
  return view;
}

/**
 * The model-based check of watchlist events every scaler must pass: random sign-ins, re-sign-ins as
 * another user, closes and reconnects on random engines, every signed-in client watching every user.
 * After each step (its frames sent back to back), every open client's view (its initial status plus
 * the events after it) must come to match the model's online users, and no client may ever hear
 * `offline` about a user who stayed signed in throughout the step on a socket the step did not touch.
 */
export function runWatchlistModelConformance(runner: TestRunner, name: string, options: WatchlistModelOptions): void {
  const { describe, expect, it } = runner;
  const convergeTimeoutMs = options.convergeTimeoutMs ?? 2_000;
  const action: fc.Arbitrary<WatchlistModelAction> = fc.record({
    op: fc.constantFrom('signin', 'signin', 'close', 'reconnect'),
    slot: fc.nat(slotCount - 1),
    user: fc.constantFrom(...users),
    node: fc.nat(options.engines - 1),
  });
  const steps = fc.array(fc.array(action, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 10 });

  describe(`${name}: watchlist events follow who is signed in under any interleaving`, () => {
    it(`every watcher's view matches the model after every step, and no steady user is said offline, over ${options.engines} engine(s)`, async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(steps, async (plan) => {
          const suffix = `${process.pid}-${Date.now()}-${++run}`;
          const app = createApp({ id: `watch-${suffix}`, key: `watch-key-${suffix}`, secret: 'watch-secret', enableWatchlistEvents: true, maxConnections: 1_000 });
          const scalers = await options.createNodes(options.engines);
          const servers = scalers.map((scaler) => new RealtimeServer({ apps: createStaticAppProvider([app]), scaler }));
          await Promise.all(servers.map((server) => server.start()));
          const transports = servers.map((server) => new MemoryTransport(server));
          const slots: Slot[] = Array.from({ length: slotCount }, () => ({ socket: undefined, user: undefined, heard: 0 }));
          try {
            for (const [index, step] of plan.entries()) {
              const touched = new Set(step.map((one) => one.slot));
              const steady = new Set(slots.filter((slot, at) => slot.user !== undefined && !touched.has(at)).map((slot) => slot.user as string));
              for (const slot of slots) if (slot.socket) slot.heard = eventsOf(slot.socket).length;
              await applyStep(step, slots, transports, app);
              await converge(slots, `after step ${index + 1} ${JSON.stringify(step)}`, convergeTimeoutMs, expect);
              for (const slot of slots) {
                if (!slot.socket) continue;
                for (const { name: event, user_ids } of eventsOf(slot.socket).slice(slot.heard)) {
                  if (event === 'offline') for (const id of user_ids) expect(steady.has(id), `offline ${id} while still signed in, at step ${index + 1}`).toBe(false);
                }
              }
            }
            for (const slot of slots) slot.socket?.close(1000, 'end');
            await until(async () => (await servers[0]!.scaler.onlineUsers(app.id, users)).length === 0, convergeTimeoutMs);
            expect(await servers[0]!.scaler.onlineUsers(app.id, users), 'nobody online once every socket closed').toEqual([]);
          } finally {
            await Promise.all(servers.map((server) => server.stop()));
          }
        }),
        { numRuns: options.runs ?? 30 },
      );
    }, options.testTimeoutMs ?? 120_000);
  });
}

async function applyStep(step: readonly WatchlistModelAction[], slots: Slot[], transports: MemoryTransport[], app: App): Promise<void> {
  for (const { op, slot: index, user, node } of step) {
    const slot = slots[index]!;
    if (op !== 'signin' || !slot.socket) {
      slot.socket?.close(1000, 'model');
      slot.socket = undefined;
      slot.user = undefined;
      if (op === 'close') continue;
      const socket = await transports[node]!.connect({ appKey: app.key });
      await until(() => socket.events('pusher:connection_established').length === 1, 2_000);
      slot.socket = socket;
      slot.heard = 0;
    }
    const userData = JSON.stringify({ id: user, watchlist: users });
    slot.socket.receive({ event: 'pusher:signin', data: { user_data: userData, auth: signUser(app, slot.socket.socketId, userData) } });
    slot.user = user;
  }
}

/** Waits for every sign-in to be recorded and every open client's view to match the model, then checks it. */
async function converge(slots: readonly Slot[], when: string, timeoutMs: number, expect: TestRunner['expect']): Promise<void> {
  const idle = () => slots.every(({ socket }) => ((socket?.connection as ConnectionRecord | undefined)?.channelOps?.size ?? 0) === 0);
  await until(idle, timeoutMs);
  const online = new Set(slots.map((slot) => slot.user).filter((user) => user !== undefined));
  const expected = Object.fromEntries(users.map((user) => [user, online.has(user)]));
  // Keys in one order, so that views compare as JSON text.
  const observed = () =>
    slots.filter((slot) => slot.socket).map((slot) => {
      const view = viewOf(eventsOf(slot.socket!));
      return Object.fromEntries(users.map((user) => [user, view[user]]));
    });
  const agrees = () => observed().every((view) => JSON.stringify(view) === JSON.stringify(expected));
  await until(agrees, timeoutMs);
  for (const view of observed()) expect(view, when).toEqual(expected);
}

/** Polls until `condition` holds or `timeoutMs` passed (the caller then checks, and fails with the difference). */
async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 2));
}
