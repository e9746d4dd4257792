import { runEngineModelConformance } from '@org/protocol/testing';
import * as vitest from 'vitest';
import { describe, expect, it } from 'vitest';
import { createRedisScaler } from './index.js';
import { redisClientFixture } from '../test/support/scaler-fixture.js';
import { inCI, skipMessage, testRedis, uniquePrefix } from '../test/support/test-redis.js';

const redis = await testRedis();

if (redis) {
  const client = redisClientFixture(redis);
  // A prefix per generated run: every run's nodes form a fresh cluster.
  const createNodes = async (count: number) => {
    const prefix = uniquePrefix('model');
    return Array.from({ length: count }, () => createRedisScaler({ redis: client, prefix }));
  };
  runEngineModelConformance(vitest, 'redis scaler, two engines', { engines: 2, runs: 20, createNodes });
  runEngineModelConformance(vitest, 'redis scaler, three engines', { engines: 3, runs: 10, createNodes });
} else {
  describe('redis scaler engine model', () => {
    it('needs Redis', () => {
      console.warn(skipMessage);
      expect(inCI).toBe(false);
    });
  });
}
