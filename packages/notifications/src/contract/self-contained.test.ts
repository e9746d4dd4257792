import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

/*
 * `@org/notifications/contract` goes into browser bundles (the bell): it must import nothing
 * but itself. Bundling its entry, with every package left external, lists what it reaches.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));

async function reached(entry: string): Promise<{ inputs: string[]; external: string[] }> {
  const result = await build({ entryPoints: [entry], bundle: true, write: false, format: 'esm', platform: 'neutral', packages: 'external', metafile: true, logLevel: 'silent' });
  const output = Object.values(result.metafile.outputs)[0] as Metafile['outputs'][string];
  return {
    inputs: Object.keys(result.metafile.inputs).map((input) => relative(root, input)).sort(),
    external: output.imports.filter((imported) => imported.external).map((imported) => imported.path),
  };
}

describe('the contract subpath is self-contained', () => {
  it('source: src/contract.ts reaches only src/contract/ and imports no package, not even node:', async () => {
    const { inputs, external } = await reached(`${root}src/contract.ts`);
    expect(external).toEqual([]);
    expect(inputs.filter((input) => input !== 'src/contract.ts' && !/^src\/contract\/[\w-]+\.ts$/.test(input))).toEqual([]);
    expect(inputs.filter((input) => input.endsWith('.test.ts'))).toEqual([]);
    // What it is made of (a new file in src/contract/ is listed here on purpose).
    expect(inputs).toEqual(['src/contract.ts', 'src/contract/headers.ts', 'src/contract/live-events.ts', 'src/contract/notifiable.ts', 'src/contract/routes.ts', 'src/contract/safe-url.ts']);
  });

  it.each(['dist/contract.js', 'dist/contract.cjs'])('built: %s reaches only built contract files and imports no package', async (file) => {
    expect(existsSync(`${root}${file}`), `${file}: run the build first`).toBe(true);
    const { inputs, external } = await reached(`${root}${file}`);
    expect(external).toEqual([]);
    // The ES module is unbundled (one file per module, so a client's bundler can split it); the CommonJS is one file.
    expect(inputs.filter((input) => input !== file && !/^dist\/contract\/[\w-]+\.js$/.test(input))).toEqual([]);
    if (file.endsWith('.js')) expect(inputs).toEqual(['dist/contract.js', 'dist/contract/headers.js', 'dist/contract/live-events.js', 'dist/contract/notifiable.js', 'dist/contract/routes.js', 'dist/contract/safe-url.js']);
    else expect(inputs).toEqual([file]);
  });
});
