import { publishClusterMessage } from '@org/redis-scaler';
import type { Config } from '../config/schema.js';
import { createScalingClient, resolveRedisConnection } from './redis-connection.js';

/**
 * `restart_server` with scaling on: one message on the deployment's bus restarts every node (on a
 * Redis Cluster, an SPUBLISH to the bus's shard). Resolves to the node count.
 */
export async function requestClusterRestart(config: Config): Promise<number> {
  const redis = createScalingClient(resolveRedisConnection(config.scaling.server, config.redis));
  try {
    await redis.connect();
    return await publishClusterMessage(redis, config.scaling.channel, { type: 'restart' });
  } finally {
    redis.disconnect();
  }
}
