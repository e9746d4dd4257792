import type { App, Logger } from '@org/protocol';
import type { RateLimitDecision, RateLimitKind } from '@org/rest-api';
import type { Cluster, Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from '../config/schema.js';
import { createRedisClient, createRedisCluster, resolveRedisConnection } from '../scaling/redis-connection.js';

export interface RateLimits {
  /** For `@org/rest-api`'s `rateLimit` option: one point per channel of a trigger, one per read. */
  consume(app: App, kind: RateLimitKind, points: number): Promise<RateLimitDecision>;
  /**
   * Resolves once the shared store is connected, or after a short wait when it
   * is not (limits are then per node until it is): awaited before listening, so
   * the first requests are already counted cluster-wide.
   */
  ready(): Promise<void>;
  close(): Promise<void>;
}

type PerKind<T> = Record<RateLimitKind, T>;

/** How long a start waits for the rate limiter's Redis before going on with per-node limits. */
const startupWaitMs = 2_000;

/**
 * HTTP API rate limits with rate-limiter-flexible, keyed by app: in memory
 * (driver `local`, one node) or in Redis (driver `redis`, shared by the
 * cluster). One limiter per app and kind, built at start from the config (the
 * app's own allowance, else the limiter's), so a request costs one map read
 * and state is bounded by the config, never by traffic. If Redis fails, an
 * in-memory insurance limiter takes over for that node instead of letting
 * every request through or refusing all. Client events
 * (`max_frontend_events_per_second`) are limited per connection by the engine
 * itself: a connection lives on one node, so no store is needed.
 */
export function createRateLimits(config: Config, log: Logger): RateLimits | undefined {
  const settings = config.rate_limiter;
  if (!settings.enabled) return undefined;

  // An outage is logged once when it starts and once when it ends, from the client's own events.
  let degraded = false;
  const markDegraded = () => {
    if (degraded) return;
    degraded = true;
    log.warn({}, 'rate limiter: Redis unreachable, limiting per node in memory until it is back');
  };

  let redis: Redis | Cluster | undefined;
  let connected: Promise<unknown> = Promise.resolve();
  if (settings.driver === 'redis') {
    const connection = resolveRedisConnection(settings.redis, config.redis);
    // A cluster named in the shared `redis` section (or the limiter's own) is one, cluster_mode or not.
    redis = settings.cluster_mode || connection.cluster ? createRedisCluster(connection) : createRedisClient(connection);
    redis.on('error', () => {}); // reported through 'close' below, not once per reconnect attempt
    redis.on('close', markDegraded);
    redis.on('ready', () => {
      if (!degraded) return;
      degraded = false;
      log.info({}, 'rate limiter: Redis is back, limits are shared again');
    });
    connected = redis.connect().catch(() => {});
  }

  const limiter = (kind: RateLimitKind, points: number): RateLimiterAbstract => {
    const options = { points, duration: 1, keyPrefix: `realtime:rate:${kind}` };
    return redis
      ? new RateLimiterRedis({ ...options, storeClient: redis, rejectIfRedisNotReady: true, insuranceLimiter: new RateLimiterMemory(options) })
      : new RateLimiterMemory(options);
  };
  const limiters = (allowance: PerKind<number>): PerKind<RateLimiterAbstract> => ({
    backend_events: limiter('backend_events', allowance.backend_events),
    read: limiter('read', allowance.read),
  });
  const byApp = new Map(
    config.applications.map((app) => [
      app.id,
      limiters({
        backend_events: app.max_backend_events_per_second ?? settings.max_backend_events_per_second,
        read: app.max_read_requests_per_second ?? settings.max_read_requests_per_second,
      }),
    ]),
  );
  // The engine serves only configured apps; any other id would get the limiter's own allowances.
  let others: PerKind<RateLimiterAbstract> | undefined;
  const limiterFor = (appId: string, kind: RateLimitKind): RateLimiterAbstract =>
    (byApp.get(appId) ?? (others ??= limiters({ backend_events: settings.max_backend_events_per_second, read: settings.max_read_requests_per_second })))[kind];

  return {
    async consume(app, kind, points) {
      try {
        await limiterFor(app.id, kind).consume(app.id, points);
        return { allowed: true };
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) {
          return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
        }
        // Only reached if the insurance limiter itself failed: let the request through rather than fail it.
        log.error({ err: rejection }, 'rate limiter failed; request allowed');
        return { allowed: true };
      }
    },
    async ready() {
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise((resolve) => (timer = setTimeout(resolve, startupWaitMs)));
      await Promise.race([connected, waited]);
      clearTimeout(timer);
      if (redis && redis.status !== 'ready') markDegraded();
    },
    async close() {
      redis?.off('close', markDegraded); // closing on purpose is no outage
      redis?.disconnect();
    },
  };
}
