const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

const formatters = new Map<string, Intl.RelativeTimeFormat>();

function relativeFormatter(locale: string | undefined): Intl.RelativeTimeFormat {
  const key = locale ?? '';
  let formatter = formatters.get(key);
  if (!formatter) {
    // numeric:'auto' gives "now", "yesterday", "last week" instead of "0 seconds ago".
    formatter = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
    formatters.set(key, formatter);
  }
  return formatter;
}

/**
 * "now", "5 minutes ago", "yesterday", "2 weeks ago"; past 30 days an absolute
 * date ("Mar 3", with the year when it differs), since "14 weeks ago" reads badly.
 * Returns '' for an unparsable timestamp rather than "Invalid Date".
 */
export function formatRelativeTime(timestamp: string | number | Date, now: number = Date.now(), locale?: string): string {
  const time = timestamp instanceof Date ? timestamp.getTime() : new Date(timestamp).getTime();
  if (Number.isNaN(time)) return '';
  const diff = time - now;
  const distance = Math.abs(diff);
  const rtf = relativeFormatter(locale);
  if (distance < 45 * SECOND) return rtf.format(0, 'second');
  if (distance < 45 * MINUTE) return rtf.format(Math.round(diff / MINUTE), 'minute');
  if (distance < 22 * HOUR) return rtf.format(Math.round(diff / HOUR), 'hour');
  if (distance < 6.5 * DAY) return rtf.format(Math.round(diff / DAY), 'day');
  if (distance < 30 * DAY) return rtf.format(Math.round(diff / WEEK), 'week');
  const date = new Date(time);
  const sameYear = date.getFullYear() === new Date(now).getFullYear();
  return new Intl.DateTimeFormat(locale, sameYear ? { month: 'short', day: 'numeric' } : { dateStyle: 'medium' }).format(date);
}

/** Full date and time for the `<time title>` tooltip. */
export function formatAbsoluteTime(timestamp: string, locale?: string): string {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? '' : new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}
