import { defineConfig } from 'tsup';
import type { Options } from 'tsup';

/**
 * The package entry, for bundlers: `lit` and `pusher-js` stay bare imports so
 * the application's bundler resolves (and dedupes) them. `index` registers
 * nothing; `define` is the side-effect entry that registers the elements.
 */
export const packageBuild: Options = {
  name: 'package',
  entry: { index: 'src/index.ts', define: 'src/auto-define.ts' },
  outDir: 'dist',
  format: ['esm'],
  dts: true,
  sourcemap: true,
  target: 'es2022',
  platform: 'browser',
  // Optional peer, loaded with import() only for the 'ws-channels' broadcaster.
  external: ['pusher-js'],
};

/** Where the self-contained build goes, and its file names (README snippets and tests use them). */
export const BROWSER_DIR = 'dist/browser';
export const BROWSER_FILE = 'notification-bell.js';

/**
 * The self-contained build, for a plain `<script type="module" src>` on any
 * page (no bundler, no import map): lit is inlined; pusher-js, still loaded
 * with `import()` only for the 'ws-channels' broadcaster, becomes a split chunk
 * beside the main file, imported by a relative URL, so pages that poll or use
 * SSE never download it. Minified because it is served as is.
 */
export const browserBuild: Options = {
  name: 'browser',
  entry: { 'notification-bell': 'src/auto-define.ts' },
  outDir: BROWSER_DIR,
  format: ['esm'],
  dts: false,
  sourcemap: true,
  minify: true,
  // Lit 3 itself is ES2021; es2022 keeps class fields native (shorter than the lowered form).
  target: 'es2022',
  platform: 'browser',
  splitting: true,
  noExternal: [/.*/],
  esbuildOptions(options) {
    // `pusher-<hash>.js`: recognisable in a network panel, cache-busted by its content.
    options.chunkNames = '[name]-[hash]';
  },
};

// The two builds run in parallel, each cleaning only its own files: the package build
// leaves dist/browser to the browser build.
export default defineConfig([
  { ...packageBuild, clean: ['!browser/**'] },
  { ...browserBuild, clean: true },
]);
