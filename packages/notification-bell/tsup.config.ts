import { createRequire } from 'node:module';
import { browserPackage, browserTarget } from '@org/dev-kit/tsup';
import type { Plugin } from 'esbuild';
import { defineConfig } from 'tsup';
import { minifyCssTemplatesPlugin } from './scripts/minify-css-templates.js';
import { buildSelfContained } from './scripts/self-contained-build.js';
import type { Options } from 'tsup';

/**
 * The package entry, for bundlers: `lit` and `pusher-js` stay bare imports so
 * the application's bundler resolves (and dedupes) them. `index` registers
 * nothing; `define` is the side-effect entry that registers the elements.
 * @org/notifications/contract (routes, URL rule, event names) and @org/backoff are
 * devDependencies, so tsup inlines what the bell uses of them: users install lit only.
 */
export const packageBuild: Options = browserPackage({
  name: 'package',
  entry: { index: 'src/index.ts', define: 'src/auto-define.ts' },
  outDir: 'dist',
  // The wire types come from @org/notifications/contract: inline them too, so users of the bell
  // need not install it. tsup's resolver ignores "exports", so it finds that package's root contract.d.ts,
  // which re-exports './dist/contract' (the second pattern lets the resolver follow that one step).
  dts: { resolve: [/^@org\/notifications\/contract$/, /^\.\/dist\/contract$/] },
  // Optional peer, loaded with import() only for the 'ws-channels' broadcaster.
  external: ['pusher-js'],
});

/** Where the self-contained build goes, and its file names (README snippets and tests use them). */
export const BROWSER_DIR = 'dist/browser';
export const BROWSER_FILE = 'notification-bell.js';
export const BROWSER_PUSHER_FILE = 'notification-bell-pusher.js';
/** The lazy chunks of our own code beside the main file: `notification-bell-<module>-<hash>.js`. */
export const BROWSER_CHUNK = { panel: /^notification-bell-panel-\w+\.js$/, transports: /^notification-bell-transports-\w+\.js$/ };

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
 * import map): lit inlined, minified because it is served as is.
 * - The main file (everything a closed bell needs) and lazy chunks of our own code, loaded with
 *   import() by URLs relative to the main file: the feed's view (on the bell's first open, prefetched
 *   on hover/focus; at once for <notification-feed>) and the live transports (only with
 *   `broadcasting`). scripts/self-contained-build.ts runs esbuild's code splitting, then folds the
 *   shared chunks into the main file, so a page loads exactly one file until it needs more.
 * - pusher-js, built here as its own entry (its browser build turned into an ES module,
 *   `export default Pusher`), loaded by the plugin above. Kept out of the code splitting: splitting
 *   it with our code put esbuild's CommonJS wrapper in a shared chunk in every page's critical path.
 */
export const browserBuild: Options = browserPackage({
  name: 'browser',
  entry: { [BROWSER_PUSHER_FILE.replace(/\.js$/, '')]: require.resolve('pusher-js/dist/web/pusher.js') },
  outDir: BROWSER_DIR,
  dts: false,
  minify: true,
  splitting: false,
  noExternal: [/.*/],
  esbuildOptions(options) {
    // Licence notices go to <file>.LEGAL.txt beside each file (published with it, linked from a
    // comment) instead of ~160 B min+gzip at the end of every page load.
    options.legalComments = 'linked';
  },
  async onSuccess() {
    await buildSelfContained({
      entry: 'src/auto-define.ts',
      outDir: BROWSER_DIR,
      mainFile: BROWSER_FILE,
      options: { target: browserTarget, platform: 'browser', plugins: [pusherBesideMainFile, minifyCssTemplatesPlugin] },
    });
  },
});

// The two builds run in parallel, each cleaning only its own files: the package build
// leaves dist/browser to the browser build.
export default defineConfig([
  { ...packageBuild, clean: ['!browser/**'] },
  { ...browserBuild, clean: true },
]);
