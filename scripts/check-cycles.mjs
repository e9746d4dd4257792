#!/usr/bin/env node
// Fails on any import cycle in the workspace's TypeScript and JavaScript.
//
// Two graphs, which together see every cycle:
// - files: each workspace package's own files (src, tests, scripts, configs), with an arrow for
//   every relative import, whatever its kind: value or `import type`, `export ... from`,
//   `import()` (in code and in type positions), `require()`, `/// <reference path>`, and JSDoc
//   `import('...')` / `@import` in JavaScript. A type-only cycle is still a cycle: the files
//   cannot be understood, moved or split one at a time.
// - packages: an arrow A -> B when any file of A imports workspace package B. A cycle of files
//   that crosses packages always shows up here as a package cycle, so the file graph need not
//   follow imports into another package's build output.
// Relative specifiers resolve the way the packages compile them (TypeScript's Bundler resolution:
// './x.js' finds './x.ts').
//
// Usage: node scripts/check-cycles.mjs [workspace-root]   (exit 1 when a cycle is found)

import { readFileSync, readdirSync, existsSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const SOURCE_FILE = /\.(?:[cm]?ts|tsx|[cm]?js|jsx)$/;
/** Folders that hold build output, installs or generated files, never sources. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'artifacts', 'coverage', '.turbo', '.git', 'results']);
/** tsup's bundled config, written beside tsup.config.ts while a build runs (turbo runs builds beside this check). */
const BUILD_TEMP_FILE = /\.bundled_[^.]+\.[cm]js$/;

const COMPILER_OPTIONS = {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowJs: true,
  resolveJsonModule: true,
  allowImportingTsExtensions: true,
};

/** The workspace's package folders, from pnpm-workspace.yaml (`dir` and `dir/*` patterns). */
function workspacePackageDirs(root) {
  const yaml = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const patterns = [...yaml.matchAll(/^\s*-\s*['"]?([^'"\s#]+)['"]?/gm)].map((m) => m[1]);
  const dirs = [];
  for (const pattern of patterns) {
    if (pattern.endsWith('/*')) {
      const parent = join(root, pattern.slice(0, -2));
      if (!existsSync(parent)) continue;
      for (const name of readdirSync(parent).sort()) {
        if (existsSync(join(parent, name, 'package.json'))) dirs.push(join(parent, name));
      }
    } else if (existsSync(join(root, pattern, 'package.json'))) {
      dirs.push(join(root, pattern));
    }
  }
  return dirs;
}

function sourceFilesUnder(dir) {
  const files = [];
  const walk = (current) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith('.')) walk(join(current, entry.name));
      } else if (entry.isFile() && SOURCE_FILE.test(entry.name) && !BUILD_TEMP_FILE.test(entry.name)) {
        files.push(join(current, entry.name));
      }
    }
  };
  walk(dir);
  return files.sort();
}

function scriptKind(file) {
  if (/\.[cm]?js$/.test(file)) return ts.ScriptKind.JS;
  if (file.endsWith('.jsx')) return ts.ScriptKind.JSX;
  if (file.endsWith('.tsx')) return ts.ScriptKind.TSX;
  return ts.ScriptKind.TS;
}

/** Every module specifier a file names, with whether the reference exists only for types. */
export function moduleReferences(file, text = readFileSync(file, 'utf8')) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file));
  const found = [];
  const lineOf = (position) => source.getLineAndCharacterOfPosition(position).line + 1;
  const add = (node, typeOnly) => {
    if (node && ts.isStringLiteralLike(node)) found.push({ specifier: node.text, typeOnly, line: lineOf(node.getStart(source)) });
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const typeOnly = Boolean(
        clause &&
          (clause.isTypeOnly ||
            (!clause.name &&
              clause.namedBindings &&
              ts.isNamedImports(clause.namedBindings) &&
              clause.namedBindings.elements.length > 0 &&
              clause.namedBindings.elements.every((element) => element.isTypeOnly))),
      );
      add(node.moduleSpecifier, typeOnly);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      add(node.moduleSpecifier, node.isTypeOnly);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node.isTypeOnly);
    } else if (ts.isImportTypeNode(node)) {
      const argument = node.argument;
      if (ts.isLiteralTypeNode(argument)) add(argument.literal, true);
    } else if (ts.isCallExpression(node) && node.arguments.length > 0) {
      const isImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      if (isImport || isRequire) add(node.arguments[0], false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  for (const reference of source.referencedFiles) found.push({ specifier: reference.fileName, typeOnly: true, line: lineOf(reference.pos) });
  if (scriptKind(file) === ts.ScriptKind.JS || scriptKind(file) === ts.ScriptKind.JSX) {
    // JSDoc types live in comments, which the walk above does not enter.
    for (const comment of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
      for (const m of comment[0].matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)|@import\b[^'"]*?from\s*['"]([^'"]+)['"]/g)) {
        found.push({ specifier: m[1] ?? m[2], typeOnly: true, line: lineOf(comment.index + m.index) });
      }
    }
  }
  return found;
}

/** `@scope/name/sub` -> `@scope/name`; `name/sub` -> `name`; relative and absolute paths -> undefined. */
function packageNameOf(specifier) {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function resolveRelative(specifier, fromFile) {
  const resolved = ts.resolveModuleName(specifier, fromFile, COMPILER_OPTIONS, ts.sys).resolvedModule;
  if (resolved) return resolve(resolved.resolvedFileName);
  // Plain JavaScript outside any TypeScript resolution rule (e.g. a '.mjs' importing a '.mjs').
  const direct = resolve(dirname(fromFile), specifier);
  return existsSync(direct) && statSync(direct).isFile() ? direct : undefined;
}

/** Strongly connected components with more than one node, or a node with an arrow to itself (Tarjan). */
function cyclicComponents(graph) {
  let index = 0;
  const indices = new Map();
  const lowlinks = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  // Iterative, so a long import chain cannot overflow the call stack.
  for (const start of graph.keys()) {
    if (indices.has(start)) continue;
    const work = [{ node: start, edges: [...(graph.get(start)?.keys() ?? [])], next: 0 }];
    indices.set(start, index);
    lowlinks.set(start, index);
    index += 1;
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      if (frame.next < frame.edges.length) {
        const target = frame.edges[frame.next++];
        if (!indices.has(target)) {
          indices.set(target, index);
          lowlinks.set(target, index);
          index += 1;
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edges: [...(graph.get(target)?.keys() ?? [])], next: 0 });
        } else if (onStack.has(target)) {
          lowlinks.set(frame.node, Math.min(lowlinks.get(frame.node), indices.get(target)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        lowlinks.set(parent, Math.min(lowlinks.get(parent), lowlinks.get(frame.node)));
      }
      if (lowlinks.get(frame.node) === indices.get(frame.node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1 || graph.get(frame.node)?.has(frame.node)) components.push(component.sort());
      }
    }
  }
  return components;
}

/** One concrete loop through a component, for the report: the shortest way from its first node back to it. */
function loopThrough(graph, component) {
  const members = new Set(component);
  const start = component[0];
  const previous = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const target of graph.get(node)?.keys() ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [start];
        for (let at = node; at !== start; at = previous.get(at)) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

/** Arrows are `from -> (to -> { typeOnly, line })`: the line of the first reference, for the report. */
function addEdge(graph, from, to, typeOnly, line) {
  let edges = graph.get(from);
  if (!edges) graph.set(from, (edges = new Map()));
  const known = edges.get(to);
  // An arrow is type-only when every reference behind it is.
  edges.set(to, { typeOnly: (known?.typeOnly ?? true) && typeOnly, line: known?.line ?? line });
}

/** Builds both graphs for a workspace root (and its `extraDirs`, folders outside any package). */
function buildGraphs(root, { extraDirs = [] } = {}) {
  const files = new Map();
  const packages = new Map();
  const packageDirs = workspacePackageDirs(root);
  const owners = packageDirs.map((dir) => [dir, JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name]);
  const names = new Set(owners.map(([, name]) => name));
  for (const dir of extraDirs) owners.push([join(root, dir), `(root)/${dir}`]);
  for (const [dir, owner] of owners) {
    if (!existsSync(dir)) continue;
    packages.set(owner, packages.get(owner) ?? new Map());
    for (const file of sourceFilesUnder(dir)) {
      files.set(file, files.get(file) ?? new Map());
      for (const { specifier, typeOnly, line } of moduleReferences(file)) {
        const packageName = packageNameOf(specifier);
        if (packageName === undefined) {
          if (specifier.startsWith('node:')) continue;
          const target = resolveRelative(specifier, file);
          if (target && target.startsWith(dir + sep) && SOURCE_FILE.test(target) && !target.split(sep).includes('node_modules')) {
            addEdge(files, file, target, typeOnly, line);
          }
        } else if (names.has(packageName) && packageName !== owner) {
          addEdge(packages, owner, packageName, typeOnly, `${relative(root, file)}:${line}`);
        }
      }
    }
  }
  return { files, packages };
}

/** Every cycle in the workspace at `root`, as loops of workspace-relative paths or package names. */
export function findCycles(root, options) {
  const { files, packages } = buildGraphs(root, options);
  const describe = (graph, component, name, where) => {
    const loop = loopThrough(graph, component);
    const arrows = loop.slice(1).map((to, i) => graph.get(loop[i]).get(to));
    const inside = new Set(component);
    const internal = component.flatMap((from) =>
      [...(graph.get(from) ?? new Map())].filter(([to]) => inside.has(to)).map(([to, arrow]) => `${where(from, arrow)} -> ${name(to)}${arrow.typeOnly ? ' (type)' : ''}`),
    );
    return {
      members: component.map(name),
      // Every arrow between members: the loop above is one way round, these are all that must be cut.
      internal,
      loop: loop.map(name),
      // Where each arrow of the loop is written: `file:line` of the import.
      sites: arrows.map((arrow, i) => where(loop[i], arrow)),
      typeOnly: arrows.every((arrow) => arrow.typeOnly),
    };
  };
  return {
    fileCount: files.size,
    packageCount: packages.size,
    files: cyclicComponents(files).map((c) => describe(files, c, (file) => relative(root, file), (file, arrow) => `${relative(root, file)}:${arrow.line}`)),
    packages: cyclicComponents(packages).map((c) => describe(packages, c, (name) => name, (_name, arrow) => arrow.line)),
  };
}

function main() {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const result = findCycles(root, { extraDirs: ['scripts'] });
  const report = (kind, cycles) => {
    for (const cycle of cycles) {
      const what = cycle.typeOnly ? 'type-only cycle' : 'cycle';
      console.error(`${kind} ${what} (${cycle.members.length} members): ${cycle.loop.join(' -> ')}`);
      console.error(`  imports at: ${cycle.sites.join(', ')}`);
      if (cycle.members.length > cycle.loop.length - 1) {
        console.error(`  all ${cycle.internal.length} imports between its members:`);
        for (const arrow of cycle.internal) console.error(`    ${arrow}`);
      }
    }
  };
  report('file', result.files);
  report('package', result.packages);
  const count = result.files.length + result.packages.length;
  const scope = `${result.fileCount} files in ${result.packageCount} packages`;
  if (count > 0) {
    console.error(`check-cycles: ${count} import cycle(s) in ${scope}`);
    process.exitCode = 1;
  } else {
    console.log(`check-cycles: no import cycles in ${scope}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
