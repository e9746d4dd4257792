import { describe, expect, it } from 'vitest';
import { reconnectBackoff } from './reconnect-backoff.js';

describe('reconnectBackoff', () => {
  it('waits 100 ms before the first retry and doubles up to 2 s, with no jitter', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(reconnectBackoff)).toEqual([100, 200, 400, 800, 1_600, 2_000, 2_000, 2_000]);
    // Every client of a deployment retries on the same schedule: the answer does not vary.
    expect(reconnectBackoff(3)).toBe(reconnectBackoff(3));
  });

  it('stays at 2 s however long the outage lasts (ioredis retries forever)', () => {
    expect([50, 1_000, 1_000_000].map(reconnectBackoff)).toEqual([2_000, 2_000, 2_000]);
  });
});
