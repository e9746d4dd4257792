import { runScalerConformance } from '@org/protocol/testing';
import { Cluster } from 'ioredis';
import * as vitest from 'vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisScaler } from './index.js';
import { redisClientFixture } from '../test/support/scaler-fixture.js';
import { clusterSkipMessage, inCI, skipMessage, testClusterNodes, testRedis, uniquePrefix } from '../test/support/test-redis.js';

const redis = await testRedis();

if (redis) {
  const client = redisClientFixture(redis);
  const prefix = uniquePrefix('conformance');
  runScalerConformance(vitest, 'redis', { create: async () => createRedisScaler({ redis: client, prefix }), multiNode: true });
} else {
  describe('redis scaler conformance', () => {
    it('needs Redis', () => {
      console.warn(skipMessage);
      expect(inCI).toBe(false);
    });
  });
}

const clusterNodes = testClusterNodes();

if (clusterNodes) {
  // The same suite, unchanged, on a Redis Cluster: sharded pub/sub, every key in the prefix's slot.
  const cluster = new Cluster(clusterNodes, { shardedSubscribers: true });
  const prefix = uniquePrefix('conformance-cluster');
  afterAll(async () => {
    // Each node's graceful close removed its own keys; whatever a crashed node left expires with the prefix unused.
    cluster.disconnect();
  });
  runScalerConformance(vitest, 'redis cluster', { create: async () => createRedisScaler({ redis: cluster, prefix }), multiNode: true });
} else {
  describe('redis scaler conformance on a Redis Cluster', () => {
    it('needs a Redis Cluster', () => {
      console.warn(clusterSkipMessage);
      expect(inCI).toBe(false);
    });
  });
}
