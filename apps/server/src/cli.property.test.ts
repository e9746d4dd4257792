import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCommand, UsageError, type Command } from './cli.js';

/**
 * The hand-written parser that `parseArgs` replaced, kept as the oracle: for
 * any command line, the new parser gives the same command or the same message.
 */
function handWrittenParse(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Command {
  const [name = 'server', ...rest] = argv;
  if (name === 'help' || name === '--help' || name === '-h') return { name: 'help' };
  if (name === 'restart_server') {
    const command: Extract<Command, { name: 'restart_server' }> = { name: 'restart_server' };
    if (env['REALTIME_CONFIG']) command.config = env['REALTIME_CONFIG'];
    const [flag, value, ...extra] = rest;
    if (flag === '--config' && value !== undefined && !value.startsWith('--') && extra.length === 0) command.config = value;
    else if (flag?.startsWith('--config=') && rest.length === 1) command.config = flag.slice('--config='.length);
    else if (rest.length) throw new UsageError(`restart_server takes only --config <file>, got ${rest.join(' ')}`);
    return command;
  }
  if (name !== 'server') throw new UsageError(`unknown command ${JSON.stringify(name)}`);

  const command: Extract<Command, { name: 'server' }> = { name: 'server', allowUwsFallback: false };
  if (env['REALTIME_CONFIG']) command.config = env['REALTIME_CONFIG'];
  for (let i = 0; i < rest.length; i++) {
    const flag = rest[i];
    const [key, inline] = flag?.startsWith('--') && flag.includes('=') ? (flag.split('=', 2) as [string, string]) : [flag, undefined];
    const value = () => {
      const v = inline ?? rest[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${key} needs a value`);
      return v;
    };
    switch (key) {
      case '--host':
        command.host = value();
        break;
      case '--port': {
        const raw = value();
        const port = Number(raw);
        if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError(`--port must be an integer from 0 to 65535, got ${raw}`);
        command.port = port;
        break;
      }
      case '--config':
        command.config = value();
        break;
      case '--allow-uws-fallback':
        command.allowUwsFallback = true;
        break;
      default:
        throw new UsageError(`unknown option ${String(key)}`);
    }
  }
  return command;
}

const outcome = (parse: () => Command): unknown => {
  try {
    return { command: parse() };
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return { message: (error as Error).message };
  }
};

/** Words an operator (or a fuzzer) may type: every option in every form, near misses, values, junk. */
const word = fc.oneof(
  fc.constantFrom(
    'server', 'restart_server', 'help', '--help', '-h', 'serve',
    '--host', '--port', '--config', '--allow-uws-fallback', '--host=', '--port=', '--config=', '--allow-uws-fallback=1',
    '--port=8080', '--port=70000', '--port=-1', '--port=1.5', '--config=--x', '--host=--x', '--conf', '--verbose', '--toString', '--__proto__',
    '--', '-', '-p', '-xyz', '-x=1', '', '127.0.0.1', '6001', '-5', 'a.json', 'x=y', ' ',
  ),
  fc.string({ maxLength: 8 }),
);

describe('the command line, against the parser it replaced', () => {
  it('gives the same command or the same usage message for any words', () => {
    const commandWord = fc.constantFrom<string[]>(['server'], ['server'], ['restart_server'], ['restart_server'], [], ['help']);
    fc.assert(
      fc.property(commandWord, fc.array(word, { maxLength: 6 }), fc.option(fc.constantFrom('env.yaml', ''), { nil: undefined }), (command, words, config) => {
        const argv = [...command, ...words];
        const env: NodeJS.ProcessEnv = config === undefined ? {} : { REALTIME_CONFIG: config };
        expect(outcome(() => parseCommand(argv, env))).toEqual(outcome(() => handWrittenParse(argv, env)));
      }),
      { numRuns: 5_000 },
    );
  });
});
