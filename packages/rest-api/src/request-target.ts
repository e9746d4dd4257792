import { getPath, tryDecodeURIComponent } from 'hono/utils/url';

/** The path and query a request is routed and verified on. */
export interface RequestTarget {
  /** As sent, or as a URL parser rewrote it (dot segments, `\`, characters it percent-encodes). */
  path: string;
  /** Raw, without `?`. */
  query: string;
}

/**
 * The target as a fetch-based server would see it: most paths are left exactly as sent (checked
 * without allocating, see `needsUrlParsing`); one a URL parser would rewrite (`/a/../b`, `%2e%2e`,
 * `\`, spaces, `{`, non-ASCII...) is parsed as `http://localhost{path}?{query}` would be, `#`
 * escaped so it cannot cut the target short. So a request means the same thing whichever server
 * reads it into plain values, and the `Host` header never takes part.
 */
export function requestTarget(path: string, query: string): RequestTarget {
  return needsUrlParsing(path) ? urlParsedTarget(path, query) : { path, query };
}

/** The target a URL parser makes of `path` and `query`. */
export function urlParsedTarget(path: string, query: string): RequestTarget {
  const url = new URL(`http://localhost${path.startsWith('/') ? '' : '/'}${escapeHash(path)}${query === '' ? '' : `?${escapeHash(query)}`}`);
  return { path: url.pathname, query: url.search.slice(1) };
}

function escapeHash(part: string): string {
  return part.includes('#') ? part.replaceAll('#', '%23') : part;
}

/**
 * Whether a URL parser would change the path: anything but printable ASCII it keeps as is, a
 * segment starting with `.` (maybe a dot segment), or `%2e` (an encoded one). A false positive
 * only costs the parse.
 */
export function needsUrlParsing(path: string): boolean {
  if (path.charCodeAt(0) !== 0x2f) return true;
  for (let index = 1; index < path.length; index++) {
    const code = path.charCodeAt(index);
    if (code <= 0x20 || code >= 0x7f) return true;
    switch (code) {
      case 0x22: // "
      case 0x23: // #
      case 0x3c: // <
      case 0x3e: // >
      case 0x3f: // ?
      case 0x5c: // \
      case 0x60: // `
      case 0x7b: // {
      case 0x7d: // }
        return true;
      case 0x2e: // .
        if (path.charCodeAt(index - 1) === 0x2f) return true;
        break;
      case 0x25: // %
        if (path.charCodeAt(index + 1) === 0x32 && (path.charCodeAt(index + 2) | 0x20) === 0x65) return true;
        break;
    }
  }
  return false;
}

/**
 * The path `createPusherApiHandler` routes a request on: read as a URL parser reads it (see
 * `requestTarget`), then percent-decoded as hono decodes it. A host answering routes of its own in
 * front of the API (`/up`, `/metrics`) compares them to this, so both read every path alike
 * (`/a/../up` and `/%75p` are `/up`, `/up#x` is not). Give the request's `query` too: a URL parser
 * trims trailing spaces and controls only at the end of the whole target, so `"/up "` is `/up` alone
 * but not when a query follows.
 */
export function routedPath(path: string, query = ''): string {
  return routingPath(needsUrlParsing(path) ? urlParsedTarget(path, query).path : path);
}

/** The path routes are matched on: percent-decoded as hono decodes it (`%2F` and `%25` kept encoded). */
export function routingPath(path: string): string {
  return path.includes('%') ? getPath({ url: `http://localhost${path}` } as Request) : path;
}

/** A path parameter, percent-decoded; an invalid escape is kept as sent (as hono does). */
export function decodeParam(segment: string): string {
  return tryDecodeURIComponent(segment);
}
