import { describe, expect, it } from 'vitest';
import { defaultRetryPolicy, nextAttemptAt, retryDelay } from './retry-policy.js';

describe('retry policy', () => {
  it('doubles from one second up to a minute, jittered between half and the full step', () => {
    const low = [1, 2, 3, 4, 8].map((n) => retryDelay(defaultRetryPolicy, n, () => 0));
    const high = [1, 2, 3, 4, 8].map((n) => retryDelay(defaultRetryPolicy, n, () => 1));
    expect(high).toEqual([1_000, 2_000, 4_000, 8_000, 60_000]);
    expect(low).toEqual([500, 1_000, 2_000, 4_000, 30_000]);
  });

  it('keeps retrying for five minutes after the first attempt, then stops', () => {
    const first = 1_000_000;
    expect(nextAttemptAt(defaultRetryPolicy, first, 9, first + 200_000, () => 1)).toBe(first + 260_000);
    expect(nextAttemptAt(defaultRetryPolicy, first, 10, first + 260_000, () => 1)).toBeUndefined();
  });
});
