#!/usr/bin/env node
import { parseCommand, usage, UsageError } from './cli.js';
import { restartServers } from './commands/restart-server.js';
import { runServer } from './commands/server.js';
import { ConfigError } from './config/load-config.js';

async function main(argv: readonly string[]): Promise<void> {
  const command = parseCommand(argv);
  if (command.name === 'help') process.stdout.write(`${usage}\n`);
  else if (command.name === 'restart_server') await restartServers(command);
  else await runServer(command);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) process.stderr.write(`${error.message}\n\n${usage}\n`);
  else if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
  else process.stderr.write(`realtime-server failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  // 64: EX_USAGE from sysexits.h.
  process.exit(error instanceof UsageError ? 64 : 1);
});
