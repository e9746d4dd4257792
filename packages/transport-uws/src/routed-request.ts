import type { FetchHandler, PlainHttpHandler, PlainHttpRequest, PlainHttpResponse } from './http-bridge.js';

/**
 * The URL the fetch handler routes on: a fixed origin, then the path and query
 * uWS parsed. The `Host` header never takes part, so no Host (`x/metrics#`,
 * `a@b`, spaces, NUL...) can move a request to another route; handlers that
 * want it read it as a header. A `#` is escaped, so it cannot cut the path or
 * query short as a fragment would.
 */
function routedUrl(origin: string, path: string, query: string): string {
  const rooted = path.startsWith('/') ? path : `/${path}`;
  return `${origin}${escapeHash(rooted)}${query === '' ? '' : `?${escapeHash(query)}`}`;
}

function escapeHash(part: string): string {
  return part.includes('#') ? part.replaceAll('#', '%23') : part;
}

// Header values the Fetch API accepts: bytes as Latin-1 characters (a ByteString).
// eslint-disable-next-line no-control-regex
const beyondLatin1 = /[^\u0000-\u00ff]/;

/**
 * The headers as the Fetch API takes them. A value with characters past
 * Latin-1 is passed as its UTF-8 bytes (as node:http does); a header the Fetch
 * API refuses outright is left out rather than failing the whole request.
 */
function toFetchHeaders(headers: Readonly<Record<string, string>>): Headers {
  const fetchHeaders = new Headers();
  for (const name in headers) {
    const value = headers[name] as string;
    try {
      fetchHeaders.append(name, beyondLatin1.test(value) ? Buffer.from(value, 'utf8').toString('latin1') : value);
    } catch {
      // Not a header name or value fetch can carry.
    }
  }
  return fetchHeaders;
}

/**
 * A fetch handler (a hono app's `fetch`, say) as a plain one: the request
 * becomes a `Request` on `routedUrl`, the `Response` is read in full. For
 * handlers written against the Fetch API; it costs a `Request` and a
 * `Response` per call, which a plain handler does without.
 */
export function plainFromFetch(fetch: FetchHandler, scheme: 'http' | 'https'): PlainHttpHandler {
  const origin = `${scheme}://localhost`;
  return async ({ method, path, query, headers, body }: PlainHttpRequest): Promise<PlainHttpResponse> => {
    const hasBody = body.byteLength > 0;
    const response = await fetch(new Request(routedUrl(origin, path, query), { method, headers: toFetchHeaders(headers), ...(hasBody ? { body } : {}) }));
    const payload = new Uint8Array(await response.arrayBuffer());
    const answerHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => (answerHeaders[name] = value));
    return { status: response.status, headers: answerHeaders, body: payload };
  };
}

/** `first`, then `second` for what `first` passes on (resolves to undefined). */
export function firstThen(first: PlainHttpHandler, second: PlainHttpHandler): PlainHttpHandler {
  return async (request) => (await first(request)) ?? second(request);
}
