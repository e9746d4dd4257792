import { describe, expect, it } from 'vitest';
import { SequenceTracker } from './sequence-tracker.js';

describe('the sequence tracker of bus senders', () => {
  it('accepts each sender\'s messages once per topic, drops resends and counts gaps (older senders without prev)', () => {
    const tracker = new SequenceTracker();
    expect(tracker.accept('a', 'bus', 5, undefined)).toBe(true); // the first message seen from a sender sets its baseline
    expect(tracker.accept('a', 'bus', 6, undefined)).toBe(true);
    expect(tracker.accept('a', 'bus', 6, undefined)).toBe(false);
    expect(tracker.accept('a', 'bus', 3, undefined)).toBe(false);
    expect(tracker.accept('b', 'bus', 1, undefined)).toBe(true);
    expect(tracker.accept('a', 'bus', 10, undefined)).toBe(true);
    expect(tracker.duplicates).toBe(2);
    expect(tracker.missed).toBe(3);
  });

  it('tells a gap on one topic by prev, not by the numbers other topics took', () => {
    const tracker = new SequenceTracker();
    expect(tracker.accept('a', 't1', 3, 0)).toBe(true);
    // Numbers 4..9 went to other topics this node does not hear: no loss.
    expect(tracker.accept('a', 't1', 10, 3)).toBe(true);
    expect(tracker.missed).toBe(0);
    // 11 (on t1) was missed: prev says so, counted as one gap.
    expect(tracker.accept('a', 't1', 14, 11)).toBe(true);
    expect(tracker.missed).toBe(1);
    // A resend of 10 after 14 is a duplicate; the same number on another topic is not.
    expect(tracker.accept('a', 't1', 10, 3)).toBe(false);
    expect(tracker.accept('a', 't2', 10, 0)).toBe(true);
    expect(tracker.duplicates).toBe(1);
  });

  it('starts a topic afresh once forgotten: messages not heard while unsubscribed are no loss', () => {
    const tracker = new SequenceTracker();
    tracker.accept('a', 't', 1, 0);
    tracker.forget('t');
    expect(tracker.accept('a', 't', 50, 40)).toBe(true);
    expect(tracker.missed).toBe(0);
  });

  it('forgets the longest-known topics and senders beyond its bounds instead of growing', () => {
    const tracker = new SequenceTracker(100);
    for (let i = 0; i < 1_000; i++) tracker.accept('a', `t-${i}`, i + 1, 0);
    expect(tracker.size).toBe(100);
    expect(tracker.accept('a', 't-0', 1, 0)).toBe(true); // forgotten, so accepted again
    expect(tracker.accept('a', 't-999', 1_000, 0)).toBe(false);
    for (let i = 0; i < 5_000; i++) tracker.accept(`node-${i}`, 'bus', 1, undefined);
    expect(tracker.accept('node-0', 'bus', 1, undefined)).toBe(true);
    expect(tracker.accept('node-4999', 'bus', 1, undefined)).toBe(false);
  });
});
