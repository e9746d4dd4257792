import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startRedisCluster, type RedisClusterProcesses } from '@org/dev-kit';
import { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keySlot } from './key-slot.js';
import { createShardedPubSub } from './sharded-pubsub.js';
import { inCI, redisServerInstalled } from '../test/support/test-redis.js';

/**
 * A master losing a slot pushes an unsolicited `sunsubscribe` per channel of that slot to the
 * subscriber connection. ioredis takes such a push for the reply of the SSUBSCRIBE then in flight on
 * that connection (resolving it unanswered) and, at count 0, leaves subscriber mode while Redis
 * keeps the new subscription: that topic's messages were then dropped for good although its slot
 * never changed owner (seen as 12–15 of 30 channels silent after a `CLUSTER FAILOVER`). This file
 * makes that order certain on a three-master cluster of its own: the master is held in `DEBUG SLEEP`
 * while the SSUBSCRIBE is written, then handles the slot move before it.
 */
const installed = redisServerInstalled();
if (!installed && inCI) throw new Error('redis-server is not installed, but CI=true requires the sharded pub/sub slot-loss test to run');

const run = promisify(execFile);
const cli = async (port: number, ...args: string[]) => (await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args])).stdout.trim();

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what}: not within ${timeoutMs} ms`);
}

/** Every wait of the test is bounded and named: a hang fails saying where. */
async function step<T>(what: string, promise: Promise<T>, timeoutMs = 10_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

describe.skipIf(!installed)('sharded pub/sub when its master loses another slot while an SSUBSCRIBE is in flight', () => {
  let cluster: RedisClusterProcesses | undefined;
  let ports: readonly number[] = [];
  const closers: (() => void)[] = [];

  beforeAll(async () => {
    cluster = await startRedisCluster({ masters: 3, replicasPerMaster: 0, debugCommand: true });
    ports = cluster.ports;
  }, 30_000);
  afterAll(async () => {
    for (const close of closers) close();
    await cluster?.stop();
  });

  it('keeps delivering the topic whose SSUBSCRIBE the unsolicited sunsubscribe pushes answered', async () => {
    const [first, second] = ports as [number, number];
    const seeds = ports.map((port) => ({ host: '127.0.0.1', port }));
    const commands = new Cluster(seeds);
    const subscriber = new Cluster(seeds, { shardedSubscribers: true });
    const warnings: unknown[] = [];
    const logger = { warn: (entry: unknown) => warnings.push(entry), error: () => {}, info: () => {} };
    const pubsub = createShardedPubSub(commands, subscriber, { nodeId: 'slot-loss', logger, topologyCheckMs: 200 });
    const admin = new Redis({ host: '127.0.0.1', port: first, lazyConnect: true });
    closers.push(() => pubsub.disconnect(), () => commands.disconnect(), () => admin.disconnect());
    await step('both Clusters ready', Promise.all([new Promise((resolve) => commands.once('ready', resolve)), new Promise((resolve) => subscriber.once('ready', resolve)), admin.connect()]));

    // Two topics in two different slots, both served by the first master (slots 0–5460).
    const topics = Array.from({ length: 200 }, (_, i) => `slot-loss:c:app:room-${i}`).filter((topic) => keySlot(topic) <= 5_460);
    const moving = topics[0]!;
    const staying = topics.find((topic) => keySlot(topic) !== keySlot(moving))!;
    const received: string[] = [];
    pubsub.onMessage((topic) => received.push(topic));
    await step('the first subscribe', pubsub.subscribe([moving]));
    expect(await step('the first publish', pubsub.publish(moving, 'before'))).toBe(1);
    await until(async () => received.includes(moving), 'the first message');

    // The second master takes the moving slot; the first master hands it over only after a sleep
    // during which the SSUBSCRIBE of the staying topic reaches it: it answers that after the pushes.
    const secondId = await cli(second, 'cluster', 'myid');
    await cli(second, 'cluster', 'setslot', String(keySlot(moving)), 'node', secondId);
    const handOver = Promise.all([admin.call('DEBUG', 'SLEEP', '0.5'), admin.call('CLUSTER', 'SETSLOT', String(keySlot(moving)), 'NODE', secondId)]);
    await new Promise((resolve) => setTimeout(resolve, 150));
    await step('the subscribe in flight during the hand-over', pubsub.subscribe([staying]));
    await step('the hand-over', handOver);

    // Bounded: without the fix the staying topic's messages never arrive again.
    await until(async () => {
      await step('a publish after the hand-over', pubsub.publish(staying, 'after'), 3_000);
      return received.includes(staying);
    }, 'a message on the topic subscribed while its master lost another slot', 10_000);
    // And the moved topic follows its slot to the second master.
    const before = received.length;
    await until(async () => {
      await step('a publish of the moved topic', pubsub.publish(moving, 'moved'), 3_000);
      return received.slice(before).includes(moving);
    }, 'a message on the moved topic', 10_000);
  }, 40_000);
});
