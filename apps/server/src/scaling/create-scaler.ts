import type { Scaler } from '@org/protocol';
import { createRedisScaler, type RedisScalerStats } from '@org/redis-scaler';
import type { Cluster, Redis } from 'ioredis';
import type { Config } from '../config/schema.js';
import type { Logging } from '../logging.js';
import { createScalingClient, describeRedis, resolveRedisConnection } from './redis-connection.js';

export interface ConfiguredScaler {
  scaler: Scaler;
  /** The client the scaler duplicated (a Cluster with `scaling.server.cluster`); closed after the scaler. */
  redis: Redis | Cluster;
  prefix: string;
  /** Outbox and bus counters for /metrics. */
  stats(): RedisScalerStats;
  close(): Promise<void>;
}

/**
 * The Redis scaler when `scaling.enabled` (or REDIS_URL) is set; undefined for
 * the in-memory default. `scaling.channel` namespaces every key and the bus, so
 * deployments sharing one Redis stay apart.
 */
export function createConfiguredScaler(config: Config, logging: Logging, options: { nodeId?: string } = {}): ConfiguredScaler | undefined {
  if (!config.scaling.enabled) return undefined;
  const connection = resolveRedisConnection(config.scaling.server, config.redis);
  const redis = createScalingClient(connection);
  const log = logging.scope('socket.server');
  const prefix = config.scaling.channel;
  const { outbox_max_seconds: outboxMaxSeconds, outbox_max_bytes: outboxMaxBytes, topic_linger_ms: topicLingerMs } = config.scaling;
  const scaler = createRedisScaler({ redis, prefix, logger: log, outboxMaxSeconds, outboxMaxBytes, topicLingerMs, ...(options.nodeId ? { nodeId: options.nodeId } : {}) });
  log.info({ redis: describeRedis(connection), prefix, node: scaler.nodeId }, 'scaling over Redis');
  return {
    scaler,
    redis,
    prefix,
    stats: () => scaler.stats,
    async close() {
      await scaler.close();
      redis.disconnect();
    },
  };
}
