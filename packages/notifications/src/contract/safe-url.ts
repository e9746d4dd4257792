/*
 * Which URLs a notification may carry (`action_url`, an action's `url`). The bell follows them on
 * click, so anything but http(s) and relative URLs (javascript:, data:, vbscript:, ...) is refused:
 * by the API when a notification is stored, and again by the bell for data from any backend.
 */

// C0 controls, space, DEL, C1 controls and every Unicode space: URL parsers strip or skip some of
// them (`java\tscript:` parses as `javascript:`), so a URL containing any is refused outright. So is
// an unpaired surrogate (D800-DFFF: with the u flag a well-formed pair is one code point, outside
// that range): PostgreSQL cannot store it as text, nor is it a character a URL can name.
const REFUSED = /[\0-\x20\x7f-\x9f\xa0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff\ud800-\udfff]/u;

// Resolving against a base makes relative URLs parse; only the scheme of the result matters.
const PROBE_BASE = 'https://relative.invalid/';

/**
 * True for `http:`, `https:` and relative URLs (the empty string included: this page) free of
 * control characters, whitespace and unpaired surrogates; false for anything else, non-strings too.
 */
export function isSafeUrl(value: unknown): value is string {
  if (typeof value !== 'string' || REFUSED.test(value)) return false;
  try {
    // WHATWG URL parsing, as browsers do: case and escapes cannot disguise a scheme.
    const protocol = new URL(value, PROBE_BASE).protocol;
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/** What `isSafeUrl` accepts, as the API's validation messages word it. */
export const SAFE_URL_RULE = 'must be an http:, https: or relative URL without whitespace, control characters or unpaired surrogates';
