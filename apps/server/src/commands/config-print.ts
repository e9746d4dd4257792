import type { Command } from '../cli.js';
import { checkConfig } from '../config/check-config.js';
import { effectiveConfig, renderJson, renderYaml } from '../config/effective-config.js';
import type { CommandOutput } from './config-check.js';

/**
 * `config print`: the configuration `server` would run with, after the same
 * validation as `config check`, secrets masked, each value with its source.
 */
export async function printConfigCommand(command: Extract<Command, { name: 'config-print' }>, output: CommandOutput = {}): Promise<void> {
  const write = output.write ?? ((text: string) => void process.stdout.write(text));
  const loaded = await checkConfig({ file: command.config, env: output.env ?? process.env });
  const effective = effectiveConfig(loaded, command.config);
  write(command.format === 'json' ? renderJson(effective) : renderYaml(effective));
}
