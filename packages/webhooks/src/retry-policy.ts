import { exponentialBackoff } from '@org/backoff';

/** How failed deliveries are retried: exponential backoff with jitter, inside a time window. */
export interface RetryPolicy {
  /** Delay before the first retry, in ms. */
  initialDelayMs: number;
  /** Upper bound of one delay, in ms. */
  maxDelayMs: number;
  factor: number;
  /** No attempt starts later than this after the first one (Pusher: 5 minutes). */
  retryWindowMs: number;
}

export const defaultRetryPolicy: Readonly<RetryPolicy> = { initialDelayMs: 1_000, maxDelayMs: 60_000, factor: 2, retryWindowMs: 5 * 60_000 };

/**
 * The delay after the `failures`-th failed attempt: the exponential step,
 * capped, then jittered to between half and all of it so receivers that
 * come back are not hit by every node at the same instant (@org/backoff).
 */
export function retryDelay(policy: RetryPolicy, failures: number, random: () => number = Math.random): number {
  return exponentialBackoff({ initial: policy.initialDelayMs, max: policy.maxDelayMs, factor: policy.factor }, failures, random);
}

/** When to try again, or undefined when that would leave the retry window. */
export function nextAttemptAt(policy: RetryPolicy, firstAttemptAt: number, failures: number, now: number, random?: () => number): number | undefined {
  const at = now + retryDelay(policy, failures, random);
  return at - firstAttemptAt <= policy.retryWindowMs ? at : undefined;
}
