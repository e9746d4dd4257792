#!/usr/bin/env node
// Runs the benchmark from bench/dist (build first: `pnpm --filter @org/bench bench` does both).
import { existsSync } from 'node:fs';

const entry = new URL('./dist/run.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('bench/dist is missing: run `pnpm turbo run build --filter=@org/bench...` first, or `pnpm --filter @org/bench bench`.\n');
  process.exit(1);
}
await import(entry.href);
