import type { Cluster, Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { allowed, type RateLimitDecision } from './decision.js';
import type { RateLimitsLogger, RedisStoreOptions } from './options.js';

/**
 * Limits counted in Redis with rate-limiter-flexible, shared by every process on it, and what happens
 * when Redis is unreachable: the caller counts locally instead of letting every request through or
 * refusing all.
 *
 * An outage is logged once when it starts and once when it ends. It starts when the connection
 * closes, or when a consume fails or goes unanswered (a stalled or read-only Redis keeps its
 * connection); while it lasts, requests are counted locally at once and one probe at a time asks
 * Redis, so a stalled Redis holds no request and piles up no commands.
 */
export interface RedisStore {
  /** A limiter of `points` per one-second window for `kind`. */
  limiter(kind: string, points: number): RateLimiterRedis;
  /** Redis's decision, or `undefined` when Redis cannot give one now: count the request locally. */
  consume(limiter: RateLimiterRedis, key: string, points: number): Promise<RateLimitDecision | undefined>;
  /** Resolves once the client is connected, or after `startupWaitMs` (an outage from the start). */
  ready(): Promise<void>;
  /** Stops listening to the client; the client stays open (the caller's). */
  close(): void;
}

const unanswered = Symbol('unanswered');

export function createRedisStore(options: Required<RedisStoreOptions>, log: RateLimitsLogger): RedisStore {
  const { client, keyPrefix, answerTimeoutMs, startupWaitMs } = options;

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
  client.on('close', onClose);
  client.on('ready', markBack);
  const connected = firstConnection(client);

  // While degraded: one consume at a time sent to Redis in the background; any answer from it (allowed or refused) ends the outage.
  let probing = false;
  const probe = (limiter: RateLimiterRedis, key: string, points: number) => {
    if (probing) return;
    probing = true;
    limiter
      .consume(key, points)
      .then(markBack, (rejection: unknown) => {
        if (rejection instanceof RateLimiterRes) markBack();
      })
      .finally(() => (probing = false));
  };

  return {
    // No insurance limiter: a Redis failure falls back to the caller's local counters, which every worker may share.
    limiter: (kind, points) => new RateLimiterRedis({ points, duration: 1, keyPrefix: `${keyPrefix}:${kind}`, storeClient: client, rejectIfRedisNotReady: true }),
    async consume(limiter, key, points) {
      if (degraded) {
        probe(limiter, key, points);
        return undefined;
      }
      let timer: NodeJS.Timeout | undefined;
      const noAnswer = new Promise<typeof unanswered>((resolve) => (timer = setTimeout(resolve, answerTimeoutMs, unanswered)));
      try {
        if ((await Promise.race([limiter.consume(key, points), noAnswer])) !== unanswered) return allowed;
        markDegraded(`no answer within ${answerTimeoutMs} ms`);
        return undefined;
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) {
          return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
        }
        // Not connected, or an error answer (READONLY, OOM…): counted locally until it is back.
        markDegraded('error', rejection);
        return undefined;
      } finally {
        clearTimeout(timer);
      }
    },
    async ready() {
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise((resolve) => (timer = setTimeout(resolve, startupWaitMs)));
      await Promise.race([connected, waited]);
      clearTimeout(timer);
      if (client.status !== 'ready') markDegraded('not connected at start');
    },
    close() {
      // Closing on purpose is no outage.
      client.off('close', onClose);
      client.off('ready', markBack);
    },
  };
}

/**
 * Settles when the client's first connection attempt does: ready, or closed. A client built with
 * `lazyConnect` and not connected yet is connected here, as the limits need it.
 */
function firstConnection(client: Redis | Cluster): Promise<void> {
  const settle = () => {};
  if (client.status === 'ready' || client.status === 'end') return Promise.resolve();
  if (client.status === 'wait') return client.connect().then(settle, settle);
  return new Promise((resolve) => {
    const done = () => {
      client.off('ready', done);
      client.off('close', done);
      resolve();
    };
    client.on('ready', done);
    client.on('close', done);
  });
}
