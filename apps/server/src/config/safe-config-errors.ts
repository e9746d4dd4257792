import { isMap, isNode, isScalar, isSeq } from 'yaml';
import { configSchema } from './schema.js';

/**
 * Configuration errors go to stderr and to logs, which are widely read. The
 * config holds app secrets, Redis passwords, TLS passphrases and webhook
 * tokens, so no error message quotes the file: the parsers' own messages
 * (the yaml package's code frame, V8's JSON snippet) are never used. A
 * message names the line and column, the key path, and what was wrong.
 *
 * Key names are config words and are shown; a name that is neither a known
 * config key nor word-like (letters, `_`, `-`; no digits) may be a value that
 * a broken document turned into a key, and is shown as `*`. As a last guard,
 * every value found under a secret-looking key is cut out of the message.
 */

type PathSegment = string | number;

/** Every key the schema knows, at any depth. */
const knownKeys: ReadonlySet<string> = (() => {
  const keys = new Set<string>();
  const visit = (schema: unknown, depth: number): void => {
    const def = (schema as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
    if (!def || depth > 20) return;
    switch (def['type']) {
      case 'object':
        for (const [key, child] of Object.entries(def['shape'] as Record<string, unknown>)) {
          keys.add(key);
          visit(child, depth + 1);
        }
        return;
      case 'array':
        return visit(def['element'], depth + 1);
      case 'record':
        return visit(def['valueType'], depth + 1);
      case 'union':
        for (const option of def['options'] as unknown[]) visit(option, depth + 1);
        return;
      case 'pipe':
        visit(def['in'], depth + 1);
        return visit(def['out'], depth + 1);
      default:
        if ('innerType' in def) visit(def['innerType'], depth + 1);
    }
  };
  visit(configSchema, 0);
  return keys;
})();

const wordLike = /^[A-Za-z_-]{1,40}$/;

/** A key as it may appear in a message: known or word-like, else `*`. */
export function showKey(key: PathSegment): string {
  if (typeof key === 'number') return String(key);
  return knownKeys.has(key) || wordLike.test(key) ? key : '*';
}

/** Array indices are numbers; everything else a key. `(root)` for the empty path. */
export function formatPath(path: readonly PathSegment[]): string {
  return path.length ? path.map(showKey).join('.') : '(root)';
}

/** 1-based line and column of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: before.length - lineStart + 1 };
}

/** Fixed descriptions of the yaml package's error codes (its messages may quote the text). */
const yamlProblems: Partial<Record<string, string>> = {
  BAD_INDENT: 'bad indentation, or an unclosed { or [',
  TAB_AS_INDENT: 'a tab used as indentation (use spaces)',
  BLOCK_AS_IMPLICIT_KEY: 'a nested mapping where a plain value was expected (quote values that contain ": ")',
  MISSING_CHAR: 'a missing closing quote or bracket',
  BAD_DQ_ESCAPE: 'an invalid escape sequence in a double-quoted string',
  DUPLICATE_KEY: 'a key given twice',
  MULTILINE_IMPLICIT_KEY: 'a key that spans several lines, or a missing ":"',
  UNEXPECTED_TOKEN: 'an unexpected character',
  BAD_SCALAR_START: 'a plain value that starts with a reserved character (quote it)',
  BLOCK_IN_FLOW: 'block syntax inside { } or [ ]',
  MULTIPLE_DOCS: 'more than one YAML document',
  KEY_OVER_1024_CHARS: 'a key longer than 1024 characters',
  BAD_ALIAS: 'an invalid alias (*name)',
  ALIAS_PROPS: 'an alias (*name) with an anchor or tag',
  BAD_DIRECTIVE: 'an invalid % directive',
  BAD_PROP_ORDER: 'an anchor or tag in the wrong place',
  MULTIPLE_ANCHORS: 'several anchors on one value',
  MULTIPLE_TAGS: 'several tags on one value',
  NON_STRING_KEY: 'a key that is not a string',
  BAD_COLLECTION_TYPE: 'a tag that does not fit its collection',
  RESOURCE_EXHAUSTION: 'too many aliases',
};

export function describeYamlProblem(code: string): string {
  return yamlProblems[code] ?? 'a syntax error';
}

/** The key path to the pair around `offset` in a (possibly partial) YAML document. */
export function yamlPathAt(node: unknown, offset: number, path: PathSegment[] = [], depth = 0): PathSegment[] {
  if (depth > 100) return path;
  if (isMap(node)) {
    let hit: (typeof node.items)[number] | undefined;
    for (const pair of node.items) {
      const start = isNode(pair.key) ? pair.key.range?.[0] : undefined;
      if (start !== undefined && start <= offset) hit = pair;
    }
    if (!hit) return path;
    const key = isScalar(hit.key) && (typeof hit.key.value === 'string' || typeof hit.key.value === 'number') ? String(hit.key.value) : '*';
    // Keys of a partial document may be text that was meant as a value: only known ones are named.
    const next = [...path, knownKeys.has(key) ? key : '*'];
    const value = hit.value;
    return isNode(value) && value.range && value.range[0] <= offset ? yamlPathAt(value, offset, next, depth + 1) : next;
  }
  if (isSeq(node)) {
    let index = -1;
    node.items.forEach((item, i) => {
      const start = isNode(item) ? item.range?.[0] : undefined;
      if (start !== undefined && start <= offset) index = i;
    });
    return index < 0 ? path : yamlPathAt(node.items[index], offset, [...path, index], depth + 1);
  }
  return path;
}

export interface JsonSyntaxError {
  offset: number;
  /** What was expected there. */
  expected: string;
  path: PathSegment[];
}

class JsonStop extends Error {
  constructor(
    readonly offset: number,
    readonly expected: string,
  ) {
    super(expected);
  }
}

/**
 * Where JSON.parse failed, found again by a small scanner: V8's message
 * quotes the text around the error, and has no position for some errors.
 * Undefined when the text is valid JSON after all.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  let i = 0;
  const path: PathSegment[] = [];
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const expect = (char: string, what: string) => {
    if (text[i] !== char) throw new JsonStop(i, what);
    i++;
  };
  const string = (): string => {
    const start = ++i;
    let raw = '';
    while (i < text.length && text[i] !== '"') {
      const c = text.charCodeAt(i);
      if (c < 0x20) throw new JsonStop(i, 'a closing quote (strings cannot span lines)');
      if (text[i] === '\\') {
        const escape = text[i + 1];
        if (escape === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) throw new JsonStop(i, 'a valid \\u escape');
          i += 6;
          continue;
        }
        if (escape === undefined || !'"\\/bfnrt'.includes(escape)) throw new JsonStop(i, 'a valid escape sequence');
        i += 2;
        continue;
      }
      i++;
    }
    if (i >= text.length) throw new JsonStop(start - 1, 'a closing quote');
    raw = text.slice(start, i);
    i++;
    return raw;
  };
  const value = (depth: number): void => {
    if (depth > 512) throw new JsonStop(i, 'less nesting');
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') throw new JsonStop(i, 'a key in double quotes');
        path.push(string());
        ws();
        expect(':', '":" after the key');
        value(depth + 1);
        path.pop();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        return expect('}', '"," or "}" after the value');
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (let index = 0; ; index++) {
        path.push(index);
        value(depth + 1);
        path.pop();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        return expect(']', '"," or "]" after the value');
      }
    }
    if (c === '"') return void string();
    for (const literal of ['true', 'false', 'null']) {
      if (text.startsWith(literal, i)) return void (i += literal.length);
    }
    const number = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    number.lastIndex = i;
    if (c !== undefined && number.test(text)) return void (i = number.lastIndex);
    throw new JsonStop(i, 'a value (strings need double quotes)');
  };
  try {
    value(0);
    ws();
    if (i < text.length) throw new JsonStop(i, 'the end of the file');
    return undefined;
  } catch (error) {
    if (!(error instanceof JsonStop)) throw error;
    return { offset: Math.min(error.offset, text.length), expected: error.expected, path: [...path] };
  }
}

/** Keys whose values are secrets; `key` itself is the app's public key (or a file path), `url` is handled apart. */
const secretKey = /secret|password|passphrase|token|authori[sz]ation|credential|cookie|.key$|_key|key_/i;

/**
 * The one secret rule, shared by error messages (cut out) and `config print`
 * (masked): a value under such a key is a secret, and so is every value
 * under `headers` (any header may carry a credential).
 */
export function isSecretKey(key: string): boolean {
  return secretKey.test(key);
}

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

/** Cuts every known secret out of a message, longest first (one secret may contain another). */
export function redactSecrets(message: string, secrets: Iterable<string>): string {
  let redacted = message;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret.length >= minimumSecretLength) redacted = redacted.replaceAll(secret, '[redacted]');
  }
  return redacted;
}
