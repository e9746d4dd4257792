/*
 * Notification URLs come from data, so they are never trusted to be links:
 * only http(s) and relative URLs are followed or rendered as `href`. The
 * server (`@org/notifications`) refuses the rest when a notification is
 * stored; this is the client's own check, for data from any other backend.
 */

// C0 controls, DEL and whitespace: browsers strip or skip them while parsing
// (`java\tscript:` is `javascript:`), so a URL containing any is refused outright.
// eslint-disable-next-line no-control-regex
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]/;
const PROBE_BASE = 'https://relative.invalid/';

/** True for `http:`, `https:` and relative URLs without control characters or whitespace. */
export function isSafeUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value === '' || CONTROL_OR_SPACE.test(value)) return false;
  try {
    // The browser's own parser decides the scheme, so mixed case and escapes cannot disguise one.
    const protocol = new URL(value, PROBE_BASE).protocol;
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/** The URL when it is safe to follow, otherwise null. */
export function safeUrlOrNull(value: unknown): string | null {
  return isSafeUrl(value) ? value : null;
}
