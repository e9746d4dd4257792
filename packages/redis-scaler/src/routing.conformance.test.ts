import { runRoutingConformance } from '@org/protocol/testing';
import { Cluster } from 'ioredis';
import * as vitest from 'vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisScaler } from './index.js';
import { redisClientFixture } from '../test/support/scaler-fixture.js';
import { clusterSkipMessage, inCI, skipMessage, testClusterNodes, testRedis, uniquePrefix } from '../test/support/test-redis.js';

const redis = await testRedis();

if (redis) {
  const client = redisClientFixture(redis);
  // Unsubscribed at once, and with a linger: the contract holds either way.
  const prefix = uniquePrefix('routing');
  runRoutingConformance(vitest, 'redis (no linger)', { create: async () => createRedisScaler({ redis: client, prefix, topicLingerMs: 0 }), multiNode: true });
  runRoutingConformance(vitest, 'redis (100 ms linger)', { create: async () => createRedisScaler({ redis: client, prefix, topicLingerMs: 100 }), multiNode: true, lingerMs: 100 });
} else {
  describe('redis routing conformance', () => {
    it('needs Redis', () => {
      console.warn(skipMessage);
      expect(inCI).toBe(false);
    });
  });
}

const clusterNodes = testClusterNodes();

if (clusterNodes) {
  // On a Redis Cluster: channel topics spread over the masters (sharded pub/sub), the bus on the prefix's slot.
  const cluster = new Cluster(clusterNodes, { shardedSubscribers: true });
  afterAll(() => {
    cluster.disconnect();
  });
  const prefix = uniquePrefix('routing-cluster');
  runRoutingConformance(vitest, 'redis cluster', { create: async () => createRedisScaler({ redis: cluster, prefix, topicLingerMs: 0 }), multiNode: true });
} else {
  describe('redis routing conformance on a Redis Cluster', () => {
    it('needs a Redis Cluster', () => {
      console.warn(clusterSkipMessage);
      expect(inCI).toBe(false);
    });
  });
}
