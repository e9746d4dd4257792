import { randomBytes } from 'node:crypto';
import { startRedisServer as startOwnRedis, requiredClusterSeeds, testRedis, type RedisProcess } from '@org/dev-kit';
import { Cluster } from 'ioredis';
import { afterAll } from 'vitest';

/**
 * Redis for the scaling tests, from @org/dev-kit: `REDIS_URL` when set (CI
 * starts one), else a redis-server of our own. In CI a missing Redis fails the
 * file; elsewhere the file's tests are skipped with a message.
 */
export { inCI, redisServerInstalled, type RedisProcess } from '@org/dev-kit';

/** What this file started; killed by PID when the file ends. */
const started = new Set<{ kill(): Promise<void> }>();
afterAll(async () => {
  await Promise.all([...started].map((redis) => redis.kill()));
});

/** A redis-server of this test file on loopback, killed by PID when the file ends. */
export async function startRedisServer(port?: number): Promise<RedisProcess> {
  const redis = await startOwnRedis(port);
  started.add(redis);
  return redis;
}

/** The Redis URL the scaling tests use, or undefined (outside CI) when there is none. */
export async function testRedisUrl(): Promise<string | undefined> {
  const redis = await testRedis({ tests: 'the scaling tests' });
  if (!redis) {
    console.warn('[server] no Redis (set REDIS_URL or install redis-server): scaling tests skipped outside CI');
    return undefined;
  }
  started.add({ kill: () => redis.stop() });
  return redis.url;
}

/** A `scaling.channel` (key and bus namespace) no other test uses. */
export function uniqueChannel(name: string): string {
  return `test:${name}:${randomBytes(4).toString('hex')}`;
}

/** The config section that puts a daemon in the deployment `channel` on `url`. */
export function scalingConfig(url: string, channel: string): Record<string, unknown> {
  return { scaling: { enabled: true, channel }, redis: { url } };
}

/** Where a multi-daemon test runs its deployment: one Redis, or a Redis Cluster. */
export interface ScalingBackend {
  /** For test names: `Redis` or `a Redis Cluster`. */
  readonly name: string;
  /** The config section that puts a daemon in the deployment `channel` on this backend. */
  config(channel: string): Record<string, unknown>;
}

/**
 * The Redis Cluster seeds the tests share, from `REDIS_CLUSTER_NODES` (`host:port,…`; `.ci/run`
 * starts one). Undefined outside CI when unset (the cluster runs are skipped with a message); in
 * CI a missing or silent cluster fails the file.
 */
export async function testRedisClusterNodes(): Promise<string[] | undefined> {
  const seeds = requiredClusterSeeds('server');
  if (!seeds) return undefined;
  const nodes = seeds.map((seed) => seed.text);
  // One PING through the cluster, so that a wrong REDIS_CLUSTER_NODES fails the file at once instead of hanging it.
  const probe = new Cluster(seeds.map(({ host, port }) => ({ host, port })), {
    lazyConnect: true,
    clusterRetryStrategy: () => null,
  });
  try {
    await probe.connect();
    await probe.ping();
  } catch (error) {
    throw new Error(`REDIS_CLUSTER_NODES=${nodes.join(',')} is set but the Redis Cluster does not answer`, { cause: error });
  } finally {
    probe.disconnect();
  }
  return nodes;
}

/** The config section that puts a daemon in the deployment `channel` on the Redis Cluster seeded by `nodes`. */
export function clusterScalingConfig(nodes: readonly string[], channel: string): Record<string, unknown> {
  return { scaling: { enabled: true, channel, server: { cluster: { nodes } } } };
}

/**
 * The backends the multi-daemon tests run on, each the same tests: one Redis (`testRedisUrl`) and
 * a Redis Cluster (`testRedisClusterNodes`), those available (in CI, both or the file fails).
 */
export async function testScalingBackends(): Promise<ScalingBackend[]> {
  const [url, nodes] = await Promise.all([testRedisUrl(), testRedisClusterNodes()]);
  const backends: ScalingBackend[] = [];
  if (url) backends.push({ name: 'Redis', config: (channel) => scalingConfig(url, channel) });
  if (nodes) backends.push({ name: 'a Redis Cluster', config: (channel) => clusterScalingConfig(nodes, channel) });
  return backends;
}
