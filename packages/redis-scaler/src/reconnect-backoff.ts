/**
 * Reconnect delays for every Redis client of a deployment (the scaler's own connections, the
 * daemon's rate limiter): 100 ms doubling up to 2 s, retried forever, so an outage heals without a
 * restart. `attempt` counts from 1, as ioredis' `retryStrategy` and `clusterRetryStrategy` pass it.
 */
export function reconnectBackoff(attempt: number): number {
  return Math.min(50 * 2 ** Math.min(attempt, 6), 2_000);
}
