import type { Logger } from '@org/protocol';
import { createRateLimits as createLimits, rateLimitCounters as countersFor, type Allowances, type RateLimits, type RateLimitRefusal } from '@org/rate-limits';
import type { RateLimitKind } from '@org/rest-api';
import type { Config } from '../config/schema.js';
import { createRedisClient, createRedisCluster, resolveRedisConnection } from '../scaling/redis-connection.js';

/**
 * `rate_limiter` as @org/rate-limits allowances: each configured app its own `max_*_per_second`,
 * else the limiter's, which any other app id gets too (the engine serves only configured apps).
 * Built from the same config, the buffer `rateLimitCounters` makes for the worker threads and the
 * limits each worker builds agree on where every app is counted.
 */
function allowances(config: Config): Allowances<RateLimitKind> {
  const settings = config.rate_limiter;
  return {
    default: { backend_events: settings.max_backend_events_per_second, read: settings.max_read_requests_per_second },
    keys: Object.fromEntries(
      config.applications.map((app) => [
        app.id,
        {
          backend_events: app.max_backend_events_per_second ?? settings.max_backend_events_per_second,
          read: app.max_read_requests_per_second ?? settings.max_read_requests_per_second,
        },
      ]),
    ),
  };
}

/**
 * The memory every worker thread of one process counts local limits in
 * (`driver: local`, and `driver: redis` while its Redis is unreachable), or
 * undefined when rate limits are off. Made once per pool of workers and handed
 * to each in `workerData`.
 */
export function rateLimitCounters(config: Config): SharedArrayBuffer | undefined {
  return config.rate_limiter.enabled ? countersFor(allowances(config)) : undefined;
}

export interface RateLimitsOptions {
  /** From `rateLimitCounters(config)` of the same config, shared by every worker thread; else counters of this thread's own. */
  counters?: SharedArrayBuffer | undefined;
  /** Each refused HTTP API request (metrics). */
  onRefused?: ((appId: string, kind: RateLimitKind, refusal: RateLimitRefusal) => void) | undefined;
}

/**
 * The HTTP API rate limits of `rate_limiter` (@org/rate-limits), keyed by app: `driver: local`
 * counts in memory shared by the worker threads, `driver: redis` in the configured Redis (a
 * cluster when `cluster_mode` or the connection names one), on a client of their own that
 * `close()` disconnects. `rateLimit` is `@org/rest-api`'s option. Client events
 * (`max_frontend_events_per_second`) are limited per connection by the engine itself (see
 * config/to-apps.ts): a connection lives on one thread, so they need no store.
 */
export function createRateLimits(config: Config, log: Logger, options: RateLimitsOptions = {}): RateLimits<RateLimitKind> | undefined {
  const settings = config.rate_limiter;
  if (!settings.enabled) return undefined;
  let client: ReturnType<typeof createRedisClient | typeof createRedisCluster> | undefined;
  if (settings.driver === 'redis') {
    const connection = resolveRedisConnection(settings.redis, config.redis);
    // A cluster named in the shared `redis` section (or the limiter's own) is one, cluster_mode or not.
    client = settings.cluster_mode || connection.cluster ? createRedisCluster(connection) : createRedisClient(connection);
    client.on('error', () => {}); // the limits log the outage once, not once per reconnect attempt
  }
  const limits = createLimits({
    allowances: allowances(config),
    counters: options.counters,
    // Keys as before the package: realtime:rate:<kind>:<app id>, so a rolling upgrade keeps counting in the same windows.
    ...(client ? { redis: { client, keyPrefix: 'realtime:rate' } } : {}),
    logger: log,
    onRefused: options.onRefused,
  });
  return {
    ...limits,
    async close() {
      await limits.close(); // first: closing on purpose is no outage
      client?.disconnect();
    },
  };
}
