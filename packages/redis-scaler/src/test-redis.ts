/**
 * Test helper: a real Redis for the tests, from @org/dev-kit (`REDIS_URL`,
 * else a redis-server of our own). In CI (`CI=true`) a missing Redis is an
 * error; elsewhere the Redis tests are skipped with `skipMessage`.
 */
export { freePort, inCI, redisServerInstalled, startRedisServer, testRedis, type RedisProcess } from '@org/dev-kit';

export const skipMessage = '[redis-scaler] no Redis (set REDIS_URL or install redis-server): Redis tests skipped outside CI';

/** A prefix no other test run uses. */
export function uniquePrefix(name: string): string {
  return `test-${name}-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}
