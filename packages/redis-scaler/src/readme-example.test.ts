import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { inCI, skipMessage, testRedis } from '../test/support/test-redis.js';

// Runs the README's example, unchanged, against a real Redis and the built package.
const root = fileURLToPath(new URL('../', import.meta.url));
const built = existsSync(join(root, 'dist/index.js'));
if (!built && inCI) throw new Error('dist/ is missing: run `pnpm --filter @org/redis-scaler build` before the tests');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const example = /## Example\n\n```js\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
const redis = built ? await testRedis() : undefined;

describe('README', () => {
  if (!redis) {
    it('needs the build and Redis', () => {
      console.warn(built ? skipMessage : '[redis-scaler] dist/ missing: README example skipped outside CI');
      expect(inCI).toBe(false);
    });
    return;
  }
  // Inside the package folder, so `@org/redis-scaler` resolves to this package through its exports map.
  const dir = mkdtempSync(join(root, 'src/.readme-'));
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await redis.stop();
  });

  it('runs the example: a node joins the cluster, reports it and stops cleanly', async () => {
    expect(example).toContain("from '@org/redis-scaler'");
    const file = join(dir, 'example.mjs');
    writeFileSync(file, example);
    const { stdout } = await promisify(execFile)(process.execPath, [file], { env: { ...process.env, REDIS_URL: redis.url }, timeout: 15_000 });
    // start() waits for the first connection at most max(2 × commandTimeoutMs, 1 s) (README, "Redis outages"):
    // on a loaded machine the example may print false, serving from local state until Redis answers.
    expect(stdout).toMatch(/^node \S+ connected: (?:true|false)$/m);
    expect(stdout).toContain('connections in the cluster: 0');
  });
});
