import { describe, expect, it, vi } from 'vitest';
import { createRateLimitedReporter, reportSafely, type TransportCallback } from './transport-errors.js';

describe('the default onError', () => {
  it('reports the first error of each kind at once, then one per kind per interval with the count left out', () => {
    let now = 0;
    const written: [string, TransportCallback, number][] = [];
    const report = createRateLimitedReporter({ intervalMs: 1_000, now: () => now, write: (error, where, suppressed) => written.push([(error as Error).message, where, suppressed]) });
    report(new Error('a1'), 'message');
    report(new Error('a2'), 'message');
    report(new Error('b1'), 'http');
    report(new Error('a3'), 'message');
    now = 999;
    report(new Error('a4'), 'message');
    now = 1_000;
    report(new Error('a5'), 'message');
    report(new Error('a6'), 'message');
    expect(written).toEqual([
      ['a1', 'message', 0],
      ['b1', 'http', 0],
      ['a5', 'message', 3],
    ]);
  });

  it('writes to console.error by default', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      createRateLimitedReporter()(new Error('engine bug'), 'open');
      expect(spy).toHaveBeenCalledTimes(1);
      expect(spy.mock.calls[0]?.[0]).toContain('open callback');
    } finally {
      spy.mockRestore();
    }
  });

  it('swallows what a broken reporter throws', () => {
    expect(() =>
      reportSafely(() => {
        throw new Error('reporter bug');
      }, new Error('x'), 'close'),
    ).not.toThrow();
  });
});
