/**
 * Test helper: a real Redis for the tests, from @org/dev-kit (`REDIS_URL`,
 * else a redis-server of our own). In CI (`CI=true`) a missing Redis is an
 * error; elsewhere the Redis tests are skipped with `skipMessage`.
 */
import { testClusterSeeds } from '@org/dev-kit';

export { freePort, inCI, redisServerInstalled, startRedisServer, testRedis, type RedisProcess } from '@org/dev-kit';

export const skipMessage = '[redis-scaler] no Redis (set REDIS_URL or install redis-server): Redis tests skipped outside CI';

/** A prefix no other test run uses. */
export function uniquePrefix(name: string): string {
  return `test-${name}-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

export const clusterSkipMessage =
  '[redis-scaler] no Redis Cluster (set REDIS_CLUSTER_NODES=host:port,host:port,...): Redis Cluster tests skipped outside CI';

/**
 * Seed nodes of the Redis Cluster the tests share, from `REDIS_CLUSTER_NODES` (read by @org/dev-kit's
 * `testClusterSeeds`; `.ci/run` starts one). Undefined when unset: the cluster tests are then skipped,
 * or fail in CI (`CI=true`). Each test uses its own prefix, so runs never see each other's keys.
 */
export function testClusterNodes(): { host: string; port: number }[] | undefined {
  return testClusterSeeds()?.map(({ host, port }) => ({ host, port }));
}
