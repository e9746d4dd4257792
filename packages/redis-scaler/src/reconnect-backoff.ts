import { exponentialBackoff } from '@org/backoff';
import type { Backoff } from '@org/backoff';

// Without jitter: every client follows the same schedule (100, 200, 400, 800, 1,600 ms, then 2 s).
const RECONNECT: Backoff = { initial: 100, max: 2_000, jitter: false };

/**
 * Reconnect delays for every Redis client of a deployment (the scaler's own connections, the
 * daemon's rate limiter): 100 ms doubling up to 2 s, retried forever, so an outage heals without a
 * restart. `attempt` counts from 1, as ioredis' `retryStrategy` and `clusterRetryStrategy` pass it.
 */
export function reconnectBackoff(attempt: number): number {
  return exponentialBackoff(RECONNECT, attempt);
}
