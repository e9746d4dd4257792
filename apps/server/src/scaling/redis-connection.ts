import { reconnectBackoff } from '@org/redis-scaler';
import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { RedisConnectionConfig } from '../config/schema.js';

/**
 * The connection a feature uses: its own section (`scaling.server`,
 * `rate_limiter.redis`) key by key over the shared `redis` section.
 */
export function resolveRedisConnection(
  own: { [K in keyof RedisConnectionConfig]?: RedisConnectionConfig[K] | undefined } | undefined,
  shared: RedisConnectionConfig,
): RedisConnectionConfig {
  const merged: RedisConnectionConfig = { ...shared };
  for (const [key, value] of Object.entries(own ?? {})) {
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  }
  // A feature's own single server (its url or host, e.g. from REDIS_URL) wins over a cluster of the shared section.
  if (own && !own.cluster && (own.url !== undefined || own.host !== undefined)) delete merged.cluster;
  return merged;
}

/** Options shared by every client; host, port and db come from the URL when there is one. */
function clientOptions(connection: RedisConnectionConfig): RedisOptions {
  return {
    connectTimeout: connection.timeout * 1000,
    ...(connection.username ? { username: connection.username } : {}),
    ...(connection.password ? { password: connection.password } : {}),
    // The scaler's backoff (capped at 2 s, forever): an outage must heal without a restart.
    retryStrategy: reconnectBackoff,
    maxRetriesPerRequest: null,
    lazyConnect: true,
  };
}

/** An ioredis client for a resolved connection; `url` wins over host/port and carries its own credentials and db. */
export function createRedisClient(connection: RedisConnectionConfig): Redis {
  const options = clientOptions(connection);
  return connection.url
    ? new Redis(connection.url, options)
    : new Redis({ ...options, host: connection.host, port: connection.port, db: connection.database });
}

/** `host:port` (IPv6 in brackets) as ioredis takes a node. */
function seedNode(seed: string): { host: string; port: number } {
  const colon = seed.lastIndexOf(':');
  return { host: seed.slice(0, colon).replace(/^\[(.*)\]$/, '$1'), port: Number(seed.slice(colon + 1)) };
}

/**
 * An ioredis Cluster: seeded by `cluster.nodes` when configured, else by the resolved connection
 * (rate_limiter.cluster_mode). `shardedSubscribers` for the scaler: one subscriber connection per
 * master, so that SSUBSCRIBE reaches the owner of each topic's slot.
 */
export function createRedisCluster(connection: RedisConnectionConfig, options: { shardedSubscribers?: boolean } = {}): Cluster {
  const seeds = connection.cluster ? connection.cluster.nodes.map(seedNode) : [connection.url ? connection.url : { host: connection.host, port: connection.port }];
  const { username, password, connectTimeout } = clientOptions(connection);
  return new Cluster(seeds, {
    lazyConnect: true,
    shardedSubscribers: options.shardedSubscribers ?? false,
    clusterRetryStrategy: reconnectBackoff,
    redisOptions: {
      connectTimeout,
      ...(username ? { username } : {}),
      ...(password ? { password } : {}),
      ...(connection.cluster?.tls ? { tls: {} } : {}),
    },
  });
}

/** The scaler's client: a Cluster when `cluster` is configured, else one server. */
export function createScalingClient(connection: RedisConnectionConfig): Redis | Cluster {
  return connection.cluster ? createRedisCluster(connection, { shardedSubscribers: true }) : createRedisClient(connection);
}

/** Redacts the password of a redis:// URL for log lines. */
export function describeRedis(connection: RedisConnectionConfig): string {
  if (connection.cluster) return `cluster ${connection.cluster.nodes.join(',')}${connection.cluster.tls ? ' (tls)' : ''}`;
  if (!connection.url) return `${connection.host}:${connection.port}/${connection.database}`;
  try {
    const url = new URL(connection.url);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '(unparseable url)';
  }
}
