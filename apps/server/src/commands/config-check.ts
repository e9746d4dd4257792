import type { Command } from '../cli.js';
import { checkConfig } from '../config/check-config.js';

export interface CommandOutput {
  env?: NodeJS.ProcessEnv;
  write?: (text: string) => void;
}

/**
 * `config check`: validates as start-up does and prints one line. An invalid
 * configuration throws the ConfigError start-up would throw (bin.ts prints it
 * on stderr and exits 1).
 */
export async function checkConfigCommand(command: Extract<Command, { name: 'config-check' }>, output: CommandOutput = {}): Promise<void> {
  const write = output.write ?? ((text: string) => void process.stdout.write(text));
  const { config, generatedApp, envSources } = await checkConfig({ file: command.config, env: output.env ?? process.env });
  const server = config.servers[config.default]!;
  const facts = [
    `server ${config.default} on ${server.host}:${server.port}${server.options.tls ? ' with TLS (files read, key usable)' : ''}`,
    generatedApp ? 'no applications (one is generated at each start)' : `${config.applications.length} application(s)`,
    `scaling ${config.scaling.enabled ? 'on' : 'off'}`,
  ];
  const variables = new Set(envSources.values());
  if (variables.size) facts.push(`overridden by ${[...variables].sort().join(', ')}`);
  write(`configuration OK (${command.config ? command.config : 'no config file'}): ${facts.join('; ')}\n`);
}
