/*
 * Size budget of the self-contained build, measured on the real built files in
 * dist/ (what is published and what the README's <script> tag loads). CI runs
 * `turbo run test`, whose `test` task depends on this package's `build`.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { BROWSER_DIR, BROWSER_FILE, BROWSER_PUSHER_FILE } from '../tsup.config.js';
import { newestSourceChange } from './static-server.js';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The self-contained main file (everything a page loads before the element works) must stay under this, min+gzip. */
const BUDGET_BYTES = 20 * 1024;

interface Measured {
  minified: number;
  gzipped: number;
}

const measure = (code: Uint8Array | string): Measured => {
  const bytes = typeof code === 'string' ? Buffer.from(code) : code;
  return { minified: bytes.byteLength, gzipped: gzipSync(bytes, { level: 9 }).byteLength };
};

/** Relative static imports (`import{a}from"./chunk-X.js"`, `import"./x.js"`) of a minified ES module. */
function staticImports(code: string): string[] {
  return [...code.matchAll(/(?:^|[;}\s])import\s*(?:[\w${},*\s]+from\s*)?["']([^"']+)["']/g)].map((match) => match[1] ?? '');
}
function dynamicImports(code: string): string[] {
  return [...code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((match) => match[1] ?? '');
}

const browserDir = join(packageRoot, BROWSER_DIR);
const mainPath = join(browserDir, BROWSER_FILE);

describe('self-contained build: size budget and shape', () => {
  it('is built (turbo runs build before test)', () => {
    expect(existsSync(mainPath), `${relative(packageRoot, mainPath)} is missing: run \`pnpm --filter @org/notification-bell build\` first`).toBe(true);
    const builtAt = statSync(mainPath).mtimeMs;
    const changed = newestSourceChange(join(packageRoot, 'src'));
    if (changed.mtimeMs > builtAt) {
      console.warn(`[notification-bell] ${relative(packageRoot, changed.path)} changed after the last build: the sizes below are of the previous build.`);
    }
  });

  it('has a built file behind every package.json export', () => {
    const { exports } = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { exports: Record<string, string | Record<string, string>> };
    const targets = Object.values(exports).flatMap((target) => (typeof target === 'string' ? [target] : Object.values(target)));
    expect(targets).toContain(`./${BROWSER_DIR}/${BROWSER_FILE}`);
    for (const target of targets) expect(existsSync(join(packageRoot, target)), target).toBe(true);
  });

  it(`keeps the main file under ${BUDGET_BYTES / 1024} KB min+gzip, pusher-js in a lazily imported chunk, no bare imports, with sourcemaps`, async () => {
    const main = readFileSync(mainPath, 'utf8');

    // Everything loaded before the element works: the main file and whatever it imports statically.
    const loadedUpFront = [BROWSER_FILE];
    for (let index = 0; index < loadedUpFront.length; index++) {
      const code = readFileSync(join(browserDir, loadedUpFront[index] ?? ''), 'utf8');
      for (const specifier of staticImports(code)) {
        expect(specifier, `static import in ${loadedUpFront[index]}`).toMatch(/^\.\//);
        const file = specifier.slice(2);
        if (!loadedUpFront.includes(file)) loadedUpFront.push(file);
      }
    }
    const upFront = measure(loadedUpFront.map((file) => readFileSync(join(browserDir, file), 'utf8')).join('\n'));

    // pusher-js: only behind import(), by a URL relative to the main file, and not inlined.
    const lazy = dynamicImports(main);
    expect(lazy).toEqual([`./${BROWSER_PUSHER_FILE}`]);
    expect(main).not.toMatch(/["']pusher-js["']/);
    expect(main).not.toContain('Pusher JavaScript Library');
    const pusherCode = readFileSync(join(browserDir, BROWSER_PUSHER_FILE), 'utf8');
    const pusherChunk = measure(pusherCode);
    expect([...staticImports(pusherCode), ...dynamicImports(pusherCode)]).toEqual([]);
    expect(pusherCode).toMatch(/export\s*default\b/);
    // lit is inlined: no bare "lit" or "@lit/..." specifier anywhere.
    expect(main).not.toMatch(/from\s*["'](?:lit|@lit\/[^"']*|lit\/[^"']*|lit-html[^"']*|lit-element[^"']*)["']/);

    // Sourcemaps and licence notices beside each file.
    for (const file of [BROWSER_FILE, BROWSER_PUSHER_FILE]) {
      const code = readFileSync(join(browserDir, file), 'utf8');
      expect(code).toContain(`//# sourceMappingURL=${file}.map`);
      expect(existsSync(join(browserDir, `${file}.map`))).toBe(true);
      expect(code).toContain(`For license information please see ${file}.LEGAL.txt`);
      expect(existsSync(join(browserDir, `${file}.LEGAL.txt`))).toBe(true);
    }

    // The package entry for bundlers (`/define`, lit and pusher-js left to the app), minified as an app's bundler would.
    const packageEntry = await build({
      entryPoints: [join(packageRoot, 'dist', 'define.js')],
      bundle: true,
      minify: true,
      format: 'esm',
      target: 'es2022',
      write: false,
      external: ['lit', 'lit/*', '@lit/*', 'pusher-js'],
      logLevel: 'silent',
    });
    const packageSize = measure(packageEntry.outputFiles[0]?.contents ?? new Uint8Array());

    const report = {
      budget: { file: `${BROWSER_DIR}/${BROWSER_FILE}`, maxGzipped: BUDGET_BYTES },
      selfContained: { file: `${BROWSER_DIR}/${BROWSER_FILE}`, files: loadedUpFront, ...upFront },
      pusherChunk: { file: `${BROWSER_DIR}/${BROWSER_PUSHER_FILE}`, ...pusherChunk },
      packageEntry: { file: 'dist/define.js', note: 'bundled and minified with esbuild, lit and pusher-js external', ...packageSize },
      gzip: 'node:zlib level 9',
    };
    mkdirSync(join(packageRoot, 'artifacts'), { recursive: true });
    writeFileSync(join(packageRoot, 'artifacts', 'size.json'), `${JSON.stringify(report, null, 2)}\n`);
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
    console.log(
      [
        `[notification-bell] self-contained ${report.selfContained.file}: ${kb(upFront.minified)} minified, ${kb(upFront.gzipped)} min+gzip (budget ${kb(BUDGET_BYTES)})`,
        `[notification-bell] pusher chunk (lazy, ws-channels only): ${kb(pusherChunk.minified)} minified, ${kb(pusherChunk.gzipped)} min+gzip`,
        `[notification-bell] package entry dist/define.js (lit external): ${kb(packageSize.minified)} minified, ${kb(packageSize.gzipped)} min+gzip`,
      ].join('\n'),
    );

    expect(upFront.gzipped).toBeLessThanOrEqual(BUDGET_BYTES);
  });
});
