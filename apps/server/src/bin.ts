#!/usr/bin/env node
import { parseCommand, usage, UsageError, type Command } from './cli.js';
import { checkConfigCommand } from './commands/config-check.js';
import { printConfigCommand } from './commands/config-print.js';
import { restartServers } from './commands/restart-server.js';
import { runServer } from './commands/server.js';
import { ConfigError } from './config/load-config.js';

let command: Command | undefined;

async function main(argv: readonly string[]): Promise<void> {
  command = parseCommand(argv);
  if (command.name === 'help') process.stdout.write(`${usage}\n`);
  else if (command.name === 'restart_server') await restartServers(command);
  else if (command.name === 'config-check') await checkConfigCommand(command);
  else if (command.name === 'config-print') await printConfigCommand(command);
  else await runServer(command);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const failed = command?.name === 'config-check' || command?.name === 'config-print' ? `realtime-server ${command.name.replace('-', ' ')} failed` : 'realtime-server failed to start';
  if (error instanceof UsageError) process.stderr.write(`${error.message}\n\n${usage}\n`);
  else if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
  else process.stderr.write(`${failed}: ${error instanceof Error ? error.message : String(error)}\n`);
  // 64: EX_USAGE from sysexits.h.
  process.exit(error instanceof UsageError ? 64 : 1);
});
