import { PusherApiError } from './errors.js';

/** More parameters than any Pusher endpoint needs; bounds the work a request can cause. */
export const maxQueryParameters = 32;

/**
 * Parses a raw query string into percent-decoded values. `+` stays a plus:
 * the Node SDK sends values unencoded and the PHP SDK encodes spaces as `%20`,
 * so treating `+` as a space would break signatures of either. A repeated key
 * keeps its last value; the signature is checked over the same map, so the
 * caller cannot sign one value and act on another.
 */
export function parseQueryString(raw: string): Map<string, string> {
  const query = new Map<string, string>();
  if (raw === '') return query;
  // The pairs `raw.split('&')` would give, walked with indexOf: no array of them per request. Counted
  // first, so too many is refused before any is decoded.
  let parameters = 1;
  for (let at = raw.indexOf('&'); at !== -1; at = raw.indexOf('&', at + 1)) {
    if (++parameters > maxQueryParameters) {
      throw new PusherApiError('MALFORMED_REQUEST', `the query string has more than ${maxQueryParameters} parameters`);
    }
  }
  for (let start = 0; ; ) {
    const ampersand = raw.indexOf('&', start);
    const end = ampersand === -1 ? raw.length : ampersand;
    if (end > start) {
      const equals = raw.indexOf('=', start);
      if (equals === -1 || equals > end) query.set(decode(raw.slice(start, end)), '');
      else query.set(decode(raw.slice(start, equals)), decode(raw.slice(equals + 1, end)));
    }
    if (ampersand === -1) break;
    start = ampersand + 1;
  }
  return query;
}

function decode(component: string): string {
  if (!component.includes('%')) return component;
  try {
    return decodeURIComponent(component);
  } catch {
    throw new PusherApiError('MALFORMED_REQUEST', 'the query string has an invalid percent-encoding');
  }
}

/** Splits a request URL into its raw path and raw query, without decoding either. */
export function splitUrl(url: string): { path: string; query: string } {
  const schemeEnd = url.indexOf('://');
  const pathStart = schemeEnd === -1 ? url.indexOf('/') : url.indexOf('/', schemeEnd + 3);
  if (pathStart === -1) return { path: '/', query: '' };
  const queryStart = url.indexOf('?', pathStart);
  const hashStart = url.indexOf('#', pathStart);
  const pathEnd = queryStart !== -1 ? queryStart : hashStart !== -1 ? hashStart : url.length;
  const path = url.slice(pathStart, pathEnd);
  if (queryStart === -1) return { path, query: '' };
  const queryEnd = hashStart > queryStart ? hashStart : url.length;
  return { path, query: url.slice(queryStart + 1, queryEnd) };
}
