import { isSecretKey, isUrlKey, minimumSecretLength, ruleKeyOf } from './safe-config-errors.js';

/** What a secret is shown as: the marker error messages use. */
export const mask = '[redacted]';

/**
 * A URL with its user name, password, every query value and the fragment
 * masked; the scheme, host, port and path stay readable. Text that is not a
 * URL is masked whole: where its credentials are cannot be known.
 */
export function maskUrl(text: string): string {
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
  return `${url.protocol}${authority}${url.pathname}${query}${url.hash ? `#${mask}` : ''}`;
}

/**
 * Cuts each of `known` out of a text (the last guard, for values and for
 * keys). The secrets are grouped by length once and each position of a text
 * is looked up in those sets, longest first (one secret may begin with
 * another): a configuration with thousands of apps, whose secrets may share
 * a prefix, is guarded in time linear in its size, not in apps times secrets.
 */
export function secretGuard(known: Iterable<string>): (text: string) => string {
  const byLength = new Map<number, Set<string>>();
  for (const secret of known) {
    if (secret.length < minimumSecretLength) continue;
    const same = byLength.get(secret.length) ?? new Set<string>();
    byLength.set(secret.length, same.add(secret));
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
 * and the credentials and query values of URLs. As a last guard, any text
 * (value or key) still containing one of `known` (the secrets found in the
 * file and the environment) has it cut out.
 */
export function maskSecrets(value: unknown, known: Iterable<string> = [], key = ''): unknown {
  const guard = secretGuard(known);
  const walk = (node: unknown, ruleKey: string): unknown => {
    if (isSecretKey(ruleKey) && node !== undefined && node !== null && node !== '' && typeof node !== 'object') return mask;
    if (typeof node === 'string') return guard(isUrlKey(ruleKey) ? maskUrl(node) : node);
    if (Array.isArray(node)) return node.map((item) => walk(item, ruleKey));
    if (typeof node === 'object' && node !== null) {
      return Object.fromEntries(Object.entries(node).map(([child, item]) => [guard(child), walk(item, ruleKeyOf(ruleKey, child))]));
    }
    return node;
  };
  return walk(value, key);
}
