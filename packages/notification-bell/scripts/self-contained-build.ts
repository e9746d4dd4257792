/**
 * The self-contained build's main file and its lazy chunks, for a plain `<script type="module" src>`
 * (no bundler, no import map). Two esbuild passes:
 *
 * 1. Code splitting on our code (pusher-js is a separate file, built on its own): the main file, one
 *    chunk per `import()` of ours (the feed's view, the live transports), and shared chunks for code
 *    that both the main file and a lazy chunk use (lit, the store, messages...).
 * 2. esbuild would have the main file import those shared chunks statically: one more request before
 *    the element works on every page. Instead, shared chunks the main file imports are bundled into it
 *    and re-exported from it (under their chunk export names), and each lazy chunk imports them from
 *    the main file: a module the page has already loaded, so opening the bell costs one request.
 *
 * Every output keeps a source map (chained through both passes) and links its licence notices.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { build } from 'esbuild';
import type { BuildOptions, Plugin } from 'esbuild';
import { minify } from 'terser';

export interface SelfContainedBuild {
  /** The entry module (src/auto-define.ts). */
  entry: string;
  outDir: string;
  /** The main file's name, e.g. notification-bell.js. */
  mainFile: string;
  /** Options shared by both passes (target, plugins of the first pass...). */
  options: Required<Pick<BuildOptions, 'target' | 'platform' | 'plugins'>>;
}

const fileName = (path: string) => basename(path);

/** Resolves the named relative files (siblings in the output) to externals, optionally under another name. */
function siblings(rename: (file: string) => string | undefined): Plugin {
  return {
    name: 'self-contained-siblings',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^\.\/[^/]+\.js$/ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        const target = rename(fileName(args.path));
        return target === undefined ? undefined : { path: `./${target}`, external: true };
      });
    },
  };
}

export async function buildSelfContained({ entry, outDir, mainFile, options }: SelfContainedBuild): Promise<void> {
  // Outside the package: its package.json `sideEffects` must not apply to the intermediate chunks
  // (their side-effect-only imports, e.g. lit's version marker, would be dropped).
  const stage = mkdtempSync(join(tmpdir(), 'notification-bell-split-'));
  const mainName = mainFile.replace(/\.js$/, '');
  // Lazy chunks are named by content hash: drop those of earlier builds, or the directory (and the package) keeps them.
  if (existsSync(outDir)) for (const name of readdirSync(outDir)) if (name.startsWith(`${mainName}-`) && !name.startsWith(`${mainName}-pusher.`)) rmSync(join(outDir, name));
  try {
    // Pass 1: esbuild's code splitting.
    const split = await build({
      ...options,
      entryPoints: { [mainName]: resolve(entry) },
      outdir: stage,
      bundle: true,
      splitting: true,
      format: 'esm',
      minify: true,
      sourcemap: 'linked',
      legalComments: 'eof',
      entryNames: '[name]',
      chunkNames: `${mainName}-[name]-[hash]`,
      metafile: true,
      logLevel: 'warning',
    });
    const outputs = split.metafile.outputs;
    const js = Object.keys(outputs).filter((path) => path.endsWith('.js'));
    const mainOutput = js.find((path) => fileName(path) === mainFile);
    if (!mainOutput) throw new Error(`self-contained build: no main output among ${js.join(', ')}`);

    // The chunks the main file needs up front: bundled into it.
    const merged = new Set<string>();
    const visit = (path: string) => {
      for (const imported of outputs[path]?.imports ?? []) {
        if (imported.kind !== 'import-statement' || imported.external || merged.has(imported.path)) continue;
        merged.add(imported.path);
        visit(imported.path);
      }
    };
    visit(mainOutput);
    const lazy = js.filter((path) => path !== mainOutput && !merged.has(path));

    // Their exports become the main file's too. esbuild names each chunk's exports on its own (short
    // minified names), so a name two chunks export gets an alias in the main file.
    const taken = new Set(outputs[mainOutput]?.exports ?? []);
    const aliases = new Map<string, Map<string, string>>();
    for (const [index, path] of [...merged].entries()) {
      const names = new Map<string, string>();
      for (const name of outputs[path]?.exports ?? []) {
        const alias = taken.has(name) ? `${name}$${index}` : name;
        if (taken.has(alias)) throw new Error(`self-contained build: export "${alias}" of ${path} is taken`);
        taken.add(alias);
        names.set(name, alias);
      }
      aliases.set(fileName(path), names);
    }
    const exportList = (names: Map<string, string>, asAlias: boolean) =>
      [...names].map(([name, alias]) => (name === alias ? name : asAlias ? `${name} as ${alias}` : `${alias} as ${name}`)).join(', ');
    // Files that end up in the main file; anything else (lazy chunks, the pusher file) stays a sibling.
    const inMain = new Set([mainFile, ...aliases.keys()]);

    const common: BuildOptions = {
      target: options.target,
      platform: options.platform,
      bundle: true,
      format: 'esm',
      minify: true,
      sourcemap: 'linked',
      legalComments: 'linked',
      logLevel: 'warning',
    };
    const reexports = [
      `export * from './${mainFile}';`,
      ...[...aliases].map(([file, names]) => `export { ${exportList(names, true)} } from './${file}';`),
    ].join('\n');
    // Pass 2: the main file with its shared chunks inside; lazy chunks and pusher stay beside it.
    await build({
      ...common,
      stdin: { contents: reexports, resolveDir: stage, sourcefile: `${mainName}.entry.js`, loader: 'js' },
      outfile: join(outDir, mainFile),
      plugins: [siblings((file) => (inMain.has(file) ? undefined : file))],
    });
    // ...and each lazy chunk importing the shared code from the main file, already loaded: a shared
    // chunk's import becomes a re-export of the main file's names (inlined by esbuild).
    const fromMain: Plugin = {
      name: 'shared-chunks-from-main-file',
      setup(pluginBuild) {
        pluginBuild.onResolve({ filter: /^\.\/[^/]+\.js$/ }, (args) => {
          if (args.kind === 'entry-point' || args.namespace === 'shared-chunk') return undefined;
          const file = fileName(args.path);
          if (aliases.has(file)) return { path: file, namespace: 'shared-chunk' };
          return { path: `./${file}`, external: true };
        });
        pluginBuild.onResolve({ filter: /.*/, namespace: 'shared-chunk' }, (args) => ({ path: args.path, external: true }));
        pluginBuild.onLoad({ filter: /.*/, namespace: 'shared-chunk' }, (args) => ({
          contents: `export { ${exportList(aliases.get(args.path) ?? new Map(), false)} } from './${mainFile}';`,
          loader: 'js',
        }));
      },
    };
    await Promise.all(lazy.map((path) => build({ ...common, entryPoints: [path], outfile: join(outDir, fileName(path)), plugins: [fromMain] })));
    await Promise.all([mainFile, ...lazy.map(fileName)].map((file) => squeeze(join(outDir, file))));
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
  if (!existsSync(join(outDir, mainFile))) throw new Error(`self-contained build: ${relative(process.cwd(), join(outDir, mainFile))} was not written`);
}

/**
 * terser over esbuild's output: a few hundred bytes smaller gzipped (more compress passes and
 * better inlining). The source map is chained from esbuild's; the comment linking the licence file stays.
 */
async function squeeze(path: string): Promise<void> {
  const code = readFileSync(path, 'utf8');
  const map = readFileSync(`${path}.map`, 'utf8');
  const file = basename(path);
  const result = await minify(code, {
    module: true,
    ecma: 2020,
    compress: { passes: 2 },
    format: { comments: /For license information/ },
    sourceMap: { content: map, filename: file, url: `${file}.map` },
  });
  if (result.code === undefined || typeof result.map !== 'string') throw new Error(`self-contained build: terser gave no output for ${file}`);
  writeFileSync(path, result.code);
  writeFileSync(`${path}.map`, result.map);
}
