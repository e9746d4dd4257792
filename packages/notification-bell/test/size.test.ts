/*
 * Size budget of the self-contained build, measured on the real built files in
 * dist/ (what is published and what the README's <script> tag loads). CI runs
 * `turbo run test`, whose `test` task depends on this package's `build`.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { BROWSER_CHUNK, BROWSER_DIR, BROWSER_FILE, BROWSER_PUSHER_FILE } from '../tsup.config.js';
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

/** The one lazy chunk of this kind beside the main file (its name carries a content hash). */
function chunkFile(kind: keyof typeof BROWSER_CHUNK): string {
  const found = readdirSync(browserDir).filter((file) => BROWSER_CHUNK[kind].test(file));
  expect(found, `one ${kind} chunk in ${BROWSER_DIR}`).toHaveLength(1);
  return found[0] ?? '';
}
const read = (file: string) => readFileSync(join(browserDir, file), 'utf8');
/** The sources a built file was made from (its source map), to find code that two files both carry. */
const sourcesOf = (file: string) => (JSON.parse(read(`${file}.map`)) as { sources: string[] }).sources.filter((source) => !source.startsWith('shared-chunk:'));

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

  it('main file: no static import (one request before the element works); our lazy chunks and pusher-js only behind relative import()', () => {
    const main = read(BROWSER_FILE);
    const panel = chunkFile('panel');
    const transports = chunkFile('transports');
    // Self-contained: the main file imports nothing up front.
    expect(staticImports(main)).toEqual([]);
    expect(main).not.toMatch(/from\s*["'](?:lit|@lit\/[^"']*|lit\/[^"']*|lit-html[^"']*|lit-element[^"']*)["']/);
    expect(dynamicImports(main).sort()).toEqual([`./${panel}`, `./${transports}`].sort());
    // The lazy chunks take what they share with the main file from it (already loaded: no request).
    for (const chunk of [panel, transports]) expect(new Set(staticImports(read(chunk)))).toEqual(new Set([`./${BROWSER_FILE}`]));
    expect(dynamicImports(read(panel))).toEqual([]);
    // pusher-js: only from the transports chunk, by a URL relative to it, and not inlined anywhere.
    expect(dynamicImports(read(transports))).toEqual([`./${BROWSER_PUSHER_FILE}`]);
    for (const file of [BROWSER_FILE, panel, transports]) {
      expect(read(file)).not.toMatch(/["']pusher-js["']/);
      expect(read(file)).not.toContain('Pusher JavaScript Library');
    }
    const pusherCode = read(BROWSER_PUSHER_FILE);
    expect([...staticImports(pusherCode), ...dynamicImports(pusherCode)]).toEqual([]);
    expect(pusherCode).toMatch(/export\s*default\b/);
  });

  it('no source module is in two files (lit and the store live in the main file only)', () => {
    const files = [BROWSER_FILE, chunkFile('panel'), chunkFile('transports')];
    const owner = new Map<string, string>();
    for (const file of files) {
      for (const source of sourcesOf(file)) {
        expect(owner.get(source), `${source} is in ${owner.get(source)} and ${file}`).toBeUndefined();
        owner.set(source, file);
      }
    }
    expect([...owner].filter(([source]) => /lit-html\.[tj]s$|reactive-element\.[tj]s$/.test(source)).map(([, file]) => file)).toEqual([BROWSER_FILE, BROWSER_FILE]);
    expect([...owner].filter(([source]) => /feed-controller\.ts$/.test(source)).map(([, file]) => file)).toEqual([chunkFile('panel')]);
    // The view's parts (templates, focus, arrivals, loading, actions) come with it, not in the closed bell's file.
    const viewParts = /feed\/(render-feed|render-item|roving-focus|held-arrivals|feed-pagination|item-actions)\.ts$/;
    expect([...owner].filter(([source]) => viewParts.test(source)).map(([, file]) => file)).toEqual(Array(6).fill(chunkFile('panel')));
    expect([...owner].filter(([source]) => /(sse-hub|ws-channels)\.ts$/.test(source)).map(([, file]) => file)).toEqual([chunkFile('transports'), chunkFile('transports')]);
  });

  it('keeps sourcemaps, and licence notices in linked files', () => {
    for (const file of [BROWSER_FILE, chunkFile('panel'), chunkFile('transports'), BROWSER_PUSHER_FILE]) {
      expect(read(file)).toContain(`//# sourceMappingURL=${file}.map`);
      expect(existsSync(join(browserDir, `${file}.map`))).toBe(true);
    }
    for (const file of [BROWSER_FILE, BROWSER_PUSHER_FILE]) {
      expect(read(file)).toContain(`For license information please see ${file}.LEGAL.txt`);
      expect(existsSync(join(browserDir, `${file}.LEGAL.txt`))).toBe(true);
    }
  });

  it(`keeps the main file within ${BUDGET_BYTES / 1024} KB min+gzip (every file's size, and what a page loads, in artifacts/size.json)`, async () => {
    const panel = chunkFile('panel');
    const transports = chunkFile('transports');
    const sized = (file: string, note: string) => ({ file: `${BROWSER_DIR}/${file}`, note, ...measure(readFileSync(join(browserDir, file))) });
    const main = sized(BROWSER_FILE, 'loaded by the <script>: everything a closed bell needs');
    const chunks: [Measured & { file: string }, Measured & { file: string }, Measured & { file: string }] = [
      sized(panel, "the feed's view: loaded on the bell's first open (prefetched on hover/focus), at once by <notification-feed>"),
      sized(transports, 'live transports: loaded only when `broadcasting` is configured'),
      sized(BROWSER_PUSHER_FILE, "pusher-js: loaded only for the 'ws-channels' broadcaster"),
    ];
    const [panelSize, transportsSize, pusherSize] = chunks;
    const sum = (...parts: Measured[]): Measured => ({ minified: parts.reduce((total, part) => total + part.minified, 0), gzipped: parts.reduce((total, part) => total + part.gzipped, 0) });

    // The package entry for bundlers (`/define`, lit and pusher-js left to the app), minified as an app's bundler would.
    const packageEntry = await build({
      entryPoints: [join(packageRoot, 'dist', 'define.js')],
      bundle: true,
      minify: true,
      format: 'esm',
      target: 'es2022',
      write: false,
      splitting: true,
      outdir: join(packageRoot, 'artifacts', 'unused'),
      external: ['lit', 'lit/*', '@lit/*', 'pusher-js'],
      logLevel: 'silent',
    });
    const entryOutputs = packageEntry.outputFiles.filter((file) => file.path.endsWith('.js'));
    const packageMain = entryOutputs.find((file) => file.path.endsWith('define.js'));
    const packageSizes = {
      initial: measure(packageMain?.contents ?? new Uint8Array()),
      all: sum(...entryOutputs.map((file) => measure(file.contents))),
    };

    const report = {
      budget: { file: main.file, maxGzipped: BUDGET_BYTES },
      selfContained: {
        main,
        chunks,
        pageLoads: {
          closedBell: { files: [main.file], ...sum(main) },
          afterOpeningTheBell: { files: [main.file, chunks[0].file], ...sum(main, panelSize) },
          inlineFeed: { files: [main.file, chunks[0].file], ...sum(main, panelSize) },
          openedWithSseHub: { files: [main.file, chunks[0].file, chunks[1].file], ...sum(main, panelSize, transportsSize) },
          openedWithWsChannels: { files: [main.file, chunks[0].file, chunks[1].file, chunks[2].file], ...sum(main, panelSize, transportsSize, pusherSize) },
        },
      },
      packageEntry: { file: 'dist/define.js', note: 'bundled and minified with esbuild (splitting), lit and pusher-js external', initial: packageSizes.initial, withLazyChunks: packageSizes.all },
      gzip: 'node:zlib level 9',
    };
    mkdirSync(join(packageRoot, 'artifacts'), { recursive: true });
    writeFileSync(join(packageRoot, 'artifacts', 'size.json'), `${JSON.stringify(report, null, 2)}\n`);
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
    const line = (label: string, size: Measured) => `[notification-bell] ${label}: ${kb(size.minified)} minified, ${kb(size.gzipped)} min+gzip`;
    console.log(
      [
        `${line(`self-contained main ${main.file}`, main)} (budget ${kb(BUDGET_BYTES)})`,
        ...chunks.map((chunk) => line(`  lazy ${chunk.file}`, chunk)),
        line('  a page after opening the bell (main + panel chunk)', report.selfContained.pageLoads.afterOpeningTheBell),
        line('  ...with ws-channels (+ transports + pusher-js)', report.selfContained.pageLoads.openedWithWsChannels),
        line('package entry dist/define.js (lit external), initial', packageSizes.initial),
        line('package entry with its lazy chunks', packageSizes.all),
      ].join('\n'),
    );

    expect(main.gzipped).toBeLessThanOrEqual(BUDGET_BYTES);
  });
});
