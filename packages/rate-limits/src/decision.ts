/**
 * A refusal: `retryAfterSeconds` (whole seconds, at least 1) when a later window may let the request
 * through; `limit` when the request alone costs more points than one window allows, so it never passes
 * and a retry would fail forever.
 */
export type RateLimitRefusal = { allowed: false; retryAfterSeconds: number } | { allowed: false; limit: number };

/** A limiter's answer; the same shape as `@org/rest-api`'s `RateLimitDecision`. */
export type RateLimitDecision = { allowed: true } | RateLimitRefusal;

/** Shared answers: a decision is never changed by its receiver, so one object serves every request. */
export const allowed: RateLimitDecision = { allowed: true };

/** A local refusal: the local windows are one second long, so the next one opens within a second. */
export const refusedForASecond: RateLimitRefusal = { allowed: false, retryAfterSeconds: 1 };
