import { isSecretKey as defaultIsSecretKey, isUrlKey as defaultIsUrlKey, isWebhookKey } from './key-rules.js';

/** How `value()` judges keys; each defaults to the package's rule. A host passes its own to share them with code that finds its secrets. */
export interface ValueKeyRules {
  /** Whether a value under this key is a secret as a whole. Default `isSecretKey`. */
  readonly isSecretKey?: ((key: string) => boolean) | undefined;
  /** Whether a string under this key is one URL. Default `isUrlKey`. */
  readonly isUrlKey?: ((key: string) => boolean) | undefined;
  /** The key a child is judged by. Default: a child of `headers` is judged as `secret` (any header may carry a credential), others by their own key. */
  readonly childKey?: ((parentKey: string, childKey: string) => string) | undefined;
}

export interface ValueMasking {
  readonly valueMarker: string;
  /** A URL under a URL key; `secretPath` for webhook URLs. */
  url(url: string, secretPath: boolean): string;
  /** Any other string. */
  text(text: string): string;
  /** A key. */
  key(key: string): string;
}

/** Deeper values (or a value that holds itself) are replaced whole: a printed copy needs no more. */
const maxDepth = 256;

/**
 * A copy of a value tree with its secrets masked, judged by key:
 *
 * - a value under a secret-looking key (`isSecretKey`) is replaced whole, and so
 *   is every value under `headers` (any header may carry a credential);
 * - a string under a URL key (`isUrlKey`) is masked as a URL, its path too when
 *   the key or its parent names a webhook (Slack, Discord and Zapier keep the
 *   credential there);
 * - every other string is masked as free text, and every key as a text that
 *   may hold a known secret.
 *
 * Arrays stay arrays; any other object becomes a plain object of its own
 * enumerable string keys.
 */
export function maskValue(value: unknown, masking: ValueMasking, key = '', rules: ValueKeyRules = {}): unknown {
  const { isSecretKey = defaultIsSecretKey, isUrlKey = defaultIsUrlKey, childKey = headerValuesAreSecrets } = rules;
  const ancestors = new Set<object>();
  // `parentKey`: the key holding the object `node` sits in, to tell a webhook's `url` from a Redis one.
  const walk = (node: unknown, ruleKey: string, parentKey: string, depth: number): unknown => {
    if (isSecretKey(ruleKey) && node !== undefined && node !== null && node !== '' && typeof node !== 'object') return masking.valueMarker;
    if (typeof node === 'string') return isUrlKey(ruleKey) ? masking.url(node, isWebhookKey(ruleKey) || isWebhookKey(parentKey)) : masking.text(node);
    if (typeof node !== 'object' || node === null) return node;
    if (depth > maxDepth || ancestors.has(node)) return masking.valueMarker;
    ancestors.add(node);
    try {
      if (Array.isArray(node)) return node.map((item) => walk(item, ruleKey, parentKey, depth + 1));
      return Object.fromEntries(Object.entries(node).map(([child, item]) => [masking.key(child), walk(item, childKey(ruleKey, child), ruleKey, depth + 1)]));
    } finally {
      ancestors.delete(node);
    }
  };
  return walk(value, key, '', 0);
}

function headerValuesAreSecrets(parentKey: string, childKey: string): string {
  return /^headers$/i.test(parentKey) ? 'secret' : childKey;
}
