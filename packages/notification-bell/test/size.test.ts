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

  it('loads pusher-js only behind a relative import(), inlines lit, and keeps sourcemaps and licence files', () => {
    const main = readFileSync(mainPath, 'utf8');
    // Self-contained: the main file imports nothing up front (one request before the element works).
    expect(staticImports(main)).toEqual([]);
    expect(main).not.toMatch(/from\s*["'](?:lit|@lit\/[^"']*|lit\/[^"']*|lit-html[^"']*|lit-element[^"']*)["']/);
    // pusher-js: only behind import(), by a URL relative to the main file, and not inlined.
    expect(dynamicImports(main)).toEqual([`./${BROWSER_PUSHER_FILE}`]);
    expect(main).not.toMatch(/["']pusher-js["']/);
    expect(main).not.toContain('Pusher JavaScript Library');
    const pusherCode = readFileSync(join(browserDir, BROWSER_PUSHER_FILE), 'utf8');
    expect([...staticImports(pusherCode), ...dynamicImports(pusherCode)]).toEqual([]);
    expect(pusherCode).toMatch(/export\s*default\b/);

    for (const file of [BROWSER_FILE, BROWSER_PUSHER_FILE]) {
      const code = readFileSync(join(browserDir, file), 'utf8');
      expect(code).toContain(`//# sourceMappingURL=${file}.map`);
      expect(existsSync(join(browserDir, `${file}.map`))).toBe(true);
      expect(code).toContain(`For license information please see ${file}.LEGAL.txt`);
      expect(existsSync(join(browserDir, `${file}.LEGAL.txt`))).toBe(true);
    }
  });

  it(`keeps the main file within ${BUDGET_BYTES / 1024} KB min+gzip (sizes of both builds in artifacts/size.json)`, async () => {
    const selfContained = measure(readFileSync(mainPath));
    const pusherFile = measure(readFileSync(join(browserDir, BROWSER_PUSHER_FILE)));

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
      selfContained: { file: `${BROWSER_DIR}/${BROWSER_FILE}`, ...selfContained },
      pusherFile: { file: `${BROWSER_DIR}/${BROWSER_PUSHER_FILE}`, note: 'loaded only for the ws-channels broadcaster', ...pusherFile },
      packageEntry: { file: 'dist/define.js', note: 'bundled and minified with esbuild, lit and pusher-js external', ...packageSize },
      gzip: 'node:zlib level 9',
    };
    mkdirSync(join(packageRoot, 'artifacts'), { recursive: true });
    writeFileSync(join(packageRoot, 'artifacts', 'size.json'), `${JSON.stringify(report, null, 2)}\n`);
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
    console.log(
      [
        `[notification-bell] self-contained ${report.selfContained.file}: ${kb(selfContained.minified)} minified, ${kb(selfContained.gzipped)} min+gzip (budget ${kb(BUDGET_BYTES)})`,
        `[notification-bell] pusher file (lazy, ws-channels only): ${kb(pusherFile.minified)} minified, ${kb(pusherFile.gzipped)} min+gzip`,
        `[notification-bell] package entry dist/define.js (lit external): ${kb(packageSize.minified)} minified, ${kb(packageSize.gzipped)} min+gzip`,
      ].join('\n'),
    );

    expect(selfContained.gzipped).toBeLessThanOrEqual(BUDGET_BYTES);
  });
});
