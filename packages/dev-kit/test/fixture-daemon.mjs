// A stand-in daemon for daemon.test.ts: reads the config file named after --config,
// logs JSON lines like the real one, and exits 0 on SIGTERM.
import { readFileSync } from 'node:fs';

const config = JSON.parse(readFileSync(process.argv[process.argv.indexOf('--config') + 1], 'utf8'));
const log = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);

console.log('a plain text line');
if (config.exitBeforeReady) {
  console.error('refusing to start');
  process.exit(3);
}
process.on('SIGTERM', () => {
  log({ msg: 'stopping' });
  process.exit(0);
});
log({ msg: 'listening', port: config.port, env: process.env.FIXTURE_ENV ?? null });
if (!config.silent) setInterval(() => log({ msg: 'tick' }), 20);
else setInterval(() => {}, 1000);
