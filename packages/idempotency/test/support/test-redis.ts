/**
 * The Redis and the Redis Cluster of the store tests, from @org/dev-kit: `REDIS_URL` (else a
 * redis-server of our own) and `REDIS_CLUSTER_NODES`. In CI (`CI=true`) a missing one fails the
 * file; elsewhere its tests are skipped with a message.
 */
import { requiredClusterSeeds } from '@org/dev-kit';
import { Cluster, Redis } from 'ioredis';

export { testRedis } from '@org/dev-kit';

/** A client as the daemon builds one: reconnecting for good, commands queued while down. */
export function redisClient(url: string): Redis {
  const client = new Redis(url, { maxRetriesPerRequest: null, retryStrategy: () => 100 });
  client.on('error', () => {});
  return client;
}

export function clusterClient(seeds: readonly { host: string; port: number }[]): Cluster {
  const client = new Cluster([...seeds]);
  client.on('error', () => {});
  return client;
}

/** The test cluster's seeds; undefined outside CI without `REDIS_CLUSTER_NODES` (tests skipped), an error in CI. */
export function testClusterNodes(): { host: string; port: number }[] | undefined {
  return requiredClusterSeeds('idempotency')?.map(({ host, port }) => ({ host, port }));
}

/** A key prefix no other run uses (Redis may be shared). */
export function uniquePrefix(name: string): string {
  return `${name}-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}
