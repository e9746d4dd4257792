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
  return merged;
}

/** Options shared by every client; host, port and db come from the URL when there is one. */
function clientOptions(connection: RedisConnectionConfig): RedisOptions {
  return {
    connectTimeout: connection.timeout * 1000,
    ...(connection.username ? { username: connection.username } : {}),
    ...(connection.password ? { password: connection.password } : {}),
    // Reconnect with backoff, capped at 2 s, forever: an outage must heal without a restart.
    retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
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

/** An ioredis Cluster with the resolved connection as its seed node (rate_limiter.cluster_mode). */
export function createRedisCluster(connection: RedisConnectionConfig): Cluster {
  const seed = connection.url ? connection.url : { host: connection.host, port: connection.port };
  const { username, password, connectTimeout } = clientOptions(connection);
  return new Cluster([seed], { lazyConnect: true, redisOptions: { username, password, connectTimeout } });
}

/** Redacts the password of a redis:// URL for log lines. */
export function describeRedis(connection: RedisConnectionConfig): string {
  if (!connection.url) return `${connection.host}:${connection.port}/${connection.database}`;
  try {
    const url = new URL(connection.url);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '(unparseable url)';
  }
}
