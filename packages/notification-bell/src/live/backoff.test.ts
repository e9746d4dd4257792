import { afterEach, describe, expect, it, vi } from 'vitest';
import { backoffDelay } from './backoff.js';

describe('backoffDelay (SSE hub reconnects)', () => {
  afterEach(() => vi.restoreAllMocks());

  const withRandom = (r: number, run: () => number[]): number[] => {
    vi.spyOn(Math, 'random').mockReturnValue(r);
    return run();
  };

  it('doubles from 1 s (attempt 0) up to 30 s, then jitters ±50 % around that step, in whole milliseconds', () => {
    const attempts = [0, 1, 2, 3, 4, 5, 6, 20];
    expect(withRandom(0.5, () => attempts.map((n) => backoffDelay(n)))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    expect(withRandom(0, () => attempts.map((n) => backoffDelay(n)))).toEqual([500, 1_000, 2_000, 4_000, 8_000, 15_000, 15_000, 15_000]);
    // Math.random() stays below 1: the longest wait is just under one and a half steps (45 s at the cap).
    expect(withRandom(0.999_999, () => attempts.map((n) => backoffDelay(n)))).toEqual([1_500, 3_000, 6_000, 12_000, 24_000, 45_000, 45_000, 45_000]);
    expect(withRandom(0.123_4, () => [backoffDelay(2)])).toEqual([Math.round(4_000 * 0.623_4)]);
  });

  it('takes its base and cap from the caller, and counts an attempt below 0 as the first', () => {
    expect(withRandom(0.5, () => [backoffDelay(3, 100, 500), backoffDelay(1, 100, 500), backoffDelay(-2, 100, 500), backoffDelay(-2)])).toEqual([500, 200, 100, 1_000]);
  });

  it('spreads reconnects: delays for one attempt are not all equal', () => {
    const delays = new Set(Array.from({ length: 50 }, () => backoffDelay(3)));
    expect(delays.size).toBeGreaterThan(1);
    for (const delay of delays) {
      expect(delay).toBeGreaterThanOrEqual(4_000);
      expect(delay).toBeLessThanOrEqual(12_000);
    }
  });
});
