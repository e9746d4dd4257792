#!/usr/bin/env node
// The package's bin. A source file, not the built dist/bin.js, so that it exists as soon as the
// package does: pnpm links every workspace bin at install time, before anything is built.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/bin.js', import.meta.url);

if (!existsSync(entry)) {
  process.stderr.write('pusher-conformance is not built: run `pnpm turbo run build --filter=@org/pusher-conformance` first\n');
  process.exit(1);
}
await import(entry.href);
