import type { Options } from 'tsup';

/**
 * The build settings every package shares, so a package's tsup.config.ts
 * says only what is its own (entries, externals, a different dts).
 * Each preset's defaults come first: an option the package gives wins.
 */

/** Source maps beside the output; `dist` emptied first so no file of an earlier build ships. */
const shared = { sourcemap: true, clean: true } satisfies Options;

/** Node: the oldest Node the packages support (engines: >=20.19). */
const nodeTarget = 'node20';

/** Browsers: es2022 keeps class fields native (shorter than their lowered form; Lit 3 itself is ES2021). */
export const browserTarget = 'es2022';

/** A published Node package: ES module and CommonJS, each with its types. */
export function nodePackage(options: Options): Options {
  return { ...shared, format: ['esm', 'cjs'], dts: true, target: nodeTarget, ...options };
}

/** A Node application and its API (the daemon, the demo, the bench, this kit): an ES module only, with types unless it says otherwise. */
export function nodeApplication(options: Options): Options {
  return { ...shared, format: ['esm'], dts: true, target: nodeTarget, ...options };
}

/** Code for the browser: an ES module for current browsers. */
export function browserPackage(options: Options): Options {
  return { ...shared, format: ['esm'], target: browserTarget, platform: 'browser', ...options };
}
