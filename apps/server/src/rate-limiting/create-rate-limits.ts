import type { App, Logger } from '@org/protocol';
import type { RateLimitDecision, RateLimitKind } from '@org/rest-api';
import type { Cluster, Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../config/schema.js';
import { createRedisClient, createRedisCluster, resolveRedisConnection } from '../scaling/redis-connection.js';
import { MAX_POINTS_PER_WINDOW, WindowCounters } from './window-counters.js';

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

const KINDS: readonly RateLimitKind[] = ['backend_events', 'read'];

/** How long a start waits for the rate limiter's Redis before going on with per-node limits. */
const startupWaitMs = 2_000;

/** A Redis that answers no consume within this counts as unreachable: the request is counted in memory instead of waiting. */
const redisAnswerMs = 1_000;

/**
 * One counter per configured app and kind, and one pair for any other app id
 * (the engine serves only configured apps): the buffer `rateLimitCounters`
 * makes for the worker threads and the slots `createRateLimits` reads agree on this.
 */
function counterSlots(config: Config): number {
  return (config.applications.length + 1) * KINDS.length;
}

/**
 * The memory every worker thread of one process counts local limits in
 * (`driver: local`, and `driver: redis` while its Redis is unreachable), or
 * undefined when rate limits are off. Made once per pool of workers and handed
 * to each in `workerData`.
 */
export function rateLimitCounters(config: Config): SharedArrayBuffer | undefined {
  return config.rate_limiter.enabled ? new SharedArrayBuffer(WindowCounters.bytesFor(counterSlots(config))) : undefined;
}

export interface RateLimitsOptions {
  /** From `rateLimitCounters(config)` of the same config, shared by every worker thread; else counters of this thread's own. */
  counters?: SharedArrayBuffer | undefined;
}

/**
 * HTTP API rate limits, keyed by app, in fixed one-second windows: counted in
 * memory shared by every worker thread of the process (driver `local`), or in
 * Redis with rate-limiter-flexible (driver `redis`, shared by the cluster).
 * The allowances are resolved once at start from the config (the app's own,
 * else the limiter's), so a request costs one map read and state is bounded by
 * the config, never by traffic. If Redis fails, the in-memory counters take
 * over for this process instead of letting every request through or refusing
 * all. Client events (`max_frontend_events_per_second`) are limited per
 * connection by the engine itself: a connection lives on one thread, so no
 * store is needed.
 */
export function createRateLimits(config: Config, log: Logger, options: RateLimitsOptions = {}): RateLimits | undefined {
  const settings = config.rate_limiter;
  if (!settings.enabled) return undefined;

  // An outage is logged once when it starts and once when it ends. It starts when the connection
  // closes, or when a consume fails or goes unanswered (a stalled or read-only Redis keeps its
  // connection); while it lasts, requests are counted in memory at once and one probe at a time
  // asks Redis, so a stalled Redis holds no request and piles up no commands.
  let degraded = false;
  const markDegraded = (reason: string, err?: unknown) => {
    if (degraded) return;
    degraded = true;
    log.warn({ reason, ...(err ? { err } : {}) }, 'rate limiter: Redis unreachable, limiting in this process\'s memory until it is back');
  };
  const markBack = () => {
    if (!degraded) return;
    degraded = false;
    log.info({}, 'rate limiter: Redis is back, limits are shared again');
  };

  const onClose = () => markDegraded('connection closed');
  let redis: Redis | Cluster | undefined;
  let connected: Promise<unknown> = Promise.resolve();
  if (settings.driver === 'redis') {
    const connection = resolveRedisConnection(settings.redis, config.redis);
    // A cluster named in the shared `redis` section (or the limiter's own) is one, cluster_mode or not.
    redis = settings.cluster_mode || connection.cluster ? createRedisCluster(connection) : createRedisClient(connection);
    redis.on('error', () => {}); // reported through 'close' below, not once per reconnect attempt
    redis.on('close', onClose);
    redis.on('ready', markBack);
    connected = redis.connect().catch(() => {});
  }

  const counters = new WindowCounters(counterSlots(config), options.counters);
  interface Limit {
    readonly slot: number;
    readonly points: number;
    /** The most one request may cost and still pass some window (the counters cap a limit at 24 bits). */
    readonly capacity: number;
    readonly shared: RateLimiterRedis | undefined;
  }
  const limits = (index: number, allowance: Record<RateLimitKind, number>): Record<RateLimitKind, Limit> => {
    const limit = (kind: RateLimitKind): Limit => ({
      slot: index * KINDS.length + KINDS.indexOf(kind),
      points: allowance[kind],
      capacity: Math.min(allowance[kind], MAX_POINTS_PER_WINDOW),
      // No insurance limiter: a Redis failure falls back to `counters` below, which every worker shares.
      shared: redis ? new RateLimiterRedis({ points: allowance[kind], duration: 1, keyPrefix: `realtime:rate:${kind}`, storeClient: redis, rejectIfRedisNotReady: true }) : undefined,
    });
    return { backend_events: limit('backend_events'), read: limit('read') };
  };
  const byApp = new Map(
    config.applications.map((app, index) => [
      app.id,
      limits(index, {
        backend_events: app.max_backend_events_per_second ?? settings.max_backend_events_per_second,
        read: app.max_read_requests_per_second ?? settings.max_read_requests_per_second,
      }),
    ]),
  );
  const others = limits(config.applications.length, { backend_events: settings.max_backend_events_per_second, read: settings.max_read_requests_per_second });
  const refused: RateLimitDecision = { allowed: false, retryAfterSeconds: 1 };
  const allowed: RateLimitDecision = { allowed: true };
  const local = (limit: Limit, points: number): RateLimitDecision => (counters.tryConsume(limit.slot, points, limit.points) ? allowed : refused);
  // While degraded: one consume at a time sent to Redis in the background; any answer from it (allowed or refused) ends the outage.
  let probing = false;
  const probe = (shared: RateLimiterRedis, key: string, points: number) => {
    if (probing) return;
    probing = true;
    shared
      .consume(key, points)
      .then(markBack, (rejection: unknown) => {
        if (rejection instanceof RateLimiterRes) markBack();
      })
      .finally(() => (probing = false));
  };

  return {
    async consume(app, kind, points) {
      const limit = (byApp.get(app.id) ?? others)[kind];
      // More than a whole window's allowance can never pass: say so rather than invite a retry.
      if (points > limit.capacity) return { allowed: false, limit: limit.capacity };
      const shared = limit.shared;
      if (!shared) return local(limit, points);
      if (degraded) {
        probe(shared, app.id, points);
        return local(limit, points);
      }
      let timer: NodeJS.Timeout | undefined;
      const unanswered = new Promise<'unanswered'>((resolve) => (timer = setTimeout(resolve, redisAnswerMs, 'unanswered')));
      try {
        if ((await Promise.race([shared.consume(app.id, points), unanswered])) !== 'unanswered') return allowed;
        markDegraded(`no answer within ${redisAnswerMs} ms`);
        return local(limit, points);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) {
          return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
        }
        // Not connected, or an error answer (READONLY, OOM…): counted in this process's memory until it is back.
        markDegraded('error', rejection);
        return local(limit, points);
      } finally {
        clearTimeout(timer);
      }
    },
    async ready() {
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise((resolve) => (timer = setTimeout(resolve, startupWaitMs)));
      await Promise.race([connected, waited]);
      clearTimeout(timer);
      if (redis && redis.status !== 'ready') markDegraded('not connected at start');
    },
    async close() {
      redis?.off('close', onClose); // closing on purpose is no outage
      redis?.disconnect();
    },
  };
}
