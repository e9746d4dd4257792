// Build tasks write temporary files into package folders while turbo runs the checks beside them:
// tsup a bundled copy of tsup.config.ts, attw an `npm pack` tarball. A check that lists such a file
// and reads it after it is gone fails (seen in CI: eslint in dev-kit). The checks must not see them.
// Run with `node --test scripts/`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TEMPORARY = ['packages/dev-kit/tsup.config.bundled_28luga5hoxa.mjs', 'packages/dev-kit/tsup.config.bundled_x.cjs', 'packages/backoff/org-backoff-0.0.0.tgz'];
const SOURCES = ['packages/dev-kit/tsup.config.ts', 'packages/dev-kit/src/index.ts'];

test('eslint ignores the temporary files and lints the sources beside them', async () => {
  const eslint = new ESLint({ cwd: ROOT });
  for (const file of TEMPORARY.filter((name) => !name.endsWith('.tgz'))) assert.equal(await eslint.isPathIgnored(join(ROOT, file)), true, file);
  for (const file of SOURCES) assert.equal(await eslint.isPathIgnored(join(ROOT, file)), false, file);
});

test('git ignores them, so knip and the first-install copy (both list what git lists) never see them', () => {
  const ignored = (file) => spawnSync('git', ['check-ignore', '--no-index', '-q', file], { cwd: ROOT }).status === 0;
  for (const file of TEMPORARY) assert.equal(ignored(file), true, file);
  for (const file of SOURCES) assert.equal(ignored(file), false, file);
});
