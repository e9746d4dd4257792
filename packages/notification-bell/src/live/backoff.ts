import { exponentialBackoff } from '@org/backoff';

// ±50 % around each step, so many tabs do not reconnect in lockstep.
const SPREAD = { from: 0.5, to: 1.5 };

/** Exponential backoff from `baseMs` (attempt 0) up to `maxMs`, jittered ±50 %, in whole milliseconds. */
export function backoffDelay(attempt: number, baseMs = 1000, maxMs = 30_000): number {
  return Math.round(exponentialBackoff({ initial: baseMs, max: maxMs, jitter: SPREAD }, attempt + 1));
}
