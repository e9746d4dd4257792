import type { TestRedis } from '@org/dev-kit';
import { Redis } from 'ioredis';
import { afterAll, afterEach } from 'vitest';
import type { RedisScaler } from '../../src/index.js';

/**
 * Test helper: a test file's client on the test Redis, and the list a test puts the scalers it opens in.
 * Those are closed after each test; the client and the Redis after the file.
 */
export function scalerFixture(redis: TestRedis): { client: Redis; opened: RedisScaler[] } {
  const client = redisClientFixture(redis);
  const opened: RedisScaler[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((scaler) => scaler.close()));
  });
  return { client, opened };
}

/** Test helper: a test file's client on the test Redis; the client and the Redis are closed after the file. */
export function redisClientFixture(redis: TestRedis): Redis {
  const client = new Redis(redis.url);
  afterAll(async () => {
    client.disconnect();
    await redis.stop();
  });
  return client;
}
