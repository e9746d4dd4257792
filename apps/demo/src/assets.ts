import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DemoError } from './errors.js';

/** Where the browser finds each package's files; everything comes from node_modules, nothing from a CDN. */
export const ASSET_PREFIX = '/assets/';

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/**
 * The package root of `name` as Node resolves it from `fromFile`. Some packages
 * do not export package.json (lit), others have no entry point (@org/realtime-server).
 */
export function packageDir(name: string, fromFile: string): string {
  const require = createRequire(fromFile);
  try {
    return dirname(require.resolve(`${name}/package.json`));
  } catch {
    // Not exported: walk up from the entry point instead.
  }
  const entry = require.resolve(name);
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === name) return dir;
  }
  throw new DemoError('ASSET_NOT_FOUND', `Could not find the package directory of ${name}`);
}

/** This app's folder (src/ under vitest, dist/ when built: both sit one level below it). */
export const appDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface Assets {
  /** The page's <script type="importmap"> content. */
  importMap: string;
  /** Reads an asset by its URL path below ASSET_PREFIX; null when it does not exist or is not served. */
  read(path: string): Promise<{ body: string; contentType: string } | null>;
}

/**
 * The bell's built ESM and its dependencies straight from node_modules, tied
 * together by an import map. pusher-js ships only a UMD build, so it is served
 * wrapped as an ES module for the bell's `import('pusher-js')`.
 */
export function createAssets(): Assets {
  const self = join(appDir, 'package.json');
  const bell = packageDir('@org/notification-bell', self);
  const lit = packageDir('lit', self);
  const fromLit = join(lit, 'package.json');
  const roots: Record<string, string> = {
    'notification-bell': join(bell, 'dist'),
    lit,
    'lit-html': packageDir('lit-html', fromLit),
    'lit-element': packageDir('lit-element', fromLit),
    '@lit/reactive-element': packageDir('@lit/reactive-element', fromLit),
    demo: join(appDir, 'public'),
  };
  const pusherUmd = join(packageDir('pusher-js', self), 'dist', 'web', 'pusher.min.js');
  let pusherModule: string | undefined;

  const importMap = JSON.stringify(
    {
      imports: {
        '@org/notification-bell': `${ASSET_PREFIX}notification-bell/index.js`,
        '@org/notification-bell/define': `${ASSET_PREFIX}notification-bell/define.js`,
        lit: `${ASSET_PREFIX}lit/index.js`,
        'lit/': `${ASSET_PREFIX}lit/`,
        'lit-html': `${ASSET_PREFIX}lit-html/lit-html.js`,
        'lit-html/': `${ASSET_PREFIX}lit-html/`,
        'lit-element/': `${ASSET_PREFIX}lit-element/`,
        '@lit/reactive-element': `${ASSET_PREFIX}@lit/reactive-element/reactive-element.js`,
        '@lit/reactive-element/': `${ASSET_PREFIX}@lit/reactive-element/`,
        'pusher-js': `${ASSET_PREFIX}pusher-js.mjs`,
      },
    },
    null,
    2,
  );

  return {
    importMap,
    async read(path) {
      if (path === 'pusher-js.mjs') {
        pusherModule ??= wrapUmd(await readFile(pusherUmd, 'utf8'));
        return { body: pusherModule, contentType: CONTENT_TYPES['.js'] as string };
      }
      const root = Object.keys(roots)
        .sort((a, b) => b.length - a.length)
        .find((name) => path.startsWith(`${name}/`));
      if (root === undefined) return null;
      const base = roots[root] as string;
      const file = resolve(base, path.slice(root.length + 1));
      const contentType = CONTENT_TYPES[extname(file)];
      // Only files inside the package, and only script-like ones.
      if (!contentType || relative(base, file).startsWith('..') || !file.startsWith(base + sep)) return null;
      try {
        return { body: await readFile(file, 'utf8'), contentType };
      } catch {
        return null;
      }
    },
  };
}

/** Runs a UMD bundle's CommonJS branch inside a module and re-exports what it assigned. */
function wrapUmd(source: string): string {
  return `const module = { exports: {} };\nconst exports = module.exports;\n${source.replace(/\/\/# sourceMappingURL=.*$/m, '')}\nconst value = module.exports;\nexport default value && value.default ? value.default : value;\n`;
}
