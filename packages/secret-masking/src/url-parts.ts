/** A URL cut into the parts masking treats apart, each as written (nothing normalized or decoded). */
export interface UrlParts {
  /** `https://`: the scheme with its `://`. */
  readonly scheme: string;
  /** What sits before the `@` that ends the credentials; undefined without one. */
  readonly userinfo: string | undefined;
  /** `host[:port]`. */
  readonly host: string;
  /** From the end of the host up to `?` or `#`; may be empty. */
  readonly path: string;
  /** After `?`, up to `#`; undefined without a `?`. */
  readonly query: string | undefined;
  /** After `#`; undefined without a `#`. */
  readonly fragment: string | undefined;
}

/** A URL no part of which is safe to show (see splitUrl): only its scheme is. */
export interface OpaqueUrl {
  readonly scheme: string;
  readonly opaque: true;
}

export const schemePrefix = /^[a-z][a-z0-9+.-]*:\/\//i;

/** `host[:port]` as a URL may hold it: a registered name or an IPv4 address, or an IPv6 address in brackets. */
const plausibleHost = /^(?:\[[0-9a-z:.%]*\]|[a-z0-9._~!$&'()*+,;=%-]*)(?::[0-9]*)?$/i;
/** Where a host ends (the WHATWG parser reads `\` as `/` in http(s) URLs). */
const hostEnd = new Set(['/', '\\', '?', '#']);

/**
 * The parts of `text` read as a URL. A password may hold `/ ? # @` (that is
 * what makes a URL invalid, and then it is echoed in full), so every `@` may be
 * where the credentials end, and so may none. A reading is plausible when what
 * follows its `@` (or the scheme) up to `/ \ ? #` is a valid `host[:port]`:
 *
 * - `http://user:p/w@d@proxy:3128`: only the last `@` is followed by a host;
 * - `http://user:Pa55?x@proxy:3128`: no `@` at all would make `user:Pa55` the host,
 *   which is no `host:port`;
 * - `https://h/x?token=a@b`: `h` and `b` are both hosts.
 *
 * A part is shown only when no plausible reading calls it a credential: with
 * the credentials up to the last plausible `@`, and the query starting at the
 * first `?` or `#` after the first plausible host. When a `?` or `#` lies
 * between the two (the last example, and `http://u:1234?x@h`), or no reading
 * is plausible, nothing is safe to show and the URL is opaque. One pass over
 * the text: each character is looked at a bounded number of times.
 *
 * Undefined when `text` does not start with `scheme://`: where its credentials
 * are cannot be known.
 */
export function splitUrl(text: string): UrlParts | OpaqueUrl | undefined {
  const scheme = schemePrefix.exec(text)?.[0];
  if (scheme === undefined) return undefined;
  const rest = text.slice(scheme.length);
  let first = -1;
  let last = -1;
  // The reading whose host is being read: it starts after the scheme, or after an `@`.
  let reading = 0;
  for (let i = 0; i <= rest.length; i++) {
    const char = rest[i];
    if (char === '@') reading = i + 1; // an `@` inside a host: that reading is not plausible, this one starts
    else if (reading >= 0 && (char === undefined || hostEnd.has(char))) {
      if (plausibleHost.test(rest.slice(reading, i))) {
        if (first < 0) first = reading;
        last = reading;
      }
      reading = -1;
    }
  }
  if (last < 0 || firstOf(rest, '?#', first) < last) return { scheme, opaque: true };
  const hostEndAt = firstOf(rest, '/\\?#', last);
  const pathEnd = firstOf(rest, '?#', hostEndAt);
  const hash = rest.indexOf('#', pathEnd);
  const queryEnd = hash >= 0 ? hash : rest.length;
  return {
    scheme,
    userinfo: last > 0 ? rest.slice(0, last - 1) : undefined,
    host: rest.slice(last, hostEndAt),
    path: rest.slice(hostEndAt, pathEnd),
    query: rest[pathEnd] === '?' ? rest.slice(pathEnd + 1, queryEnd) : undefined,
    fragment: hash >= 0 ? rest.slice(hash + 1) : undefined,
  };
}

/** Index of the first of `chars` in `text` from `from`, or the text's length. */
function firstOf(text: string, chars: string, from = 0): number {
  for (let i = from; i < text.length; i++) if (chars.includes(text[i]!)) return i;
  return text.length;
}
