import { runScalerConformance } from '@org/protocol/testing';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisScaler } from './index.js';
import { inCI, skipMessage, testRedis, uniquePrefix } from './test-redis.js';

const redis = await testRedis();

if (redis) {
  const client = new Redis(redis.url);
  const prefix = uniquePrefix('conformance');
  afterAll(async () => {
    client.disconnect();
    await redis.stop();
  });
  runScalerConformance('redis', { create: async () => createRedisScaler({ redis: client, prefix }), multiNode: true });
} else {
  describe('redis scaler conformance', () => {
    it('needs Redis', () => {
      console.warn(skipMessage);
      expect(inCI).toBe(false);
    });
  });
}
