/** Exponential backoff with ±50 % jitter so many tabs do not reconnect in lockstep. */
export function backoffDelay(attempt: number, baseMs = 1000, maxMs = 30_000): number {
  const exponential = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt));
  return Math.round(exponential * (0.5 + Math.random()));
}
