import { createRequire } from 'node:module';
import type { Plugin } from 'esbuild';
import { defineConfig } from 'tsup';
import { minifyCssTemplatesPlugin } from './scripts/minify-css-templates.js';
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
  // The wire types come from @org/notifications/contract (type-only): inline them, so users of the bell
  // need not install it. tsup's resolver ignores "exports", so it finds that package's root contract.d.ts,
  // which re-exports './dist/contract' (the second pattern lets the resolver follow that one step).
  dts: { resolve: [/^@org\/notifications\/contract$/, /^\.\/dist\/contract$/] },
  sourcemap: true,
  target: 'es2022',
  platform: 'browser',
  // Optional peer, loaded with import() only for the 'ws-channels' broadcaster.
  external: ['pusher-js'],
};

/** Where the self-contained build goes, and its file names (README snippets and tests use them). */
export const BROWSER_DIR = 'dist/browser';
export const BROWSER_FILE = 'notification-bell.js';
export const BROWSER_PUSHER_FILE = 'notification-bell-pusher.js';

const require = createRequire(import.meta.url);

/**
 * In the self-contained build, `import('pusher-js')` (only in the 'ws-channels' broadcaster) becomes
 * `import('./notification-bell-pusher.js')`: a URL relative to the main file, so it resolves on any
 * page or CDN without an import map, and pages that poll or use SSE never download it.
 */
const pusherBesideMainFile: Plugin = {
  name: 'pusher-js-beside-main-file',
  setup(build) {
    build.onResolve({ filter: /^pusher-js$/ }, (args) => (args.kind === 'dynamic-import' ? { path: `./${BROWSER_PUSHER_FILE}`, external: true } : undefined));
  },
};

/**
 * The self-contained build, for a plain `<script type="module" src>` on any page (no bundler, no
 * import map): lit inlined, minified because it is served as is. pusher-js is a second entry, its
 * browser build turned into an ES module (`export default Pusher`), loaded lazily by the plugin
 * above. Two independent files rather than esbuild code splitting: splitting put esbuild's shared
 * runtime (the CommonJS wrapper pusher-js needs) in a third chunk that the main file imported
 * statically, one more request in every page's critical path.
 */
export const browserBuild: Options = {
  name: 'browser',
  entry: {
    [BROWSER_FILE.replace(/\.js$/, '')]: 'src/auto-define.ts',
    [BROWSER_PUSHER_FILE.replace(/\.js$/, '')]: require.resolve('pusher-js/dist/web/pusher.js'),
  },
  outDir: BROWSER_DIR,
  format: ['esm'],
  dts: false,
  sourcemap: true,
  minify: true,
  // Lit 3 itself is ES2021; es2022 keeps class fields native (shorter than the lowered form).
  target: 'es2022',
  platform: 'browser',
  splitting: false,
  noExternal: [/.*/],
  esbuildPlugins: [pusherBesideMainFile, minifyCssTemplatesPlugin],
  esbuildOptions(options) {
    // Lit's and pusher-js's licence notices go to <file>.LEGAL.txt beside each file (published with
    // it, linked from a comment) instead of ~160 B min+gzip at the end of every page load.
    options.legalComments = 'linked';
  },
};

// The two builds run in parallel, each cleaning only its own files: the package build
// leaves dist/browser to the browser build.
export default defineConfig([
  { ...packageBuild, clean: ['!browser/**'] },
  { ...browserBuild, clean: true },
]);
