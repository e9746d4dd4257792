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

  describe('signed-in user ids', () => {
    it('records a user id holding a lone surrogate (valid JSON in user_data) without taking the node off Redis', async () => {
      const prefix = uniquePrefix('watchlist-ids');
      const [node, other] = [createRedisScaler({ redis: client, prefix }), createRedisScaler({ redis: client, prefix })];
      try {
        await Promise.all([node.start(() => {}), other.start(() => {})]);
        await vitest.expect.poll(() => node.connected).toBe(true);
        await node.addConnection('app', '1.1');
        expect(await node.signIn('app', '\ud800', '1.1')).toBe(true);
        expect(node.connected).toBe(true); // a failed call would have marked it down: an outage, for everyone on it
        expect(await other.onlineUsers('app', ['\ud800'])).toEqual(['\ud800']); // the shared answer, not a local one
        expect((await node.removeConnection('app', '1.1', [], '\ud800')).userWentOffline).toBe(true);
        expect(node.connected).toBe(true);
      } finally {
        await Promise.all([node.close(), other.close()]);
      }
    });
  });
} else {
  describe('redis scaler watchlist model', () => {
    it('needs Redis', () => {
      console.warn(skipMessage);
      expect(inCI).toBe(false);
    });
  });
}
