import { publishClusterMessage } from '@org/redis-scaler';
import type { Config } from '../config/schema.js';
import { createRedisClient, resolveRedisConnection } from './redis-connection.js';

/** `restart_server` with scaling on: one message on the deployment's bus restarts every node. Resolves to the node count. */
export async function requestClusterRestart(config: Config): Promise<number> {
  const redis = createRedisClient(resolveRedisConnection(config.scaling.server, config.redis));
  try {
    await redis.connect();
    return await publishClusterMessage(redis, config.scaling.channel, { type: 'restart' });
  } finally {
    redis.disconnect();
  }
}
