import { main } from './cli.js';

/**
 * The `pusher-conformance` command. It exits as soon as the run ends: a server that keeps a socket
 * half-open must not keep the kit alive.
 */
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`pusher-conformance: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
