/**
 * Configuration errors go to stderr and to logs, which are widely read. The
 * config holds app secrets, Redis passwords, TLS passphrases and webhook
 * tokens, so no error message quotes the file: the parsers' own messages
 * (the yaml package's code frame, V8's JSON snippet) are never used. A
 * message names the line and column, the key path, and what was wrong
 * (text-position.ts, shown-keys.ts, json-syntax-errors.ts,
 * yaml-syntax-errors.ts). As a last guard, every value found under a
 * secret-looking key is cut out of the message: the secrets are found here.
 */

import { cutSecrets, isSecretKey } from '@org/secret-masking';

/**
 * The one secret rule, @org/secret-masking's, shared by error messages (cut
 * out), `config print` (masked), webhooks and chat-notifier: a value under a
 * secret-looking key (`secret`, `password`, `token`, names ending in `key` but
 * not `key` itself, the app's public key) is a secret, and so is every value
 * under `headers` (any header may carry a credential).
 */
export { isSecretKey };

/** The key the rule judges a child by: every header value counts as a secret, whatever the header's name. */
export function ruleKeyOf(parentKey: string, childKey: string): string {
  return parentKey === 'headers' ? 'secret' : childKey;
}

/** Keys holding URLs, whose credentials and query values are secrets. */
export function isUrlKey(key: string): boolean {
  return /url$/i.test(key);
}

/** Shorter values are not treated as secrets by the last guard: cutting them would cut ordinary words. */
export const minimumSecretLength = 4;

function addUrlSecrets(url: string, into: Set<string>): void {
  try {
    const parsed = new URL(url);
    for (const part of [parsed.username, parsed.password, decodeURIComponent(parsed.password), ...parsed.searchParams.values()]) {
      if (part.length >= minimumSecretLength) into.add(part);
    }
  } catch {
    // Not a URL: nothing to take from it.
  }
}

/** Values under secret-looking keys (and in `headers`, and credentials in URLs) of a parsed document. */
export function secretsInValue(value: unknown, into = new Set<string>(), key = '', depth = 0): Set<string> {
  if (depth > 64) return into;
  if (typeof value === 'string') {
    if (isSecretKey(key) && value.length >= minimumSecretLength) into.add(value);
    if (isUrlKey(key)) addUrlSecrets(value, into);
  } else if (Array.isArray(value)) {
    for (const item of value) secretsInValue(item, into, key, depth + 1);
  } else if (typeof value === 'object' && value !== null) {
    for (const [child, item] of Object.entries(value)) {
      secretsInValue(item, into, ruleKeyOf(key, child), depth + 1);
    }
  }
  return into;
}

/**
 * Secret-looking values in a document's text, for when it does not parse:
 * what follows a secret-looking key on its line, with and without quotes
 * and trailing `,` `}` `]`, and credentials in URLs.
 */
export function secretsInText(text: string, into = new Set<string>()): Set<string> {
  const add = (candidate: string) => {
    const value = candidate.trim();
    if (value.length >= minimumSecretLength) into.add(value);
  };
  for (const line of text.split(/\r?\n/)) {
    // Every `key:` on the line (a flow mapping holds several). The lookbehind starts a key only where a word
    // starts: without it a long run of letters is rescanned from each of its characters (quadratic).
    let seen = 0;
    for (const match of line.matchAll(/(?<![A-Za-z0-9_-])([A-Za-z0-9_-]+)["']?\s*:/g)) {
      if (!match[1] || !isSecretKey(match[1])) continue;
      // Bounded work for a hostile file: a real line holds a few such keys, and no secret is this long.
      if (++seen > maxSecretKeysPerLine) break;
      const start = match.index + match[0].length;
      const rest = line.slice(start, start + maxSecretLength);
      add(rest);
      const trimmed = trimEnd(rest, /[\s,}\]]/);
      add(trimmed);
      add(trimmed.replace(/^\s*["']|["']$/g, ''));
      // The value alone: quoted up to its closing quote, else up to the first separator.
      const quoted = /^\s*(["'])(.*?)\1/.exec(rest);
      if (quoted?.[2]) add(quoted[2]);
      const bare = /^\s*["']?([^\s,{}[\]"']+)/.exec(rest);
      if (bare?.[1]) add(bare[1]);
    }
    for (const url of line.match(/(?<![a-z0-9+.-])[a-z][a-z0-9+.-]*:\/\/[^\s"',}\]]+/gi) ?? []) addUrlSecrets(url, into);
  }
  return into;
}

const maxSecretKeysPerLine = 64;
const maxSecretLength = 4_096;

/** `text` without trailing characters `pattern` matches; a loop, as `/[...]+$/` is quadratic on a long run of them. */
function trimEnd(text: string, pattern: RegExp): string {
  let end = text.length;
  while (end > 0 && pattern.test(text[end - 1]!)) end--;
  return text.slice(0, end);
}

/**
 * Cuts every known secret out of a message by @org/secret-masking's rule:
 * leftmost-longest (one secret may contain another), ignoring case, as written
 * and JSON-escaped (the only ways these messages quote anything: its `plain`
 * forms; every encoded form of them all took seconds for a 100 KB file). The
 * candidates come from hostile text (up to 64 a line, 4 KB each: tens of times
 * the file's size), so they go to `cutSecrets`, which skips those longer than
 * the message and builds its automata a bounded batch at a time: linear time,
 * bounded memory, the same cuts as one masker of them all.
 */
export function redactSecrets(message: string, secrets: Iterable<string>): string {
  return cutSecrets(message, secrets, { minLength: minimumSecretLength, forms: 'plain' });
}
