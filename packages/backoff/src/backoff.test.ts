import { describe, expect, it } from 'vitest';
import { BackoffError, exponentialBackoff } from './backoff.js';

const steps = { initial: 1_000, max: 60_000, factor: 2 };

describe('exponentialBackoff', () => {
  it('grows by the factor from the initial delay and stops at the cap', () => {
    const plain = { ...steps, jitter: false };
    expect([1, 2, 3, 4, 6, 7, 40].map((n) => exponentialBackoff(plain, n))).toEqual([1_000, 2_000, 4_000, 8_000, 32_000, 60_000, 60_000]);
  });

  it('doubles by default and jitters by default, between half and the whole step', () => {
    const defaults = { initial: 1_000, max: 60_000 };
    expect([1, 2, 3].map((n) => exponentialBackoff(defaults, n, () => 0))).toEqual([500, 1_000, 2_000]);
    expect([1, 2, 3].map((n) => exponentialBackoff(defaults, n, () => 1))).toEqual([1_000, 2_000, 4_000]);
    expect(exponentialBackoff(defaults, 2, () => 0.5)).toBe(1_500);
  });

  it('is unit-free: seconds with fractions work the same', () => {
    expect([1, 2, 3, 4, 20].map((n) => exponentialBackoff({ initial: 0.5, max: 30, jitter: false }, n))).toEqual([0.5, 1, 2, 4, 30]);
  });

  it('counts an attempt below 1 as the first', () => {
    expect(exponentialBackoff({ ...steps, jitter: false }, 0)).toBe(1_000);
    expect(exponentialBackoff({ ...steps, jitter: false }, -5)).toBe(1_000);
  });

  it('stays at the cap (not NaN) when the growth overflows, and at zero from a zero start', () => {
    expect(exponentialBackoff({ initial: 1, max: Infinity, factor: 10, jitter: false }, 10_000)).toBe(Infinity);
    expect(exponentialBackoff({ initial: 1, max: 5, factor: 10, jitter: false }, 10_000)).toBe(5);
    expect(exponentialBackoff({ initial: 0, max: 5, factor: 10, jitter: false }, 10_000)).toBe(0);
  });

  it('holds a random source outside [0, 1] to it', () => {
    expect(exponentialBackoff(steps, 1, () => 7)).toBe(1_000);
    expect(exponentialBackoff(steps, 1, () => -3)).toBe(500);
    expect(exponentialBackoff(steps, 1, () => Number.NaN)).toBe(500);
  });

  it('with a jitter range, multiplies the step by a random factor between from and to (±50 % here)', () => {
    const spread = { initial: 1_000, max: 30_000, jitter: { from: 0.5, to: 1.5 } };
    expect([1, 2, 3].map((n) => exponentialBackoff(spread, n, () => 0))).toEqual([500, 1_000, 2_000]);
    expect([1, 2, 3].map((n) => exponentialBackoff(spread, n, () => 0.5))).toEqual([1_000, 2_000, 4_000]);
    expect(exponentialBackoff(spread, 1, () => 0.25)).toBe(750);
    // The range applies after the cap, so it may lengthen a capped step.
    expect(exponentialBackoff(spread, 10, () => 1)).toBe(45_000);
    expect(exponentialBackoff(spread, 10, () => 7)).toBe(45_000);
    expect(exponentialBackoff(spread, 10, () => Number.NaN)).toBe(15_000);
    // A range of one factor is no jitter at all.
    expect(exponentialBackoff({ initial: 1_000, max: 30_000, jitter: { from: 1, to: 1 } }, 3, Math.random)).toBe(4_000);
  });

  it('refuses options and attempts that cannot give a delay, naming the key', () => {
    const refusal = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        expect(error).toBeInstanceOf(BackoffError);
        expect((error as BackoffError).code).toBe('INVALID_BACKOFF');
        return (error as Error).message;
      }
      throw new Error('expected a BackoffError');
    };
    expect(refusal(() => exponentialBackoff({ initial: -1, max: 5 }, 1))).toMatch(/^@org\/backoff: initial must be/);
    expect(refusal(() => exponentialBackoff({ initial: Infinity, max: 5 }, 1))).toMatch(/initial must be/);
    expect(refusal(() => exponentialBackoff({ initial: 1, max: Number.NaN }, 1))).toMatch(/max must be/);
    expect(refusal(() => exponentialBackoff({ initial: 1, max: 5, factor: 0.5 }, 1))).toMatch(/factor must be/);
    expect(refusal(() => exponentialBackoff({ initial: 1, max: 5 }, Number.NaN))).toMatch(/attempt must be/);
    expect(refusal(() => exponentialBackoff({ initial: 1, max: 5, jitter: { from: -0.5, to: 1 } }, 1))).toBe('@org/backoff: jitter must be a range of finite factors, 0 ≤ from ≤ to, got { from: -0.5, to: 1 }');
    expect(refusal(() => exponentialBackoff({ initial: 1, max: 5, jitter: { from: 0.5, to: 0.25 } }, 1))).toMatch(/jitter must be .*, got \{ from: 0\.5, to: 0\.25 \}$/);
    expect(refusal(() => exponentialBackoff({ initial: 1, max: 5, jitter: { from: 0.5, to: Infinity } }, 1))).toMatch(/jitter must be/);
    expect(refusal(() => exponentialBackoff({ initial: 1, max: 5, jitter: { from: Number.NaN, to: 1 } }, 1))).toMatch(/jitter must be/);
  });
});
