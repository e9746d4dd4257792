import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import { createStaticAppProvider } from './app-provider.js';
import { localNodeOf, RealtimeServer } from './realtime-server.js';
import { signUser } from './signing.js';
import { createMemoryCluster } from './testing/memory-cluster.js';
import { MemoryTransport, settle, type MemorySocket } from './testing/memory-transport.js';

const app = createApp({ id: 'm', key: 'model-key', secret: 'model-secret', enableWatchlistEvents: true, maxConnections: 1_000 });
const users = ['u0', 'u1', 'u2'] as const;
type User = (typeof users)[number];
const engines = 3;
const slots = 5;

/** A client slot signs in (connecting first, on `node`, when closed), closes, or reconnects on `node` and signs in. */
type Action = { op: 'signin' | 'close' | 'reconnect'; slot: number; user: User; node: number };
const action: fc.Arbitrary<Action> = fc.record({
  op: fc.constantFrom('signin', 'signin', 'close', 'reconnect'),
  slot: fc.nat(slots - 1),
  user: fc.constantFrom(...users),
  node: fc.nat(engines - 1),
});
/** A step: actions sent back to back, then the cluster settles. */
const steps = fc.array(fc.array(action, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 10 });

interface Slot {
  socket: MemorySocket | undefined;
  /** The user it signed in as, in the model. */
  user: User | undefined;
  /** Watchlist frames it had heard when each step began. */
  heard: number;
}

type Event = { name: 'online' | 'offline'; user_ids: string[] };
const eventsOf = (socket: MemorySocket): Event[] =>
  socket.events('pusher_internal:watchlist_events').flatMap((frame) => (JSON.parse(frame.data as string) as { events: Event[] }).events);

/** What pusher-js's user of `watchlist` would believe after these events. */
function viewOf(events: readonly Event[]): Map<string, boolean> {
  const view = new Map<string, boolean>();
  for (const { name, user_ids } of events) for (const id of user_ids) view.set(id, name === 'online');
  return view;
}

function signIn(socket: MemorySocket, user: User): void {
  const userData = JSON.stringify({ id: user, watchlist: users });
  socket.receive({ event: 'pusher:signin', data: { user_data: userData, auth: signUser(app, socket.socketId, userData) } });
}

describe('watchlist events, model-based, three engines on the in-memory cluster', () => {
  it('every watcher\'s view matches who is signed in, and nobody still signed in somewhere is ever said offline', async () => {
    await fc.assert(
      fc.asyncProperty(steps, async (plan) => {
        const memory = createMemoryCluster();
        const servers = await Promise.all(
          Array.from({ length: engines }, async () => {
            const server = new RealtimeServer({ apps: createStaticAppProvider([app]), scaler: memory.node() });
            await server.start();
            return server;
          }),
        );
        const transports = servers.map((server) => new MemoryTransport(server));
        const model: Slot[] = Array.from({ length: slots }, () => ({ socket: undefined, user: undefined, heard: 0 }));

        for (const step of plan) {
          // Users signed in before the step on a socket the step does not touch: never offline during it.
          const touched = new Set(step.map((one) => one.slot));
          const steady = new Set(model.filter((slot, index) => slot.user !== undefined && !touched.has(index)).map((slot) => slot.user));
          for (const slot of model) if (slot.socket) slot.heard = eventsOf(slot.socket).length;

          for (const { op, slot: index, user, node } of step) {
            const slot = model[index]!;
            if (op !== 'signin' || !slot.socket) {
              slot.socket?.close(1000, 'model');
              slot.socket = undefined;
              slot.user = undefined;
              if (op === 'close') continue;
              slot.socket = await transports[node]!.connect({ appKey: 'model-key' });
              slot.heard = 0;
            }
            signIn(slot.socket, user);
            slot.user = user;
          }
          await settle(20);

          const online = new Set(model.map((slot) => slot.user).filter((user) => user !== undefined));
          for (const slot of model) {
            if (!slot.socket) continue;
            const events = eventsOf(slot.socket);
            for (const { name, user_ids } of events.slice(slot.heard)) {
              if (name === 'offline') for (const id of user_ids) expect(steady.has(id as User), `offline ${id} while still signed in`).toBe(false);
            }
            const view = viewOf(events);
            for (const user of users) expect(view.get(user), `view of ${user}`).toBe(online.has(user));
          }
        }

        for (const slot of model) slot.socket?.close(1000, 'end');
        await settle(20);
        for (const server of servers) expect(localNodeOf(server).watchlists.watchers).toBe(0);
        expect(await servers[0]!.scaler.onlineUsers(app.id, users)).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });
});
