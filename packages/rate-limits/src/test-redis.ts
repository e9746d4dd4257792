/**
 * Test helper: the Redis the shared-limit tests use, from @org/dev-kit: `REDIS_URL` (else a
 * redis-server of our own) and the Redis Cluster of `REDIS_CLUSTER_NODES`. In CI (`CI=true`) a
 * missing one fails the file; elsewhere its tests are skipped with a message.
 */
import { requiredClusterSeeds } from '@org/dev-kit';
import { Cluster, Redis } from 'ioredis';

export { redisServerInstalled, startRedisServer, testRedis } from '@org/dev-kit';

/** A client as a daemon builds one: connected by the limits (lazyConnect), reconnecting for good, commands queued while down. */
export function redisClient(url: string): Redis {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: null, retryStrategy: () => 100 });
  client.on('error', () => {}); // outages are the limits' to report
  return client;
}

/** A Cluster client over the test cluster's seeds. */
export function clusterClient(seeds: readonly { host: string; port: number }[]): Cluster {
  const client = new Cluster([...seeds], { lazyConnect: true });
  client.on('error', () => {});
  return client;
}

/**
 * The test Redis Cluster's seeds, from `REDIS_CLUSTER_NODES`; undefined when unset outside CI
 * (the cluster tests are skipped with a message), an error in CI.
 */
export function testClusterNodes(): { host: string; port: number }[] | undefined {
  return requiredClusterSeeds('rate-limits')?.map(({ host, port }) => ({ host, port }));
}

/** A key no other test run uses (the counters live in Redis, which other runs may share). */
export function uniqueKey(name: string): string {
  return `${name}-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}
