import { randomBytes } from 'node:crypto';
import { startRedisServer as startOwnRedis, testRedis, type RedisProcess } from '@org/dev-kit';
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
