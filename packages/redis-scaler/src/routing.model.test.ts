import type { ClusterMessage, HeldChannel } from '@org/protocol';
import { describe, expect, it } from 'vitest';
import { createRedisScaler, type RedisScaler } from './index.js';
import { createKeys } from './keys.js';
import { redisClientFixture } from '../test/support/scaler-fixture.js';
import { inCI, skipMessage, testRedis, uniquePrefix } from '../test/support/test-redis.js';

/** A small deterministic PRNG (mulberry32): a failing seed replays the same run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const channels = ['c0', 'c1', 'presence-p0', 'presence-p1'] as const;
const socketsPerNode = 3;
const app = 'app';

/** What one node holds, as the model sees it: each socket's subscriptions and presence memberships. */
interface NodeModel {
  subscriptions: Map<string, Set<string>>; // socket → channels
  presence: Map<string, Map<string, string>>; // socket → channel → userId
}

const listens = (model: NodeModel, channel: string) =>
  [...model.subscriptions.values()].some((held) => held.has(channel)) || [...model.presence.values()].some((held) => held.has(channel));

const redis = await testRedis();

if (redis) {
  const client = redisClientFixture(redis);

  describe('routing against a model of who must hear what (3 routed nodes, random interleavings)', () => {
    it.each([1, 2, 3])('seed %i: after every step the topics match the model, and each event reaches exactly the nodes listening when it was published', async (seed) => {
      const next = random(seed);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
      const prefix = uniquePrefix(`routing-model-${seed}`);
      const keys = createKeys(prefix);
      const scalers: RedisScaler[] = [];
      const received: ClusterMessage[][] = [[], [], []];
      const models: NodeModel[] = [];
      for (let n = 0; n < 3; n++) {
        const scaler = createRedisScaler({ redis: client, prefix, nodeId: `model-${n}`, topicLingerMs: 0 });
        await scaler.start((message) => received[n]!.push(message), undefined, { routing: 'subscribed' });
        scalers.push(scaler);
        models.push({ subscriptions: new Map(), presence: new Map() });
      }
      /** Event id → the nodes that must receive it. */
      const expected = new Map<string, Set<number>>();
      let events = 0;
      const log: string[] = [];

      /** The topic's listeners in Redis must come to equal the nodes listening in the model. */
      const settle = async (channel: string) => {
        const want = models.filter((model) => listens(model, channel)).length;
        await expect
          .poll(async () => Number(((await client.pubsub('NUMSUB', keys.topic(app, channel))) as unknown[])[1]), { timeout: 3_000, interval: 2 })
          .toBe(want);
      };

      try {
        for (let step = 0; step < 250; step++) {
          const n = Math.floor(next() * 3);
          const scaler = scalers[n]!;
          const model = models[n]!;
          const socket = `${n}.${Math.floor(next() * socketsPerNode)}`;
          const channel = pick(channels);
          const roll = next();
          if (roll < 0.25) {
            log.push(`${step}: node ${n} subscribe ${socket} ${channel}`);
            await scaler.addSubscription(app, channel, socket);
            let held = model.subscriptions.get(socket);
            if (!held) model.subscriptions.set(socket, (held = new Set()));
            held.add(channel);
          } else if (roll < 0.4) {
            log.push(`${step}: node ${n} unsubscribe ${socket} ${channel}`);
            await scaler.removeSubscription(app, channel, socket);
            model.subscriptions.get(socket)?.delete(channel);
          } else if (roll < 0.55 && channel.startsWith('presence-')) {
            const userId = `u${socket}`;
            log.push(`${step}: node ${n} join ${socket} ${channel}`);
            await scaler.joinPresence(app, channel, socket, { userId, userInfo: '{}' }, 1_000);
            let held = model.presence.get(socket);
            if (!held) model.presence.set(socket, (held = new Map()));
            held.set(channel, userId);
          } else if (roll < 0.65 && channel.startsWith('presence-')) {
            const userId = model.presence.get(socket)?.get(channel);
            log.push(`${step}: node ${n} leave ${socket} ${channel}`);
            if (userId !== undefined) await scaler.leavePresence(app, channel, socket, userId);
            model.presence.get(socket)?.delete(channel);
          } else if (roll < 0.72) {
            const held: HeldChannel[] = [];
            const presence = model.presence.get(socket) ?? new Map<string, string>();
            for (const held_ of new Set([...(model.subscriptions.get(socket) ?? []), ...presence.keys()])) held.push({ channel: held_, presenceUserId: presence.get(held_) });
            log.push(`${step}: node ${n} close ${socket} holding ${held.map((h) => h.channel).join(',')}`);
            await scaler.removeConnection(app, socket, held);
            model.subscriptions.delete(socket);
            model.presence.delete(socket);
            for (const { channel: vacated } of held) await settle(vacated);
          } else {
            const id = `e${++events}`;
            log.push(`${step}: node ${n} publish ${id} on ${channel}`);
            const must = new Set<number>();
            for (let other = 0; other < 3; other++) if (other !== n && listens(models[other]!, channel)) must.add(other);
            expected.set(id, must);
            const message: ClusterMessage =
              channel.startsWith('presence-') && next() < 0.5
                ? { type: 'member-removed', appId: app, channel, userId: id }
                : { type: 'broadcast', appId: app, channel, frame: id };
            scaler.publish(message);
            // Until Redis ran the PUBLISH (sent on the next turn of the loop, with the turn's others): a command
            // behind it on the same connection answers after it, so the model's "when" is exact.
            await new Promise((resolve) => setImmediate(resolve));
            await scaler.connectionCount(app);
            await expect
              .poll(() => [...must].every((other) => received[other]!.some((m) => idOf(m) === id)), { timeout: 3_000, interval: 2 })
              .toBe(true);
          }
          await settle(channel);
        }
        // Node-wide sentinels from every node: on one Redis they come after everything each node published before.
        for (let n = 0; n < 3; n++) scalers[n]!.publish({ type: 'terminate-user', appId: app, userId: `sentinel-${n}` });
        await expect
          .poll(() => received.every((list, n) => list.filter((m) => m.type === 'terminate-user').length === 2 && n >= 0), { timeout: 3_000 })
          .toBe(true);
        for (let n = 0; n < 3; n++) {
          const got = received[n]!.map(idOf).filter((id): id is string => id !== undefined);
          const want = [...expected].filter(([, must]) => must.has(n)).map(([id]) => id);
          // Exactly the events published while it listened: none missing, none extra, none twice.
          expect(got, `node ${n}; steps:\n${log.join('\n')}`).toEqual(want);
        }
        for (const scaler of scalers) expect(scaler.stats).toMatchObject({ duplicateMessages: 0, missedMessages: 0 });
      } finally {
        await Promise.all(scalers.map((scaler) => scaler.close()));
      }
    });
  });
} else {
  describe('routing model', () => {
    it('needs Redis', () => {
      console.warn(skipMessage);
      expect(inCI).toBe(false);
    });
  });
}

function idOf(message: ClusterMessage): string | undefined {
  if (message.type === 'broadcast') return message.frame;
  if (message.type === 'member-removed') return message.userId;
  return undefined;
}
