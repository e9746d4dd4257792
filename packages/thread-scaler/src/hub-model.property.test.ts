import fc from 'fast-check';
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { ClusterMessage, NodeLoss, Scaler } from '@org/protocol';
import { createPortScaler } from './port-scaler.js';
import { createScalerHub } from './scaler-hub.js';

/**
 * Random interleavings of three workers' calls, publishes and deaths, against a model small enough
 * to be obviously right: which socket (of which node) is in which channel, as which user.
 */
type Command =
  | { op: 'connect'; node: number; socket: number }
  | { op: 'subscribe'; node: number; socket: number; channel: number }
  | { op: 'unsubscribe'; node: number; socket: number; channel: number }
  | { op: 'join'; node: number; socket: number; user: number }
  | { op: 'leave'; node: number; socket: number; user: number }
  | { op: 'disconnect'; node: number; socket: number }
  | { op: 'publish'; node: number; channel: number }
  | { op: 'die'; node: number };

const nodeIndex = fc.integer({ min: 0, max: 2 });
const socket = fc.integer({ min: 0, max: 3 });
const channel = fc.integer({ min: 0, max: 2 });
const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ op: fc.constant('connect' as const), node: nodeIndex, socket }),
  fc.record({ op: fc.constant('subscribe' as const), node: nodeIndex, socket, channel }),
  fc.record({ op: fc.constant('unsubscribe' as const), node: nodeIndex, socket, channel }),
  fc.record({ op: fc.constant('join' as const), node: nodeIndex, socket, user: fc.integer({ min: 0, max: 2 }) }),
  fc.record({ op: fc.constant('leave' as const), node: nodeIndex, socket, user: fc.integer({ min: 0, max: 2 }) }),
  fc.record({ op: fc.constant('disconnect' as const), node: nodeIndex, socket }),
  fc.record({ op: fc.constant('publish' as const), node: nodeIndex, channel }),
  fc.record({ op: fc.constant('die' as const), node: nodeIndex }),
);

const app = 'app';
/** Port messages arrive within a tick or two: poll often. */
const poll = { interval: 1, timeout: 2_000 };
const channelName = (index: number) => `c${index}`;
const presence = 'presence-p';
const socketId = (node: number, index: number) => `${node}.${index}`;

interface ModelSocket {
  node: number;
  connected: boolean;
  channels: Set<string>;
  /** The user it joined `presence` as. */
  user: string | undefined;
}

interface LiveNode {
  scaler: Scaler;
  close(): void;
  received: ClusterMessage[];
  losses: NodeLoss[];
}

async function startNode(hub: ReturnType<typeof createScalerHub>, index: number, generation: number): Promise<LiveNode> {
  const { port1, port2 } = new MessageChannel();
  hub.attach(port1, `node-${index}-${generation}`);
  const scaler = createPortScaler(port2, { nodeId: `node-${index}-${generation}` });
  const node: LiveNode = { scaler, close: () => port2.close(), received: [], losses: [] };
  await scaler.start((message) => node.received.push(message), (loss) => node.losses.push(loss), { routing: 'subscribed' });
  return node;
}

describe('the hub with three workers, against a model', () => {
  it('keeps counts, presence, routing and node loss as the model says', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 40 }), async (commands) => {
        const hub = createScalerHub();
        let generation = 0;
        const nodes: LiveNode[] = [];
        for (let index = 0; index < 3; index++) nodes.push(await startNode(hub, index, generation));
        // Keyed by socket id; a socket belongs to the node its id names.
        const model = new Map<string, ModelSocket>();
        const modelSocket = (node: number, index: number) => {
          const id = socketId(node, index);
          let found = model.get(id);
          if (!found) model.set(id, (found = { node, connected: false, channels: new Set(), user: undefined }));
          return { id, socket: found };
        };
        const subscribers = (name: string) => [...model.values()].filter((s) => s.channels.has(name)).length;
        const users = () => new Set([...model.values()].flatMap((s) => (s.user === undefined ? [] : [s.user])));

        for (const c of commands) {
          const node = nodes[c.node]!;
          switch (c.op) {
            case 'connect': {
              const { id, socket: s } = modelSocket(c.node, c.socket);
              s.connected = true;
              expect(await node.scaler.addConnection(app, id)).toBe([...model.values()].filter((m) => m.connected).length);
              break;
            }
            case 'subscribe': {
              const { id, socket: s } = modelSocket(c.node, c.socket);
              s.channels.add(channelName(c.channel));
              expect(await node.scaler.addSubscription(app, channelName(c.channel), id)).toBe(subscribers(channelName(c.channel)));
              break;
            }
            case 'unsubscribe': {
              const { id, socket: s } = modelSocket(c.node, c.socket);
              s.channels.delete(channelName(c.channel));
              expect(await node.scaler.removeSubscription(app, channelName(c.channel), id)).toBe(subscribers(channelName(c.channel)));
              break;
            }
            case 'join': {
              const { id, socket: s } = modelSocket(c.node, c.socket);
              if (s.user !== undefined) break; // one user per socket, as the engine does
              const user = `u${c.user}`;
              const first = !users().has(user);
              s.user = user;
              expect(await node.scaler.joinPresence(app, presence, id, { userId: user, userInfo: '{}' }, 100)).toMatchObject({ status: 'joined', firstForUser: first });
              break;
            }
            case 'leave': {
              const { id, socket: s } = modelSocket(c.node, c.socket);
              const user = `u${c.user}`;
              const was = s.user === user;
              if (was) s.user = undefined;
              expect(await node.scaler.leavePresence(app, presence, id, user)).toBe(was && !users().has(user));
              break;
            }
            case 'disconnect': {
              const { id, socket: s } = modelSocket(c.node, c.socket);
              const held = [...s.channels].map((name) => ({ channel: name, presenceUserId: undefined as string | undefined }));
              if (s.user !== undefined) held.push({ channel: presence, presenceUserId: s.user });
              model.delete(id);
              await node.scaler.removeConnection(app, id, held);
              break;
            }
            case 'publish': {
              const name = channelName(c.channel);
              for (const other of nodes) other.received.length = 0;
              node.scaler.publish({ type: 'broadcast', appId: app, channel: name, frame: '{}' });
              // Everyone else also gets a node-wide message: it marks the end of what was sent.
              node.scaler.publish({ type: 'terminate-user', appId: app, userId: 'nobody' });
              for (const [index, other] of nodes.entries()) {
                if (index === c.node) continue;
                await expect.poll(() => other.received.some((m) => m.type === 'terminate-user'), poll).toBe(true);
                const wants = [...model.values()].some((s) => s.node === index && s.channels.has(name));
                expect(other.received.some((m) => m.type === 'broadcast')).toBe(wants);
              }
              expect(node.received).toEqual([]);
              break;
            }
            case 'die': {
              const losses = () => nodes.filter((_, index) => index !== c.node).reduce((sum, other) => sum + other.losses.length, 0);
              const before = losses();
              const usersBefore = users();
              const vacating = new Set([...model.values()].filter((s) => s.node === c.node).flatMap((s) => [...s.channels]));
              for (const [id, s] of model) if (s.node === c.node) model.delete(id);
              // Each channel it held is vacated or keeps others' subscribers (reduced, for the counts): reported either way.
              const expectedLoss = vacating.size > 0 || [...usersBefore].some((user) => !users().has(user));
              node.close();
              await expect.poll(() => hub.stats.nodes, poll).toBe(2);
              if (expectedLoss) await expect.poll(losses, poll).toBe(before + 1);
              else expect(losses()).toBe(before);
              nodes[c.node] = await startNode(hub, c.node, ++generation);
              break;
            }
          }
          // After every step the shared state is the model's, whichever node asks.
          const asker = nodes[(c.node + 1) % 3]!.scaler;
          expect(await asker.connectionCount(app)).toBe([...model.values()].filter((s) => s.connected).length);
          for (let index = 0; index < 3; index++) expect(await asker.subscriptionCount(app, channelName(index))).toBe(subscribers(channelName(index)));
          expect(await asker.userCount(app, presence)).toBe(users().size);
        }
        hub.close();
      }),
      { numRuns: 60 },
    );
  });
});
