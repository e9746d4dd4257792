#!/usr/bin/env node
// The package's bin. It is a source file, not the built dist/bin.js, so that it
// exists as soon as the package does: pnpm links every workspace bin at install
// time, before anything is built, and warns about a bin whose file is missing.
const entry = new URL('../dist/bin.js', import.meta.url);

import(entry.href).catch((error) => {
  // Only the build being absent gets the hint; any other failure is the daemon's own and is rethrown as is.
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes(entry.pathname)) {
    process.stderr.write('realtime-server is not built: run `pnpm turbo run build --filter=@org/realtime-server...` first\n');
    process.exit(1);
  }
  throw error;
});
