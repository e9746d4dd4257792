import { describe, expect, it } from 'vitest';
import { SequenceTracker } from './sequence-tracker.js';

describe('the sequence tracker of bus senders', () => {
  it('accepts each sender\'s messages once, drops resends and counts gaps', () => {
    const tracker = new SequenceTracker();
    expect(tracker.accept('a', 5)).toBe(true); // the first message seen from a sender sets its baseline
    expect(tracker.accept('a', 6)).toBe(true);
    expect(tracker.accept('a', 6)).toBe(false);
    expect(tracker.accept('a', 3)).toBe(false);
    expect(tracker.accept('b', 1)).toBe(true);
    expect(tracker.accept('a', 10)).toBe(true);
    expect(tracker.duplicates).toBe(2);
    expect(tracker.missed).toBe(3);
  });

  it('forgets the longest-known senders beyond a bound instead of growing', () => {
    const tracker = new SequenceTracker();
    for (let i = 0; i < 5_000; i++) tracker.accept(`node-${i}`, 1);
    expect(tracker.accept('node-0', 1)).toBe(true); // forgotten, so accepted again
    expect(tracker.accept('node-4999', 1)).toBe(false);
  });
});
