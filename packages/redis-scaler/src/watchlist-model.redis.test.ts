import { runWatchlistModelConformance } from '@org/protocol/testing';
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
    const prefix = uniquePrefix('watchlist-model');
    return Array.from({ length: count }, () => createRedisScaler({ redis: client, prefix }));
  };
  runWatchlistModelConformance(vitest, 'redis scaler, three engines', { engines: 3, runs: 25, createNodes });
} else {
  describe('redis scaler watchlist model', () => {
    it('needs Redis', () => {
      console.warn(skipMessage);
      expect(inCI).toBe(false);
    });
  });
}
