import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { loadConfig } from './load-config.js';
import { findDuplicateYamlKey } from './yaml-duplicate-keys.js';

function file(name: string, content: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'realtime-dupkeys-')), name);
  writeFileSync(path, content);
  return path;
}

/** Where the yaml package's own (quadratic) check reports the first duplicate: the behaviour kept. */
function packageDuplicate(text: string): number | undefined {
  return parseDocument(text, { prettyErrors: false, uniqueKeys: true, logLevel: 'error' }).errors.find((error) => error.code === 'DUPLICATE_KEY')?.pos[0];
}

const cases: Record<string, string> = {
  block: 'a: 1\nb: 2\na: 3\n',
  flow: 'x: {a: 1, b: 2, a: 3}\n',
  nested: 'servers:\n  main:\n    port: 1\n    host: h\n    port: 2\n',
  'in a sequence': 'applications:\n  - {id: "1", key: k}\n  - id: "2"\n    id: "3"\n',
  'merge keys twice': 'b: &x {a: 1}\nc:\n  <<: *x\n  <<: {b: 1}\n',
  'null and ~': 'null: 1\n~: 2\n',
  'quoted and plain': 'a: 1\n"a": 2\n',
  'in a key collection': '? {a: 1, a: 2}\n: v\n',
};
const allowed: Record<string, string> = {
  'same key in two mappings': 'a: {k: 1}\nb: {k: 1}\n',
  'number and string': '1: a\n"1": b\n',
  'merge key then an override': 'b: &x {a: 1}\nc:\n  <<: *x\n  a: 2\n',
  'collection keys': '? [1]\n: 1\n? [1]\n: 2\n',
  NaN: '.nan: 1\n.NaN: 2\n',
  'flow pairs in a sequence (one mapping each)': 'x: [a: 1, a: 2]\n',
};

describe('findDuplicateYamlKey', () => {
  it.each(Object.entries(cases))('finds a key given twice (%s) where the yaml package did', (_name, text) => {
    const expected = packageDuplicate(text);
    expect(expected).toBeTypeOf('number');
    const document = parseDocument(text, { uniqueKeys: false, logLevel: 'error' });
    expect(findDuplicateYamlKey(document.contents)).toEqual({ offset: expected });
  });

  it.each(Object.entries(allowed))('accepts what the yaml package accepted (%s)', (_name, text) => {
    expect(packageDuplicate(text)).toBeUndefined();
    expect(findDuplicateYamlKey(parseDocument(text, { uniqueKeys: false, logLevel: 'error' }).contents)).toBeUndefined();
  });

  it('looks at each key once: linear in the size of a mapping', () => {
    const keys = 40_000;
    const text = `logging:\n  scopes:\n${Array.from({ length: keys }, (_, i) => `    s${i}: true\n`).join('')}`;
    let visits = 0;
    expect(findDuplicateYamlKey(parseDocument(text, { uniqueKeys: false }).contents, () => visits++)).toBeUndefined();
    expect(visits).toBe(keys + 2);
  });
});

describe('loadConfig with keys given twice', () => {
  it('refuses them with the message it gave before (line, column, key path, what was wrong)', async () => {
    await expect(loadConfig({ file: file('c.yaml', 'servers:\n  main:\n    port: 1\n    port: 2\n'), env: {} })).rejects.toThrow(
      /is not valid YAML at line 4, column 5 \(in servers\.\*\.port\): a key given twice$/,
    );
    await expect(loadConfig({ file: file('c.yaml', 'servers: {main: {port: 1, port: 2}}\n'), env: {} })).rejects.toThrow(
      /is not valid YAML at line 1, column 27 \(in servers\.\*\.port\): a key given twice$/,
    );
  });

  it('loads a mapping of 100 000 keys (a file of 2 MB) within the test timeout', async () => {
    const scopes = Array.from({ length: 100_000 }, (_, i) => `    s${i}: true\n`).join('');
    const { config } = await loadConfig({ file: file('many.yaml', `logging:\n  scopes:\n${scopes}`), env: {} });
    expect(Object.keys(config.logging.scopes as object)).toHaveLength(100_000);
  }, 60_000);
});
