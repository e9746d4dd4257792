import type { RateLimiterRedis } from 'rate-limiter-flexible';
import { allowed, refusedForASecond, type RateLimitDecision } from './decision.js';
import { resolveOptions, type RateLimitsOptions } from './options.js';
import { createRedisStore } from './redis-store.js';
import { MAX_POINTS_PER_WINDOW, WindowCounters } from './window-counters.js';

export interface RateLimits<K extends string> {
  /**
   * Spends `points` (a whole number ≥ 1) of `key`'s allowance of `kind` in the current one-second
   * window, if they fit. A local refusal spends nothing (in Redis, rate-limiter-flexible counts it).
   */
  consume(key: string, kind: K, points: number): Promise<RateLimitDecision>;
  /** `consume` keyed by the app's id: pass it as `@org/rest-api`'s `rateLimit` option. */
  readonly rateLimit: (app: { readonly id: string }, kind: K, points: number) => Promise<RateLimitDecision>;
  /**
   * Resolves once the Redis client is connected, or after `startupWaitMs` when it is not (limits are
   * then local until it is): await it before serving, so the first requests are already shared.
   * Resolves at once without Redis.
   */
  ready(): Promise<void>;
  /** Stops listening to the Redis client (which stays open: it is the caller's). */
  close(): Promise<void>;
}

interface Limit {
  readonly slot: number;
  readonly points: number;
  /** The most one request may cost and still pass some window (the counters cap a limit at 24 bits). */
  readonly capacity: number;
  readonly shared: RateLimiterRedis | undefined;
}

/**
 * Rate limits by key and kind in fixed one-second windows: counted in memory that worker threads
 * may share (`counters`), or in Redis with rate-limiter-flexible (`redis`, shared by every process
 * on it; the local counters take over while it is unreachable). The allowances are resolved once,
 * here, so a request costs one map read and the state is bounded by the allowances, never by
 * traffic: locally, each listed key has counters of its own and every other key shares one set.
 */
export function createRateLimits<K extends string>(options: RateLimitsOptions<K>): RateLimits<K> {
  const { layout, counters: buffer, redis, logger, onRefused } = resolveOptions(options);
  const store = redis ? createRedisStore(redis, logger) : undefined;
  const counters = new WindowCounters(layout.slots, buffer);

  const limits = (index: number, allowance: Readonly<Record<K, number>>): Readonly<Record<K, Limit>> => {
    const byKind = {} as Record<K, Limit>;
    layout.kinds.forEach((kind, offset) => {
      const points = allowance[kind];
      byKind[kind] = {
        slot: index * layout.kinds.length + offset,
        points,
        capacity: Math.min(points, MAX_POINTS_PER_WINDOW),
        shared: store?.limiter(kind, points),
      };
    });
    return byKind;
  };
  const byKey = new Map([...layout.listed].map(([key, allowance], index) => [key, limits(index, allowance)]));
  const others = limits(layout.listed.size, layout.default);
  const local = (limit: Limit, points: number): RateLimitDecision => (counters.tryConsume(limit.slot, points, limit.points) ? allowed : refusedForASecond);

  // Synchronous when local: no promise of its own on the path every request takes.
  const decide = (key: string, limit: Limit, points: number): RateLimitDecision | Promise<RateLimitDecision> => {
    // More than a whole window's allowance can never pass: say so rather than invite a retry.
    if (points > limit.capacity) return { allowed: false, limit: limit.capacity };
    if (!store || !limit.shared) return local(limit, points);
    return store.consume(limit.shared, key, points).then((decision) => decision ?? local(limit, points));
  };
  const consume = async (key: string, kind: K, points: number): Promise<RateLimitDecision> => {
    const decision = await decide(key, (byKey.get(key) ?? others)[kind], points);
    if (!decision.allowed) onRefused?.(key, kind, decision);
    return decision;
  };

  return {
    consume,
    rateLimit: (app, kind, points) => consume(app.id, kind, points),
    ready: async () => store?.ready(),
    close: async () => store?.close(),
  };
}
