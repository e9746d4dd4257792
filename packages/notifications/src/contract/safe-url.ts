/*
 * Which URLs a notification may carry (`action_url`, an action's `url`). The bell follows them on
 * click, so anything but http(s) and relative URLs (javascript:, data:, vbscript:, ...) is refused:
 * by the API when a notification is stored, and again by the bell for data from any backend.
 */

// C0 controls, space, DEL, C1 controls and every Unicode space: URL parsers strip or skip some
// of them (`java\tscript:` parses as `javascript:`), so a URL containing any is refused outright.
// eslint-disable-next-line no-control-regex
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f-\u009f\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]/;

// Resolving against a base makes relative URLs parse; only the scheme of the result matters.
const PROBE_BASE = 'https://relative.invalid/';
// An unpaired surrogate cannot be stored as text in PostgreSQL, nor is it a character a URL can name.
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * True for `http:`, `https:` and relative URLs (the empty string included: this page) free of
 * control characters, whitespace and unpaired surrogates; false for anything else, non-strings too.
 */
export function isSafeUrl(value: unknown): value is string {
  if (typeof value !== 'string' || CONTROL_OR_SPACE.test(value) || LONE_SURROGATE.test(value)) return false;
  let protocol: string;
  try {
    // WHATWG URL parsing, as browsers do: case and escapes cannot disguise a scheme.
    protocol = new URL(value, PROBE_BASE).protocol;
  } catch {
    return false;
  }
  return protocol === 'https:' || protocol === 'http:';
}

/** What `isSafeUrl` accepts, as the API's validation messages word it. */
export const SAFE_URL_RULE = 'must be an http:, https: or relative URL without whitespace, control characters or unpaired surrogates';
