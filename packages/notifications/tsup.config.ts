import { readdirSync } from 'node:fs';
import { nodePackage } from '@org/dev-kit/tsup';
import { build } from 'esbuild';
import type { BuildOptions } from 'esbuild';
import { defineConfig } from 'tsup';

/**
 * `contract` is the runtime contract shared with clients (the bell, chat-notifier): it imports
 * nothing outside src/contract*, so a client's bundle gets only it (src/contract/self-contained.test.ts).
 * Its ES module is left unbundled, one file per module (dist/contract.js and dist/contract/*.js):
 * a client's bundler splits code by file, so the bell's closed-bell file gets the routes and the
 * URL rule while the live event names go to its lazy transports chunk, and unused modules go
 * nowhere. Its CommonJS is one file. Both are built once the package's own build has emptied dist/.
 */
async function buildContract(): Promise<void> {
  const modules = readdirSync('src/contract').filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
  const common: BuildOptions = { platform: 'node', target: 'node20', sourcemap: true, logLevel: 'warning' };
  await Promise.all([
    build({ ...common, entryPoints: ['src/contract.ts', ...modules.map((file) => `src/contract/${file}`)], outbase: 'src', outdir: 'dist', format: 'esm', bundle: false }),
    build({ ...common, entryPoints: ['src/contract.ts'], outfile: 'dist/contract.cjs', format: 'cjs', bundle: true }),
  ]);
}

export default defineConfig(
  nodePackage({
    entry: { index: 'src/index.ts', testing: 'src/testing/index.ts' },
    dts: { entry: { index: 'src/index.ts', contract: 'src/contract.ts', testing: 'src/testing/index.ts' } },
    onSuccess: buildContract,
  }),
);
