// The cycle check on tiny workspaces written to a temporary folder: it must fail on each kind of
// cycle (value, type-only, through `export from`, JSDoc types, across packages) and pass on a graph
// that only looks like one. Run with `node --test scripts/`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { findCycles, moduleReferences } from './check-cycles.mjs';

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'check-cycles.mjs');

/** A workspace of `packages/*` from a map of 'package/relative/path' -> file text. */
function workspace(files) {
  const root = mkdtempSync(join(tmpdir(), 'check-cycles-'));
  writeFileSync(join(root, 'pnpm-workspace.yaml'), "packages:\n  - 'packages/*'\n");
  const packages = new Set(Object.keys(files).map((path) => path.split('/')[0]));
  for (const name of packages) {
    mkdirSync(join(root, 'packages', name), { recursive: true });
    writeFileSync(join(root, 'packages', name, 'package.json'), JSON.stringify({ name: `@t/${name}` }));
  }
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, 'packages', path)), { recursive: true });
    writeFileSync(join(root, 'packages', path), text);
  }
  return root;
}

function cyclesIn(files) {
  const root = workspace(files);
  try {
    return findCycles(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

test('a value import cycle between two files is found, and the command exits 1 naming both', () => {
  const root = workspace({
    'a/src/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
    'a/src/b.ts': "import { a } from './a.js';\nexport const b = () => a;\n",
  });
  try {
    const run = spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' });
    assert.equal(run.status, 1);
    assert.match(run.stderr, /file cycle \(2 members\): packages\/a\/src\/a\.ts -> packages\/a\/src\/b\.ts -> packages\/a\/src\/a\.ts/);
    assert.match(run.stderr, /imports at: packages\/a\/src\/a\.ts:1, packages\/a\/src\/b\.ts:1/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a cycle made only of `import type` is found and reported as type-only', () => {
  const result = cyclesIn({
    'a/src/user-data.ts': "import type { Socket } from './socket.js';\nexport interface UserData { socket: Socket }\n",
    'a/src/socket.ts': "import type { UserData } from './user-data.js';\nexport interface Socket { data: UserData }\n",
  });
  assert.equal(result.files.length, 1);
  assert.equal(result.files[0].typeOnly, true);
  assert.deepEqual(result.files[0].members, ['packages/a/src/socket.ts', 'packages/a/src/user-data.ts']);
});

test('inline `{ type X }` specifiers, `import()` types and `export * from` close cycles too', () => {
  const result = cyclesIn({
    'a/src/one.ts': "import { type Two } from './two.js';\nexport type One = Two[];\n",
    'a/src/two.ts': "export type Two = import('./three.js').Three;\n",
    'a/src/three.ts': "export * from './one.js';\nexport type Three = string;\n",
  });
  assert.equal(result.files.length, 1);
  assert.equal(result.files[0].members.length, 3);
});

test('a cycle through a test file and a folder index is found', () => {
  const result = cyclesIn({
    'a/src/engine/index.ts': "export { run } from './run.js';\n",
    'a/src/engine/run.ts': "import { helper } from '../../test/helper.js';\nexport const run = () => helper;\n",
    'a/test/helper.ts': "import { run } from '../src/engine/index.js';\nexport const helper = () => run;\n",
  });
  assert.equal(result.files.length, 1);
  assert.equal(result.files[0].members.length, 3);
});

test('JSDoc type imports in JavaScript count', () => {
  const result = cyclesIn({
    'a/scripts/x.mjs': "/** @param {import('./y.mjs').Y} y */\nexport const x = (y) => y;\n",
    'a/scripts/y.mjs': "/** @import { X } from './x.mjs' */\nexport const y = 1;\n",
  });
  assert.equal(result.files.length, 1);
});

test('two workspace packages importing each other are a package cycle', () => {
  const result = cyclesIn({
    'a/src/index.ts': "import type { B } from '@t/b';\nexport type A = B;\n",
    'b/src/index.ts': "import { a } from '@t/a/testing';\nexport type B = typeof a;\n",
  });
  assert.equal(result.files.length, 0);
  assert.deepEqual(result.packages.map((cycle) => cycle.members), [['@t/a', '@t/b']]);
  assert.deepEqual(result.packages[0].sites, ['packages/a/src/index.ts:1', 'packages/b/src/index.ts:1']);
});

test('a diamond, a self-named package import and node: builtins are no cycle; the command exits 0', () => {
  const root = workspace({
    'a/src/index.ts': "export { left } from './left.js';\nexport { right } from './right.js';\n",
    'a/src/left.ts': "import { base } from './base.js';\nexport const left = base;\n",
    'a/src/right.ts': "import { base } from './base.js';\nimport { readFileSync } from 'node:fs';\nexport const right = [base, readFileSync];\n",
    'a/src/base.ts': 'export const base = 1;\n',
    'a/test/index.test.ts': "import { left } from '@t/a';\nimport { base } from '../src/base.js';\nexport const t = [left, base];\n",
    'b/src/index.ts': "import { left } from '@t/a';\nexport const b = left;\n",
  });
  try {
    assert.deepEqual(findCycles(root).files, []);
    const run = spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /no import cycles in 6 files in 2 packages/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("tsup's bundled config, present only while a build runs, is not read as a source", () => {
  // turbo runs builds beside this check; a listed file gone before it is read would fail it.
  const result = cyclesIn({
    'a/src/a.ts': "import '../tsup.config.bundled_x1y2.mjs';\nexport const a = 1;\n",
    'a/tsup.config.bundled_x1y2.mjs': "import './src/a.js';\n",
  });
  assert.deepEqual(result.files, []);
});

test('moduleReferences marks what is type-only', () => {
  const refs = moduleReferences(
    'x.ts',
    [
      '/// <reference path="./i.d.ts" />',
      "import type { A } from './a.js';",
      "import { type B, type C } from './b.js';",
      "import { type D, e } from './d.js';",
      "export type { F } from './f.js';",
      "const g = await import('./g.js');",
      "type H = import('./h.js').H;",
    ].join('\n'),
  );
  const byName = Object.fromEntries(refs.map((ref) => [ref.specifier, ref.typeOnly]));
  assert.deepEqual(byName, {
    './a.js': true,
    './b.js': true,
    './d.js': false,
    './f.js': true,
    './g.js': false,
    './h.js': true,
    './i.d.ts': true,
  });
});
