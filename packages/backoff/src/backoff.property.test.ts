import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BackoffError, exponentialBackoff, type Backoff } from './backoff.js';

/** Any number at all, the hostile ones included. */
const anyNumber = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(0, -0, 1, -1, Infinity, -Infinity, Number.NaN, Number.MAX_VALUE, Number.MIN_VALUE));
const validBackoff = fc.record({
  initial: fc.double({ min: 0, max: 1e12, noNaN: true }),
  max: fc.oneof(fc.double({ min: 0, max: 1e12, noNaN: true }), fc.constant(Infinity)),
  factor: fc.double({ min: 1, max: 100, noNaN: true }),
  jitter: fc.boolean(),
});

describe('exponentialBackoff, for any input', () => {
  it('either refuses with a BackoffError or answers a number ≥ 0 within the cap, never NaN', () => {
    fc.assert(
      fc.property(
        fc.record({ initial: anyNumber, max: anyNumber, factor: fc.option(anyNumber, { nil: undefined }), jitter: fc.option(fc.boolean(), { nil: undefined }) }),
        anyNumber,
        anyNumber,
        (backoff, attempt, r) => {
          let delay: number;
          try {
            delay = exponentialBackoff(backoff, attempt, () => r);
          } catch (error) {
            expect(error).toBeInstanceOf(BackoffError);
            return;
          }
          expect(Number.isNaN(delay)).toBe(false);
          expect(delay).toBeGreaterThanOrEqual(0);
          expect(delay).toBeLessThanOrEqual(backoff.max);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('with valid options: never decreases from one attempt to the next, and jitter keeps within [step/2, step]', () => {
    fc.assert(
      fc.property(validBackoff, fc.integer({ min: -3, max: 2_000 }), fc.double({ min: 0, max: 1, noNaN: true }), (backoff: Backoff, attempt, r) => {
        const plain = { ...backoff, jitter: false };
        const step = exponentialBackoff(plain, attempt);
        expect(exponentialBackoff(plain, attempt + 1)).toBeGreaterThanOrEqual(step);
        expect(step).toBeLessThanOrEqual(backoff.max);
        const jittered = exponentialBackoff({ ...backoff, jitter: true }, attempt, () => r);
        expect(jittered).toBeGreaterThanOrEqual(step / 2);
        expect(jittered).toBeLessThanOrEqual(step);
      }),
      { numRuns: 2_000 },
    );
  });

  it('with a jitter range: the delay is the step times a factor within the range, never NaN', () => {
    fc.assert(
      fc.property(
        validBackoff,
        fc.integer({ min: -3, max: 2_000 }),
        fc.double({ min: 0, max: 10, noNaN: true }),
        fc.double({ min: 0, max: 10, noNaN: true }),
        fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), anyNumber),
        (backoff: Backoff, attempt, a, b, r) => {
          const [from, to] = a <= b ? [a, b] : [b, a];
          const step = exponentialBackoff({ ...backoff, jitter: false }, attempt);
          const delay = exponentialBackoff({ ...backoff, jitter: { from, to } }, attempt, () => r);
          expect(Number.isNaN(delay)).toBe(false);
          if (step === Infinity) {
            expect(delay).toBe(Infinity);
          } else {
            expect(delay).toBeGreaterThanOrEqual(step * from);
            expect(delay).toBeLessThanOrEqual(step * to);
          }
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
