/*
 * The one masking rule for everything this package prints, throws or returns:
 *
 * - a URL keeps its scheme, host and port; its userinfo becomes `***@`, the
 *   path after `/hooks/` (the integration id and token) becomes `***`, and a
 *   query or fragment becomes `?***`;
 * - any text that may echo a secret (server bodies, headers, error messages
 *   of the network stack) has each of those URLs masked, and every form of the
 *   webhook's secret path (raw, URL-decoded, percent-encoded, JSON-escaped,
 *   base64) replaced with `***`;
 * - headers that carry credentials or URLs by nature (`authorization`,
 *   `cookie`, `set-cookie`, `location`, …) are replaced or URL-masked.
 */

const MASK = '***';
export const REDACTED = '[redacted]';
/** Replaces a whole echoed text that holds a secret too short to be masked inside it. */
export const SECRET_DROPPED = '[redacted: contained a secret]';

/** Characters a URL in free text ends at: whitespace, and those no URL holds raw. A `'` does not end it: `encodeURIComponent` leaves `'()!*` raw, so a token or a password may hold them. */
const URL_END = /[\s"<>`]/;
const SCHEME_CHAR = /[a-z0-9+.-]/i;
const LETTER = /[a-z]/i;
/** A webhook path without a scheme (`chat.example.com/hooks/<id>/<token>`, an echoed request line): two segments, as a webhook has. */
const HOOKS_PATH_IN_TEXT = /\/hooks\/[^\s"<>`/]+\/[^\s"<>`]+/gi;
const HOOKS = /\/hooks\//i;
/**
 * Secret forms at least this long are replaced with `***` wherever they occur.
 * Shorter ones would be found inside ordinary words, so masking them would
 * mangle the text: an echoed text that holds one is dropped whole instead.
 */
const MIN_SECRET_LENGTH = 6;

/**
 * `https://user:pw@chat.example.com/hooks/id/token?x=1` → `https://***@chat.example.com/hooks/***`.
 * Works on malformed URLs too (a password holding `/`, `?`, `#` or `@`): everything up to the
 * last `@` goes first (an `@` in a query then hides the host too: safe, if less readable), then
 * everything after `/hooks/`, then the query.
 */
export function maskUrl(url: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url)?.[0];
  if (!scheme) return MASK;
  let rest = url.slice(scheme.length);
  const at = rest.lastIndexOf('@');
  const userinfo = at >= 0 ? `${MASK}@` : '';
  if (at >= 0) rest = rest.slice(at + 1);
  let tail = '';
  const hooks = HOOKS.exec(rest);
  if (hooks) {
    rest = rest.slice(0, hooks.index);
    tail = `/hooks/${MASK}`;
  } else {
    const query = rest.search(/[?#]/);
    if (query >= 0) {
      rest = rest.slice(0, query);
      tail = `?${MASK}`;
    }
  }
  return `${scheme}${userinfo}${rest}${tail}`;
}

/** Masks every URL found in free text, and every `/hooks/` path. */
export function maskUrlsIn(text: string): string {
  // Found from each `://`, its scheme read backwards: one pass (a regex trying a scheme at every
  // position took quadratic time on long runs of `a.a.a…`), and a scheme glued to a word or a
  // digit (`retry#2-https://…`) is still found.
  let out = '';
  let done = 0;
  for (let separator = text.indexOf('://'); separator >= 0; separator = text.indexOf('://', separator + 3)) {
    if (separator < done) continue;
    let start = separator;
    while (start > done && SCHEME_CHAR.test(text[start - 1]!)) start--;
    while (start < separator && !LETTER.test(text[start]!)) start++;
    if (start === separator) continue;
    let end = separator + 3;
    while (end < text.length && !URL_END.test(text[end]!)) end++;
    out += text.slice(done, start) + maskUrl(text.slice(start, end));
    done = end;
  }
  return (out + text.slice(done)).replace(HOOKS_PATH_IN_TEXT, `/hooks/${MASK}`);
}

/**
 * Scrubs text of one webhook's secrets. Built once per instance: the regexes of
 * all secret forms are compiled here, not per message.
 */
export class Redactor {
  readonly #pattern: RegExp | undefined;
  readonly #present: RegExp | undefined;
  readonly #short: RegExp | undefined;

  /**
   * `secrets` are masked wherever they occur, and a text holding one too short
   * to mask is dropped. `maskOnly` values (a proxy's user name) are masked when
   * long enough and otherwise left alone: they identify, they do not grant access.
   */
  constructor(secrets: readonly string[], maskOnly: readonly string[] = []) {
    const long = new Set<string>();
    const short = new Set<string>();
    for (const secret of secrets) {
      for (const form of secretForms(secret)) if (form.length > 0) (form.length >= MIN_SECRET_LENGTH ? long : short).add(form);
    }
    for (const value of maskOnly) for (const form of secretForms(value)) if (form.length >= MIN_SECRET_LENGTH) long.add(form);
    this.#pattern = alternation(long, 'gi');
    this.#present = alternation(long, 'i');
    this.#short = alternation(short, 'i'); // only tested, never replaced: no g flag, so test() keeps no state
  }

  /**
   * For a webhook URL: every path segment after `/hooks/` (the integration id
   * and each part of the token), the whole path after `/hooks/`, and the request
   * path itself (a server may echo it base64-encoded).
   */
  static forWebhook(webhook: string | undefined, extra: readonly string[] = [], maskOnly: readonly string[] = []): Redactor {
    return new Redactor([...webhookSecrets(webhook), ...extra], maskOnly);
  }

  /**
   * Foreign text (a server's body or header, a network error): URLs masked, then
   * every secret form replaced; if a secret too short to mask is still in it,
   * the whole text is replaced with SECRET_DROPPED.
   */
  text(text: string): string {
    const masked = this.secrets(maskUrlsIn(text));
    if (this.#short?.test(masked)) return SECRET_DROPPED;
    // Escaping mixes no list of forms can foresee (HTML that escapes "/" but not ">",
    // JSON inside percent-encoding): what still shows a secret once unescaped is dropped.
    const unescaped = unescapeEchoes(masked);
    if (unescaped !== masked && (this.#present?.test(unescaped) || this.#short?.test(unescaped))) return SECRET_DROPPED;
    return masked;
  }

  /** Only the (long) secret forms replaced: for the package's own text, which echoes nothing. */
  secrets(text: string): string {
    return this.#pattern ? text.replace(this.#pattern, MASK) : text;
  }

  /** Header values made safe to keep on errors and results. */
  headers(headers: Readonly<Record<string, string>>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) out[name] = this.header(name, value);
    return out;
  }

  header(name: string, value: string): string {
    const lower = name.toLowerCase();
    if (CREDENTIAL_HEADERS.has(lower) || /token|secret|api-?key|password|session/.test(lower)) return REDACTED;
    if (URL_HEADERS.has(lower)) return this.text(/^[a-z][a-z0-9+.-]*:\/\//i.test(value.trim()) ? maskUrl(value.trim()) : value);
    return this.text(value);
  }
}

/** One regex matching any of `forms`, longest first (so a form is masked whole, not a part of it). */
function alternation(forms: ReadonlySet<string>, flags: string): RegExp | undefined {
  const sorted = [...forms].sort((a, b) => b.length - a.length).map(escapeRegExp);
  return sorted.length ? new RegExp(sorted.join('|'), flags) : undefined;
}

const CREDENTIAL_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'set-cookie2',
  'www-authenticate',
  'proxy-authenticate',
  'x-auth-token',
  'x-user-id',
]);
const URL_HEADERS = new Set(['location', 'content-location', 'refresh', 'link', 'referer']);

/** The secret parts of a webhook URL (see Redactor.forWebhook). */
function webhookSecrets(webhook: string | undefined): string[] {
  if (!webhook) return [];
  const path = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*(\/[^?#]*)?/i.exec(webhook)?.[1] ?? '';
  const hooks = HOOKS.exec(path);
  if (!hooks) return [];
  // A router may echo the token without the trailing slash the webhook has.
  const tail = path.slice(hooks.index + '/hooks/'.length).replace(/\/+$/, '');
  const segments = tail.split('/').filter((s) => s.length > 0);
  const token = segments.slice(1).join('/');
  return [...new Set([path, path.replace(/\/+$/, ''), `/hooks/${tail}`, tail, token, ...segments].filter((s) => s.length > 0))];
}

/**
 * The user name (an identifier, masked when long enough) and the secrets
 * (the whole `user:password` and the password) of a URL's userinfo.
 */
export function userinfoSecrets(url: unknown): { secrets: string[]; maskOnly: string[] } {
  const userinfo = urlUserinfo(url);
  if (userinfo === undefined) return { secrets: [], maskOnly: [] };
  const colon = userinfo.indexOf(':');
  if (colon < 0) return { secrets: [userinfo], maskOnly: [] };
  const password = userinfo.slice(colon + 1);
  return { secrets: [userinfo, ...(password ? [password] : [])], maskOnly: [userinfo.slice(0, colon)] };
}

/** Userinfo of a URL (`user:password`), raw, read loosely (up to the last `@`); undefined when it has none. */
function urlUserinfo(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  // Up to the last `@`: a password may hold `?`, `#`, `/` or `@` (it is what makes the URL invalid, and then echoed).
  const match = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(.*)@/is.exec(url);
  return match?.[1] || undefined;
}

/**
 * Every way a server may echo `secret`: raw and percent-decoded, each of them
 * percent-encoded, JSON-escaped (also with `\\/`, PHP's default), HTML-escaped
 * and base64 (standard, unpadded, URL-safe).
 */
function secretForms(secret: string): string[] {
  const decoded = safeDecode(secret);
  const forms = new Set<string>();
  for (const value of [secret, decoded]) {
    forms.add(value);
    forms.add(safeEncode(value));
    forms.add(safeEncodeUri(value));
    for (const json of [JSON.stringify(value).slice(1, -1), jsonAscii(value)]) {
      forms.add(json);
      forms.add(json.replace(/\//g, '\\/'));
    }
    for (const html of htmlForms(value)) forms.add(html);
    const base64 = Buffer.from(value, 'utf8').toString('base64');
    forms.add(base64);
    forms.add(base64.replace(/=+$/, ''));
    forms.add(Buffer.from(value, 'utf8').toString('base64url'));
    for (const embedded of base64Embedded(value)) forms.add(embedded);
  }
  return [...forms];
}

/**
 * The secret's base64 inside a longer base64 text (a whole URL or request line encoded): its bytes
 * start at any offset modulo 3, and each alignment encodes them differently. Kept: the characters
 * that depend on the secret alone, not on its neighbours, when at least 8 long (shorter ones would
 * turn up in unrelated base64 by chance).
 */
function base64Embedded(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const forms: string[] = [];
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const stable = encoded.slice(offset === 0 ? 0 : 4, 4 * Math.floor((offset + bytes.length) / 3));
    if (stable.length >= 8) forms.push(stable, stable.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}

/** HTML-escaped, with the usual spellings of `/` and `'` (the regex ignores case, so `&#X2F;` is covered too). */
function htmlForms(value: string): string[] {
  const base = value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const forms: string[] = [];
  for (const slash of ['/', '&#x2F;', '&#47;', '&sol;']) {
    for (const quote of ["'", '&#39;', '&#x27;', '&apos;']) forms.push(base.replace(/\//g, slash).replace(/'/g, quote));
  }
  return forms;
}

const HTML_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", sol: '/' };

/** Undoes JSON `\\/` and `\\uXXXX`, HTML entities and percent-escapes, each where it parses. */
function unescapeEchoes(text: string): string {
  return text
    .replace(/\\\//g, '/')
    .replace(/\\u([0-9a-f]{4})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    .replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]+);/gi, (entity, name: string) => {
      const code = /^#x/i.test(name) ? Number.parseInt(name.slice(2), 16) : name.startsWith('#') ? Number(name.slice(1)) : undefined;
      if (code === undefined) return HTML_ENTITIES[name.toLowerCase()] ?? entity;
      return code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    })
    .replace(/(?:%[0-9a-f]{2})+/gi, (escapes) => safeDecode(escapes));
}

function jsonAscii(value: string): string {
  return JSON.stringify(value)
    .slice(1, -1)
    .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function safeEncode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return value; // lone surrogates
  }
}

function safeEncodeUri(value: string): string {
  try {
    return encodeURI(value);
  } catch {
    return value;
  }
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/**
 * A copy of an error (and its cause / AggregateError chain) whose message,
 * stack and string properties are scrubbed. The network stack's own errors
 * may hold sockets, request options or URLs; none of that is kept.
 */
export function sanitizeError(error: unknown, redactor: Redactor, depth = 0): unknown {
  if (typeof error === 'string') return redactor.text(error);
  if (typeof error !== 'object' || error === null) return error;
  if (depth > 4) return undefined;
  const source = error as Record<string, unknown> & { message?: unknown; name?: unknown; stack?: unknown; cause?: unknown; errors?: unknown };
  const message = typeof source.message === 'string' ? source.message : safeString(error);
  const copy = new Error(redactor.text(message)) as Error & Record<string, unknown>;
  Object.defineProperty(copy, 'name', { value: typeof source.name === 'string' ? source.name : 'Error', configurable: true, writable: true });
  copy.stack = typeof source.stack === 'string' ? redactor.text(source.stack) : `${copy.name}: ${copy.message}`;
  for (const key of ['code', 'errno', 'syscall', 'address', 'port', 'hostname', 'statusCode']) {
    const value = source[key];
    if (typeof value === 'string') copy[key] = redactor.text(value);
    else if (typeof value === 'number') copy[key] = value;
  }
  if (source.cause !== undefined) {
    Object.defineProperty(copy, 'cause', { value: sanitizeError(source.cause, redactor, depth + 1), configurable: true, writable: true });
  }
  if (Array.isArray(source.errors)) {
    Object.defineProperty(copy, 'errors', {
      value: source.errors.slice(0, 8).map((e) => sanitizeError(e, redactor, depth + 1)),
      configurable: true,
      writable: true,
    });
  }
  return copy;
}

/** `String(value)`, or a placeholder for a value whose conversion throws (a hostile `toString`). */
export function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return '[unprintable]';
  }
}
