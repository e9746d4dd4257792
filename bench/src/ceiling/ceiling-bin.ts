import { startCeilingServer } from './ceiling-server.js';

/** `node dist/ceiling-bin.js <port>`: runs the ceiling until SIGTERM; prints `listening <port>`. */
const port = Number(process.argv[2] ?? 0);
startCeilingServer({ host: '127.0.0.1', port }).then(
  (server) => {
    process.stdout.write(`listening ${server.port}\n`);
    process.on('SIGTERM', () => {
      server.close();
      process.exit(0);
    });
  },
  (error: unknown) => {
    process.stderr.write(`ceiling failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
