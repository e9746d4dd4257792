import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './load-config.js';
import { maxYamlDepth, yamlTooDeep } from './yaml-depth.js';

/** Each kind of nesting, and a depth far past the limit (indented ones grow as its square). */
const nestings: Record<string, [(depth: number) => string, number]> = {
  'flow sequences': [(depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`, 20_000],
  'flow mappings': [(depth) => `${'{"a": '.repeat(depth)}1${'}'.repeat(depth)}`, 20_000],
  'compact block sequences': [(depth) => `${'- '.repeat(depth)}x`, 20_000],
  'indented block sequences': [(depth) => Array.from({ length: depth }, (_, i) => `${' '.repeat(i * 2)}-`).join('\n') + ' x', 1_000],
  'block mappings': [(depth) => Array.from({ length: depth }, (_, i) => `${' '.repeat(i)}k:`).join('\n') + ' 1', 1_000],
};

describe('yamlTooDeep', () => {
  for (const [name, [nest, far]] of Object.entries(nestings)) {
    it(`measures ${name} without recursion: ${maxYamlDepth} levels pass, one more does not, nor ${far}`, () => {
      expect(yamlTooDeep(nest(maxYamlDepth))).toBeUndefined();
      expect(yamlTooDeep(nest(maxYamlDepth + 1))).toEqual({ offset: expect.any(Number) });
      expect(yamlTooDeep(nest(far))).toBeDefined();
    });
  }

  it('refuses such a file with a ConfigError, as often as it is read (the yaml package alone crashes the process the second time)', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'realtime-yaml-depth-')), 'deep.yaml');
    writeFileSync(file, `servers:\n  main: ${'['.repeat(1_000)}${']'.repeat(1_000)}\n`);
    for (let read = 0; read < 3; read++) {
      await expect(loadConfig({ file, env: {} })).rejects.toThrow(`is not accepted: at line 2, column ${9 + maxYamlDepth - 2} collections nest deeper than ${maxYamlDepth} levels`);
    }
  });
});
