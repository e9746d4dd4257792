#!/usr/bin/env node
// The package's bin. It is a source file, not the built dist/bin.js, so that it
// exists as soon as the package does: pnpm links every workspace bin at install
// time, before anything is built, and warns about a bin whose file is missing.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/bin.js', import.meta.url);

// Checked before the import, not read from its error: a dependency missing from an installed
// package fails the import with the same error code, and must be reported as itself.
if (!existsSync(entry)) {
  process.stderr.write('realtime-server is not built: run `pnpm turbo run build --filter=@org/realtime-server...` first\n');
  process.exit(1);
}
await import(entry.href);
