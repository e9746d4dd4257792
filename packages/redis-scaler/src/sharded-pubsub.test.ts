import fc from 'fast-check';
import { Cluster } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { openConnections } from './connections.js';
import { keySlot } from './key-slot.js';
import type { PubSub } from './pubsub.js';
import { clusterSkipMessage, inCI, testClusterNodes, uniquePrefix } from '../test/support/test-redis.js';

const nodes = testClusterNodes();

if (nodes) {
  describe('sharded pub/sub on a Redis Cluster', () => {
    const seed = new Cluster(nodes, { shardedSubscribers: true });
    const opened: { pubsub: PubSub; commands: { disconnect(): void } }[] = [];
    /** A node's connections, once its command Cluster is ready (it has no offline queue). */
    const open = async (name: string) => {
      const connections = openConnections(seed, name, 1_000);
      expect(connections.cluster).toBe(true);
      opened.push(connections);
      if (connections.commands.status !== 'ready') await new Promise((resolve) => connections.commands.once('ready', resolve));
      return { ...connections, received: [] as [string, string][] };
    };
    const listen = (node: Awaited<ReturnType<typeof open>>) => {
      node.pubsub.onMessage((topic, payload) => node.received.push([topic, payload]));
      return node;
    };
    afterAll(async () => {
      await Promise.all(opened.map(({ pubsub }) => pubsub.close()));
      for (const { commands } of opened) commands.disconnect();
      seed.disconnect();
    });

    /** Topics of one test whose slots lie on every master (and several in one slot). */
    const topicsOn = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}:c:app:room-${i}`);

    it('delivers each topic\'s messages to its subscriber, whichever master owns the topic\'s slot', async () => {
      const prefix = uniquePrefix('sharded');
      const a = listen(await open('sharded-a'));
      const b = await open('sharded-b');
      const topics = topicsOn(prefix, 30);
      expect(new Set(topics.map(keySlot)).size).toBeGreaterThan(1);
      await a.pubsub.subscribe(topics);
      expect(a.pubsub.ready).toBe(true);
      const counts = await Promise.all(topics.map((topic, i) => b.pubsub.publish(topic, `m${i}`)));
      expect(counts).toEqual(topics.map(() => 1));
      await expect.poll(() => a.received.length).toBe(30);
      expect(a.received).toEqual(expect.arrayContaining(topics.map((topic, i) => [topic, `m${i}`])));
    });

    it('subscribes a topic once however often it is asked for, and stops on unsubscribe', async () => {
      const prefix = uniquePrefix('sharded-once');
      const a = listen(await open('sharded-once-a'));
      const b = await open('sharded-once-b');
      const [topic] = topicsOn(prefix, 1) as [string];
      await Promise.all([a.pubsub.subscribe([topic]), a.pubsub.subscribe([topic, topic])]);
      expect(await b.pubsub.publish(topic, 'one')).toBe(1);
      await expect.poll(() => a.received.length).toBe(1);
      await a.pubsub.unsubscribe([topic]);
      expect(await b.pubsub.publish(topic, 'two')).toBe(0);
      expect(await b.pubsub.listeners(topic)).toBe(0);
      expect(a.received).toEqual([[topic, 'one']]);
    });

    it('keeps each topic once in ioredis\' channel lists across its re-confirmations (ioredis appends every SSUBSCRIBE)', async () => {
      const prefix = uniquePrefix('sharded-lists');
      const a = await open('sharded-lists');
      const topics = topicsOn(prefix, 40);
      await a.pubsub.subscribe(topics);
      await a.pubsub.subscribe(topics);
      await expect.poll(() => a.pubsub.ready).toBe(true);
      /** ioredis' per-slot lists (ClusterSubscriberGroup), which it re-sends after replacing a subscriber. */
      const entries = () => {
        const lists = (a.subscriber as unknown as { shardedSubscribers: { channels: Map<number, string[]> } }).shardedSubscribers.channels;
        return [...lists.values()].flat().filter((topic) => topic.startsWith(prefix));
      };
      // Two slot-owner checks (1 s apart): the first confirms every topic once more.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(entries().sort()).toEqual([...topics].sort());
      await a.pubsub.unsubscribe(topics);
      expect(entries()).toEqual([]);
    });

    it('counts listeners on the master that owns the topic\'s slot (PUBSUB SHARDNUMSUB is per node)', async () => {
      const prefix = uniquePrefix('sharded-numsub');
      const subscribers = await Promise.all([open('numsub-1'), open('numsub-2'), open('numsub-3')]);
      const counter = await open('numsub-counter');
      const topics = topicsOn(prefix, 12);
      for (const [i, node] of subscribers.entries()) await node.pubsub.subscribe(topics.slice(0, 4 * (i + 1)));
      // Topics 0-3 have three listeners, 4-7 two, 8-11 one: on whichever master each lives.
      const counts = await Promise.all(topics.map((topic) => counter.pubsub.listeners(topic)));
      expect(counts).toEqual([3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1]);
      // Asking a random node instead would miss most of them: the point of routing by slot.
      const masters = seed.nodes('master');
      const anywhere = await Promise.all(
        topics.map(async (topic) => Number(((await masters[0]!.call('PUBSUB', 'SHARDNUMSUB', topic)) as unknown[])[1])),
      );
      expect(anywhere).not.toEqual(counts);
    });

    it('publishes to, counts, subscribes and unsubscribes any topic name, braces and long UTF-8 included', async () => {
      const a = await open('sharded-names');
      const b = await open('sharded-names-b');
      for (const topic of ['', '{', '}', '{}', '{x}y', 'ä'.repeat(300)]) {
        await expect(a.pubsub.publish(topic, 'x')).resolves.toBe(0);
        await expect(a.pubsub.listeners(topic)).resolves.toBe(0);
      }
      const prefix = uniquePrefix('sharded-any');
      await fc.assert(
        fc.asyncProperty(fc.uniqueArray(fc.string({ unit: 'grapheme', maxLength: 30 }), { minLength: 1, maxLength: 8 }), async (names) => {
          const topics = names.map((name) => `${prefix}${name}`);
          await b.pubsub.subscribe(topics);
          expect(await Promise.all(topics.map((topic) => a.pubsub.listeners(topic)))).toEqual(topics.map(() => 1));
          await b.pubsub.unsubscribe(topics);
          expect(await Promise.all(topics.map((topic) => a.pubsub.listeners(topic)))).toEqual(topics.map(() => 0));
          expect(b.pubsub.ready).toBe(true);
        }),
        { numRuns: 50 },
      );
    });
  });
} else {
  describe('sharded pub/sub on a Redis Cluster', () => {
    it('needs a Redis Cluster', () => {
      console.warn(clusterSkipMessage);
      expect(inCI).toBe(false);
    });
  });
}
