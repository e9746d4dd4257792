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

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;
const HOOKS = /\/hooks\//i;
/** Shorter fragments would be masked inside ordinary words; real tokens are 24+ characters. */
const MIN_SECRET_LENGTH = 6;

/**
 * `https://user:pw@chat.example.com/hooks/id/token?x=1` → `https://***@chat.example.com/hooks/***`.
 * Works on malformed URLs too (a password holding `/` or `@`): everything after
 * `/hooks/` goes first, then the query, then everything up to the last `@`.
 */
export function maskUrl(url: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url)?.[0];
  if (!scheme) return MASK;
  let rest = url.slice(scheme.length);
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
  const at = rest.lastIndexOf('@');
  if (at >= 0) rest = `${MASK}@${rest.slice(at + 1)}`;
  return `${scheme}${rest}${tail}`;
}

/** Masks every URL found in free text. */
export function maskUrlsIn(text: string): string {
  return text.replace(URL_IN_TEXT, (url) => maskUrl(url));
}

/**
 * Scrubs text of one webhook's secrets. Built once per instance: the regex of
 * all secret forms is compiled here, not per message.
 */
export class Redactor {
  readonly #pattern: RegExp | undefined;

  constructor(secrets: readonly string[]) {
    const forms = new Set<string>();
    for (const secret of secrets) for (const form of secretForms(secret)) if (form.length >= MIN_SECRET_LENGTH) forms.add(form);
    const sorted = [...forms].sort((a, b) => b.length - a.length).map(escapeRegExp);
    this.#pattern = sorted.length ? new RegExp(sorted.join('|'), 'gi') : undefined;
  }

  /** For a webhook URL: its path after `/hooks/`, the token after the id, and its last segment. */
  static forWebhook(webhook: string | undefined, extra: readonly string[] = []): Redactor {
    return new Redactor([...webhookSecrets(webhook), ...extra]);
  }

  /** Foreign text (a server's body, a network error): URLs masked, then every secret form replaced. */
  text(text: string): string {
    return this.secrets(maskUrlsIn(text));
  }

  /** Only the secret forms replaced: for text whose URLs are already masked or are the package's own examples. */
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

/** The secret parts of a webhook URL, longest first. */
function webhookSecrets(webhook: string | undefined): string[] {
  if (!webhook) return [];
  const path = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*(\/[^?#]*)?/i.exec(webhook)?.[1] ?? '';
  const hooks = HOOKS.exec(path);
  if (!hooks) return [];
  const tail = path.slice(hooks.index + '/hooks/'.length);
  const slash = tail.indexOf('/');
  const token = slash >= 0 ? tail.slice(slash + 1) : '';
  const last = tail.slice(tail.lastIndexOf('/') + 1);
  return [...new Set([tail, token, last].filter((s) => s.length > 0))];
}

/** Userinfo of a URL (`user:password`), raw, read loosely (up to the last `@`); undefined when it has none. */
export function urlUserinfo(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  const match = /^(?:[a-z][a-z0-9+.-]*:\/\/)?([^?#]*)@/i.exec(url);
  return match?.[1] || undefined;
}

function secretForms(secret: string): string[] {
  const decoded = safeDecode(secret);
  const forms = new Set<string>();
  for (const value of [secret, decoded]) {
    forms.add(value);
    forms.add(safeEncode(value));
    forms.add(safeEncodeUri(value));
    forms.add(JSON.stringify(value).slice(1, -1));
    forms.add(jsonAscii(value));
    const base64 = Buffer.from(value, 'utf8').toString('base64');
    forms.add(base64);
    forms.add(base64.replace(/=+$/, ''));
    forms.add(Buffer.from(value, 'utf8').toString('base64url'));
  }
  // Userinfo such as `user:password` is also sent as Basic credentials.
  for (const part of decoded.split(':')) if (part !== decoded) forms.add(part);
  return [...forms];
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

function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return '[unprintable]';
  }
}
