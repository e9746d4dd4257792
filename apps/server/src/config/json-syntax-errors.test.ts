import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { findJsonSyntaxError } from './json-syntax-errors.js';
import { loadConfig } from './load-config.js';

const dir = mkdtempSync(join(tmpdir(), 'realtime-json-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
async function messageFor(text: string): Promise<string> {
  const file = join(dir, `c${files++}.json`);
  writeFileSync(file, text);
  const error = await loadConfig({ file, env: {} }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return (error as Error).message.replace(file, 'FILE');
}

/** Each thing a JSON syntax error can say, with where it says it: the messages as they were, byte for byte. */
const messages: [string, string][] = [
  ['{"servers": {"main" {"port": 1}}}', 'at line 1, column 21 (in servers.main): expected ":" after the key'],
  ['{"servers": {"main": {"port": 1 "host": "h"}}}', 'at line 1, column 33 (in servers.main): expected "," or "}" after the value'],
  ['{"applications": [{"id": "1"} {"id": "2"}]}', 'at line 1, column 31 (in applications): expected "," or "]" after the value'],
  ['{"applications": [{"id": "1",}]}', 'at line 1, column 30 (in applications.0): expected a key in double quotes'],
  ['[1,]', 'at line 1, column 4 (in 1): expected a value (strings need double quotes)'],
  ['{"workers": tru}', 'at line 1, column 13 (in workers): expected a value (strings need double quotes)'],
  ['{"metrics": {"port": -}}', 'at line 1, column 22 (in metrics.port): expected a value (strings need double quotes)'],
  ['', 'at line 1, column 1: expected a value (strings need double quotes)'],
  ['{} x', 'at line 1, column 4: expected the end of the file'],
  ['{"logging": {"log_file": "a\\qb"}}', 'at line 1, column 28 (in logging.log_file): expected a valid escape sequence'],
  ['{"logging": {"log_file": "a\\u12x4"}}', 'at line 1, column 28 (in logging.log_file): expected a valid \\u escape'],
  ['{"redis": {"host": "abc', 'at line 1, column 20 (in redis.host): expected a closing quote'],
  ['{"redis": {"host": "ab\nc"}}', 'at line 1, column 23 (in redis.host): expected a closing quote (strings cannot span lines)'],
  // A number or literal that stops short is read as far as it is valid: what follows is out of place.
  ['{"servers": {"main": {"port": 1.}}}', 'at line 1, column 32 (in servers.main): expected "," or "}" after the value'],
  ['{"metrics": {"port": 01}}', 'at line 1, column 23 (in metrics): expected "," or "}" after the value'],
  ['{"metrics": {"port": 1e}}', 'at line 1, column 23 (in metrics): expected "," or "}" after the value'],
  ['{"scaling": {"enabled": truex}}', 'at line 1, column 29 (in scaling): expected "," or "}" after the value'],
  // Comments are not JSON.
  ['{\n  "logging": {\n    "debug_enabled": true // on\n  }\n}', 'at line 3, column 27 (in logging): expected "," or "}" after the value'],
  // Keys are shown as written: an escaped one, or one that is not word-like, as `*`.
  ['{"sca\\u006cing": {"enabled" true}}', 'at line 1, column 29 (in *.enabled): expected ":" after the key'],
  ['{"0bad": [1 2]}', 'at line 1, column 13 (in *): expected "," or "]" after the value'],
];

describe('JSON syntax errors', () => {
  it.each(messages)('%j: %s', async (text, where) => {
    expect(await messageFor(text)).toBe(`config file FILE is not valid JSON ${where}`);
  });

  it('stop at 512 levels of nesting, naming the key path down to there', async () => {
    const arrays = await messageFor(`{"logging": {"scopes": ${'['.repeat(600)}`);
    expect(arrays).toBe(`config file FILE is not valid JSON at line 1, column 535 (in logging.scopes${'.0'.repeat(511)}): expected less nesting`);
    const objects = await messageFor(`{"a": ${'{"a": '.repeat(600)}`);
    expect(objects).toBe(`config file FILE is not valid JSON at line 1, column 3078 (in ${Array(513).fill('a').join('.')}): expected less nesting`);
  });
});

/** Text that breaks JSON: its own characters, escapes, numbers cut short, comments, NUL, unicode, a BOM. */
const jsonPieces = fc.constantFrom(...['{', '}', '[', ']', ':', ',', '"', '\\', '\\u12', '\\x', ' ', '\n', '\t', '\r', '-', '.', 'e', '0', '01', '1.', 'true', 'tru', 'nullx', '/', '//', '/*', "'", '\u0000', '\u00e9', '\u{1F600}', '\uFEFF', '\u00a0', 'x']);
const hostileJson = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 100 }),
  fc.array(jsonPieces, { maxLength: 40 }).map((pieces) => pieces.join('')),
  fc.tuple(fc.jsonValue({ maxDepth: 4 }), fc.nat(), jsonPieces).map(([value, at, piece]) => {
    const text = JSON.stringify(value, null, 2);
    const cut = at % (text.length + 1);
    return text.slice(0, cut) + piece + text.slice(cut);
  }),
  fc.tuple(fc.integer({ min: 1, max: 20_000 }), fc.constantFrom('[', '{"a": ', '[1, '), fc.constantFrom('', '1', 'x', '"\\q"')).map(([depth, open, inner]) => open.repeat(depth) + inner),
);
const vocabulary = /^(a value \(strings need double quotes\)|a key in double quotes|":" after the key|"," or "[}\]]" after the value|the end of the file|less nesting|a closing quote( \(strings cannot span lines\))?|a valid (\\u )?escape( sequence)?)$/;

describe('findJsonSyntaxError', () => {
  it('finds an error exactly where JSON.parse refuses a text, inside the text, in its own words', () => {
    fc.assert(
      fc.property(hostileJson, (text) => {
        const found = findJsonSyntaxError(text);
        expect(found === undefined).toBe(parses(text));
        if (!found) return;
        expect(found.offset).toBeGreaterThanOrEqual(0);
        expect(found.offset).toBeLessThanOrEqual(text.length);
        expect(found.expected).toMatch(vocabulary);
        expect(found.path.length).toBeLessThanOrEqual(513);
      }),
      { numRuns: 2_000 },
    );
  });
});

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
