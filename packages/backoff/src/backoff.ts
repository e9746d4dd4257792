/**
 * Exponential backoff: how long to wait before retry number `attempt`. Units
 * are the caller's (milliseconds for one, seconds for another): the function
 * only multiplies, caps and jitters.
 */
export interface Backoff {
  /** The delay before the first retry (attempt 1). At least 0. */
  readonly initial: number;
  /**
   * No step is longer than this. At least 0; may be Infinity. Equal jitter only takes time off a
   * step; a jitter range reaching above 1 can lengthen the capped step (up to `max × to`).
   */
  readonly max: number;
  /** Growth per attempt, at least 1. Default 2. */
  readonly factor?: number | undefined;
  /**
   * Default true: "equal jitter", a delay between half and all of the step, so
   * clients that failed together do not come back at the same instant, and
   * none comes back sooner than half the step. False: the step itself. A
   * range: the step times a random factor between `from` and `to`.
   */
  readonly jitter?: boolean | JitterRange | undefined;
}

/**
 * Jitter as a range of factors applied to the step, e.g. `{ from: 0.5, to: 1.5 }` for ±50 %
 * around it. `from` and `to` are finite, 0 ≤ from ≤ to.
 */
export interface JitterRange {
  readonly from: number;
  readonly to: number;
}

export type BackoffErrorCode = 'INVALID_BACKOFF';

/** An option or attempt that cannot give a delay; the message names it. */
export class BackoffError extends RangeError {
  override readonly name = 'BackoffError';
  readonly code: BackoffErrorCode = 'INVALID_BACKOFF';
}

function check(ok: boolean, key: string, expected: string, value: unknown): void {
  if (!ok) throw new BackoffError(`@org/backoff: ${key} must be ${expected}, got ${String(value)}`);
}

/**
 * The delay before retry `attempt` (1-based; below 1 counts as 1):
 * `initial * factor^(attempt - 1)`, capped at `max`, then jittered to between
 * half and all of it unless `jitter` is false or a range. `random` returns [0, 1)
 * (values outside are clamped).
 * Throws `BackoffError` for a negative or non-numeric option or attempt.
 */
export function exponentialBackoff(backoff: Backoff, attempt: number, random: () => number = Math.random): number {
  const { initial, max, factor = 2, jitter = true } = backoff;
  // Checked on each call: a retry is rare, and a NaN delay would make a timer fire at once.
  check(Number.isFinite(initial) && initial >= 0, 'initial', 'a finite number ≥ 0', initial);
  check(max >= 0, 'max', 'a number ≥ 0', max);
  check(Number.isFinite(factor) && factor >= 1, 'factor', 'a finite number ≥ 1', factor);
  check(!Number.isNaN(attempt) && typeof attempt === 'number', 'attempt', 'a number', attempt);
  if (typeof jitter === 'object') {
    const { from, to } = jitter;
    check(from >= 0 && to >= from && Number.isFinite(to), 'jitter', 'a range of finite factors, 0 ≤ from ≤ to', `{ from: ${from}, to: ${to} }`);
  }
  // 0 * Infinity and 1 ** Infinity are NaN: a zero start or a factor of 1 stays where it started.
  const grown = initial === 0 || factor === 1 ? initial : initial * factor ** Math.max(0, attempt - 1);
  const step = Math.min(max, grown);
  // Infinity has no half to take off (Infinity - Infinity is NaN).
  if (!jitter || step === Infinity) return step;
  // A random source outside [0, 1] (or NaN) is held to it: the delay stays between half and all of the step.
  const r = Math.min(1, Math.max(0, random() || 0));
  // Held to `step × to`: `from + (to - from)` can round one unit above `to`.
  if (jitter !== true) return Math.min(step * jitter.to, step * (jitter.from + r * (jitter.to - jitter.from)));
  // The cap only matters for subnormal steps, where halving rounds.
  return Math.min(step, step / 2 + r * (step / 2));
}
