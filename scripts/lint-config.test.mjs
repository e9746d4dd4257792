// The shared lint config's ignores: turbo runs a package's lint beside its build, and tsup writes a
// bundled copy of tsup.config.ts beside it for the length of the build; linting a file that is
// listed and then gone fails the whole check (seen in CI). Run with `node --test scripts/`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

test("tsup's temporary bundled config is ignored, the config itself is linted", async () => {
  const eslint = new ESLint({ cwd: ROOT });
  assert.equal(await eslint.isPathIgnored(join(ROOT, 'packages/dev-kit/tsup.config.bundled_28luga5hoxa.mjs')), true);
  assert.equal(await eslint.isPathIgnored(join(ROOT, 'packages/dev-kit/tsup.config.bundled_x.cjs')), true);
  assert.equal(await eslint.isPathIgnored(join(ROOT, 'packages/dev-kit/tsup.config.ts')), false);
  assert.equal(await eslint.isPathIgnored(join(ROOT, 'packages/dev-kit/src/index.ts')), false);
});
