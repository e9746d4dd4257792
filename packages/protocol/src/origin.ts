/**
 * Whether a WebSocket (or CORS) `Origin` is allowed by an app's
 * `allowedOrigins`. Matching is on the **host name**, as Laravel Reverb does,
 * so the port a site is served on never has to be listed:
 *
 * | entry | allows |
 * | --- | --- |
 * | `*` | every origin, even a missing one |
 * | `example.net` | `example.net` over any scheme, on any port |
 * | `example.net:3000` | `example.net` over any scheme, on port 3000 only |
 * | `*.example.net` | any subdomain of `example.net` (not `example.net` itself), on any port |
 * | `*.example.net:3000` | any subdomain, on port 3000 only |
 * | `https://example.net` | `example.net` over https only, on any port |
 * | `https://example.net:8443` | `example.net` over https on port 8443 only |
 * | `https://*.example.net` | any subdomain over https, on any port |
 *
 * Host names compare case-insensitively, IDN names in either form, and a
 * trailing dot is ignored. A port in an entry is compared with the origin's
 * effective port (`https://example.net` is port 443). An entry equal to the
 * whole Origin string (such as `null`, sent by sandboxed pages) allows it.
 * Entries of any other shape, and Origins that do not parse, match nothing.
 * A missing Origin is refused unless `*` is listed. Never throws.
 */
export function originAllowed(allowed: readonly string[], origin: string | undefined): boolean {
  if (allowed.includes('*')) return true;
  if (!origin) return false;
  const parsed = parseOrigin(origin);
  for (const entry of patternsOf(allowed)) {
    if (entry.literal === origin) return true;
    if (parsed && entry.pattern && matches(entry.pattern, parsed)) return true;
  }
  return false;
}

interface OriginParts {
  scheme: string;
  hostname: string;
  /** The explicit port, or the scheme's default; undefined when the scheme has none. */
  port: number | undefined;
}

interface OriginPattern {
  /** Lower case, without `://`; undefined matches any scheme. */
  scheme: string | undefined;
  /** For a wildcard, the parent domain the host must end in (after a dot). */
  hostname: string;
  wildcard: boolean;
  /** Undefined matches any port. */
  port: number | undefined;
}

interface Entry {
  literal: string;
  pattern: OriginPattern | undefined;
}

const defaultPorts: Readonly<Record<string, number>> = { http: 80, https: 443, ws: 80, wss: 443 };

function matches(pattern: OriginPattern, origin: OriginParts): boolean {
  if (pattern.scheme !== undefined && pattern.scheme !== origin.scheme) return false;
  if (pattern.port !== undefined && pattern.port !== origin.port) return false;
  if (!pattern.wildcard) return origin.hostname === pattern.hostname;
  return origin.hostname.length > pattern.hostname.length + 1 && origin.hostname.endsWith(`.${pattern.hostname}`);
}

/** The canonical (WHATWG) form of a host name: lower case, punycode, IPv6 bracketed and compressed; no trailing dot. */
function canonicalHostname(host: string): string | undefined {
  if (host === '') return undefined;
  try {
    const hostname = new URL(`http://${host}`).hostname;
    return hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  } catch {
    return undefined;
  }
}

function parseOrigin(origin: string): OriginParts | undefined {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return undefined;
  }
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  const hostname = url.hostname.endsWith('.') ? url.hostname.slice(0, -1) : url.hostname;
  if (hostname === '') return undefined;
  const port = url.port === '' ? defaultPorts[scheme] : Number(url.port);
  return { scheme, hostname, port };
}

// [scheme://][*.]host[:port][/]; the host is checked by the URL parser, not here.
const patternShape = /^(?:([A-Za-z][A-Za-z0-9+.-]*):\/\/)?(\*\.)?(\[[^\]/]*\]|[^:/[\]@#?\\\s]+)(?::(\d{1,5}))?\/?$/;

function parsePattern(entry: string): OriginPattern | undefined {
  const shape = patternShape.exec(entry);
  if (!shape) return undefined;
  const [, scheme, wildcard, host = '', portText] = shape;
  // `*` may only stand as the whole first label.
  if (host.includes('*')) return undefined;
  const hostname = canonicalHostname(host);
  if (hostname === undefined) return undefined;
  let port: number | undefined;
  if (portText !== undefined) {
    port = Number(portText);
    if (port > 65_535) return undefined;
  }
  return { scheme: scheme?.toLowerCase(), hostname, wildcard: wildcard !== undefined, port };
}

/**
 * Apps' lists are frozen and live as long as the app, so each list is parsed
 * once, on its first connection, not on every handshake.
 */
const parsedLists = new WeakMap<readonly string[], readonly Entry[]>();

function patternsOf(allowed: readonly string[]): readonly Entry[] {
  let entries = parsedLists.get(allowed);
  if (!entries) {
    entries = allowed.map((literal) => ({ literal, pattern: parsePattern(literal) }));
    // Only frozen lists can be cached: a mutable one may change between calls.
    if (Object.isFrozen(allowed)) parsedLists.set(allowed, entries);
  }
  return entries;
}
