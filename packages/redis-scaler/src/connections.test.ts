import { Cluster } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { openConnections } from './connections.js';
import { inCI, skipMessage, testRedis } from '../test/support/test-redis.js';

const redis = await testRedis();

if (redis) {
  afterAll(() => redis.stop());

  describe('Cluster connections pointed at a Redis with cluster mode off', () => {
    it('log one error that says so (ioredis alone only says it failed to refresh its slots)', async () => {
      const { hostname, port } = new URL(redis.url);
      const seed = new Cluster([{ host: hostname, port: Number(port) }], { shardedSubscribers: true, lazyConnect: true });
      const errors: string[] = [];
      const logger = { info: () => {}, warn: () => {}, error: (_fields: object, message: string) => errors.push(message) };
      const { commands, pubsub } = openConnections(seed, 'not-a-cluster', 1_000, logger);
      try {
        await expect.poll(() => errors.length, { timeout: 5_000 }).toBeGreaterThan(0);
        expect(errors).toEqual([expect.stringContaining('cluster mode off')]);
      } finally {
        pubsub.disconnect();
        commands.disconnect();
        seed.disconnect();
      }
    });
  });
} else {
  describe('Cluster connections pointed at a Redis with cluster mode off', () => {
    it('needs Redis', () => {
      console.warn(skipMessage);
      expect(inCI).toBe(false);
    });
  });
}
