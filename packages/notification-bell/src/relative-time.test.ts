import { describe, expect, it } from 'vitest';
import { formatRelativeTime } from './relative-time.js';

const now = Date.UTC(2025, 5, 15, 12, 0, 0);
const ago = (ms: number) => new Date(now - ms).toISOString();

describe('formatRelativeTime', () => {
  it('says "now" for the last few seconds instead of "0 seconds ago"', () => {
    expect(formatRelativeTime(ago(0), now, 'en')).toBe('now');
    expect(formatRelativeTime(ago(30_000), now, 'en')).toBe('now');
  });

  it('uses minutes, hours, days and weeks with Intl.RelativeTimeFormat', () => {
    expect(formatRelativeTime(ago(5 * 60_000), now, 'en')).toBe('5 minutes ago');
    expect(formatRelativeTime(ago(3 * 3_600_000), now, 'en')).toBe('3 hours ago');
    expect(formatRelativeTime(ago(24 * 3_600_000), now, 'en')).toBe('yesterday');
    expect(formatRelativeTime(ago(3 * 86_400_000), now, 'en')).toBe('3 days ago');
    expect(formatRelativeTime(ago(14 * 86_400_000), now, 'en')).toBe('2 weeks ago');
  });

  it('localizes', () => {
    expect(formatRelativeTime(ago(5 * 60_000), now, 'de')).toBe('vor 5 Minuten');
    expect(formatRelativeTime(ago(24 * 3_600_000), now, 'fr')).toBe('hier');
  });

  it('switches to an absolute date after 30 days, with the year only when it differs', () => {
    expect(formatRelativeTime('2025-03-03T10:00:00Z', now, 'en')).toBe('Mar 3');
    expect(formatRelativeTime('2023-03-03T10:00:00Z', now, 'en')).toBe('Mar 3, 2023');
  });

  it('returns an empty string for an unparsable timestamp instead of "Invalid Date"', () => {
    expect(formatRelativeTime('not a date', now, 'en')).toBe('');
  });
});
