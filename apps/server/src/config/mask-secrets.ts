import { isSecretKey, isUrlKey, minimumSecretLength, ruleKeyOf } from './safe-config-errors.js';

/** What a secret is shown as: the marker error messages use. */
export const mask = '[redacted]';

/**
 * A URL with its user name, password, every query value and the fragment
 * masked; the scheme, host and port stay readable, and so does the path
 * unless `maskPath` (webhook URLs: Slack, Discord and Zapier keep the
 * credential in the path). Text that is not a URL is masked whole: where its
 * credentials are cannot be known.
 */
export function maskUrl(text: string, { maskPath = false }: { maskPath?: boolean } = {}): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text === '' ? text : mask;
  }
  // Built by hand: the URL setters would percent-encode the marker.
  const credentials = url.username || url.password ? `${url.username ? mask : ''}${url.password ? `:${mask}` : ''}@` : '';
  const query = url.search ? `?${[...url.searchParams.keys()].map((name) => `${encodeURIComponent(name)}=${mask}`).join('&')}` : '';
  const authority = url.host || url.protocol === 'file:' ? `//${credentials}${url.host}` : '';
  const path = maskPath && url.pathname !== '' && url.pathname !== '/' ? `/${mask}` : url.pathname;
  return `${url.protocol}${authority}${path}${query}${url.hash ? `#${mask}` : ''}`;
}

/**
 * `user:password@host` in any text that is not under a URL key (a Redis
 * `host`, an allowed origin), with or without a scheme: everything between
 * the scheme and the last `@` before the host is masked. An e-mail address
 * loses its local part: in a printed configuration that is harmless.
 */
const userinfo = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)?([^\s]*)@(?=[^\s@/?#]+)/;

export function maskUserinfo(text: string): string {
  if (!text.includes('@')) return text;
  const match = userinfo.exec(text);
  if (!match || match[2] === '') return text;
  return `${match[1] ?? ''}${mask}@${text.slice(match[0].length)}`;
}

/**
 * The forms a secret may take inside a text besides its own: percent-encoded
 * (upper and lower hex, `+` for spaces), percent-decoded, and base64 and
 * base64url at each of the three alignments a secret can have inside a
 * longer base64 text (Basic auth: `user:secret`), keeping only the characters
 * that depend on the secret alone.
 */
function secretForms(secret: string): string[] {
  const forms = [secret];
  const encoded = encodeURIComponent(secret);
  forms.push(encoded, encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()), encoded.replace(/%20/g, '+'));
  try {
    forms.push(decodeURIComponent(secret.replace(/\+/g, ' ')), decodeURIComponent(secret));
  } catch {
    // Not percent-encoded text: no decoded form.
  }
  const bytes = Buffer.from(secret, 'utf8');
  for (let pad = 0; pad < 3; pad++) {
    const base64 = Buffer.concat([Buffer.alloc(pad), bytes]).toString('base64');
    const core = base64.slice(Math.ceil((8 * pad) / 6), Math.floor((8 * (pad + bytes.length)) / 6));
    forms.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}

/**
 * Cuts each of `known` out of a text (the last guard, for values and for
 * keys). The secrets are grouped by length once and each position of a text
 * is looked up in those sets, longest first (one secret may begin with
 * another): a configuration with thousands of apps, whose secrets may share
 * a prefix, is guarded in time linear in its size, not in apps times secrets.
 */
export function secretGuard(knownSecrets: Iterable<string>): (text: string) => string {
  const byLength = new Map<number, Set<string>>();
  for (const known of knownSecrets) {
    if (known.length < minimumSecretLength) continue;
    for (const secret of secretForms(known)) {
      if (secret.length < minimumSecretLength) continue;
      const same = byLength.get(secret.length) ?? new Set<string>();
      byLength.set(secret.length, same.add(secret));
    }
  }
  const lengths = [...byLength.keys()].sort((a, b) => b - a);
  const shortest = lengths.at(-1) ?? Infinity;
  return (text) => {
    if (text.length < shortest) return text;
    let result = '';
    let copied = 0;
    for (let i = 0; i + shortest <= text.length; ) {
      const length = lengths.find((candidate) => i + candidate <= text.length && byLength.get(candidate)!.has(text.slice(i, i + candidate)));
      if (length === undefined) {
        i++;
        continue;
      }
      result += `${text.slice(copied, i)}${mask}`;
      i += length;
      copied = i;
    }
    return copied === 0 ? text : result + text.slice(copied);
  };
}

/**
 * A copy of a configuration with every secret masked, by the one rule the
 * error messages use (safe-config-errors.ts): values under secret-looking
 * keys (`secret`, `password`, `passphrase`, `token`, names ending in `key`
 * but not `key` itself, the app's public key), every webhook header value,
 * the credentials and query values of URLs, the path of webhook URLs, and
 * `user:password@` in any other text. As a last guard, any text (value or
 * key) still containing one of `known` (the secrets found in the file and the
 * environment), or its percent-encoded, decoded or base64 form, has it cut
 * out.
 */
export function maskSecrets(value: unknown, known: Iterable<string> = [], key = ''): unknown {
  const guard = secretGuard(known);
  // `parentKey`: the key holding the object `node` sits in, to tell a webhook's `url` from a Redis one.
  const walk = (node: unknown, ruleKey: string, parentKey: string): unknown => {
    if (isSecretKey(ruleKey) && node !== undefined && node !== null && node !== '' && typeof node !== 'object') return mask;
    if (typeof node === 'string') return guard(isUrlKey(ruleKey) ? maskUrl(node, { maskPath: parentKey === 'webhooks' }) : maskUserinfo(node));
    if (Array.isArray(node)) return node.map((item) => walk(item, ruleKey, parentKey));
    if (typeof node === 'object' && node !== null) {
      return Object.fromEntries(Object.entries(node).map(([child, item]) => [guard(child), walk(item, ruleKeyOf(ruleKey, child), ruleKey)]));
    }
    return node;
  };
  return walk(value, key, '');
}
