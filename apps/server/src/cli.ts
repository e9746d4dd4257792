import { parseArgs } from 'node:util';

/** The daemon's command line: `server [--host H] [--port P] [--config FILE]`, `restart_server`, `config check|print`. */
export type Command =
  | { name: 'server'; host?: string; port?: number; workers?: number | 'auto'; config?: string; allowUwsFallback: boolean }
  | { name: 'restart_server'; config?: string }
  | { name: 'config-check'; config?: string }
  | { name: 'config-print'; config?: string; format: 'json' | 'yaml' }
  | { name: 'help' };

export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly code = 'USAGE';
}

export const usage = `Usage:
  realtime-server server [--host <address>] [--port <port>] [--workers <n|auto>] [--config <file.json|file.yaml>] [--allow-uws-fallback]
    --workers: threads serving the port (default 1; auto: one per available core).
  realtime-server restart_server [--config <file.json|file.yaml>]
    Restarts every node gracefully: through Redis when scaling is enabled, else the servers on this host
    (only processes proven to be the registered server are signalled; stale pid files are removed).
  realtime-server config check [--config <file.json|file.yaml>]
    Validates the configuration as \`server\` does before it starts (file, environment, TLS files), starting nothing:
    prints one line and exits 0, or prints what start-up would print and exits 1.
  realtime-server config print [--config <file.json|file.yaml>] [--format yaml|json]
    Prints the effective configuration (defaults, file, environment), secrets masked, with where each value came from.

Environment: REALTIME_CONFIG (config file), REALTIME_HOST, REALTIME_PORT, REALTIME_PATH,
REALTIME_APP_ID / REALTIME_APP_KEY / REALTIME_APP_SECRET, REDIS_URL, REALTIME_WORKERS, REALTIME_DEBUG=true.`;

const serverOptions = {
  host: { type: 'string' },
  port: { type: 'string' },
  workers: { type: 'string' },
  config: { type: 'string' },
  'allow-uws-fallback': { type: 'boolean' },
} as const;

/**
 * `parseArgs` splits the words (`--key value`, `--key=value`, `--`, short
 * groups); it runs non-strict so that its tokens, not its own English, give
 * the messages: the ones below are the CLI's documented answers.
 */
function tokensOf(args: string[], options: Record<string, { type: 'string' | 'boolean' }>) {
  return parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true }).tokens;
}

/** A value given inline (`--port=`) or as the next word, but never an option in its place. */
const isValue = (value: string | undefined): value is string => value !== undefined && !value.startsWith('--');

function parseRestartServer(rest: string[], env: NodeJS.ProcessEnv): Command {
  const command: Extract<Command, { name: 'restart_server' }> = { name: 'restart_server' };
  if (env['REALTIME_CONFIG']) command.config = env['REALTIME_CONFIG'];
  const tokens = tokensOf(rest, { config: { type: 'string' } });
  const [only] = tokens;
  if (tokens.length === 0) return command;
  // Exactly one `--config <file>` or `--config=<file>` (an inline value may be anything).
  if (tokens.length === 1 && only?.kind === 'option' && only.rawName === '--config' && (only.inlineValue ? only.value !== undefined : isValue(only.value))) {
    command.config = only.value!;
    return command;
  }
  throw new UsageError(`restart_server takes only --config <file>, got ${rest.join(' ')}`);
}

function parseServer(rest: string[], env: NodeJS.ProcessEnv): Command {
  const command: Extract<Command, { name: 'server' }> = { name: 'server', allowUwsFallback: false };
  if (env['REALTIME_CONFIG']) command.config = env['REALTIME_CONFIG'];
  for (const token of tokensOf(rest, serverOptions)) {
    // What the operator typed: `--name` of `--name=value`, else the whole word (`-xyz`, `--`, `extra`).
    const raw = rest[token.index]!;
    const typed = raw.startsWith('--') && raw.includes('=') ? raw.slice(0, raw.indexOf('=')) : raw;
    if (token.kind !== 'option' || !token.rawName.startsWith('--') || !Object.hasOwn(serverOptions, token.name)) throw new UsageError(`unknown option ${typed}`);
    if (token.name === 'allow-uws-fallback') {
      command.allowUwsFallback = true;
      continue;
    }
    if (!isValue(token.value)) throw new UsageError(`${typed} needs a value`);
    if (token.name === 'port') {
      const port = Number(token.value);
      if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError(`--port must be an integer from 0 to 65535, got ${token.value}`);
      command.port = port;
    } else if (token.name === 'workers') {
      const workers = token.value === 'auto' ? 'auto' : Number(token.value);
      if (workers !== 'auto' && (!/^[0-9]+$/.test(token.value) || workers < 1 || workers > 1_024)) throw new UsageError(`--workers must be auto or an integer from 1 to 1024, got ${token.value}`);
      command.workers = workers;
    } else if (token.name === 'host') command.host = token.value;
    else command.config = token.value;
  }
  return command;
}

const configOptions = {
  check: { config: { type: 'string' } },
  print: { config: { type: 'string' }, format: { type: 'string' } },
} as const;

/** `config check|print`: the file as for `server` (`--config`, else REALTIME_CONFIG), and print's `--format`. */
function parseConfig(rest: string[], env: NodeJS.ProcessEnv): Command {
  const [action, ...words] = rest;
  if (action !== 'check' && action !== 'print') throw new UsageError(`config takes check or print, got ${action === undefined ? 'nothing' : JSON.stringify(action)}`);
  const options: Record<string, { type: 'string' }> = configOptions[action];
  let config = env['REALTIME_CONFIG'] || undefined;
  let format: 'json' | 'yaml' = 'yaml';
  for (const token of tokensOf(words, options)) {
    const raw = words[token.index]!;
    const typed = raw.startsWith('--') && raw.includes('=') ? raw.slice(0, raw.indexOf('=')) : raw;
    if (token.kind !== 'option' || !token.rawName.startsWith('--') || !Object.hasOwn(options, token.name)) throw new UsageError(`unknown option ${typed} for config ${action}`);
    if (!isValue(token.value)) throw new UsageError(`${typed} needs a value`);
    if (token.name === 'config') config = token.value;
    else if (token.value === 'json' || token.value === 'yaml') format = token.value;
    else throw new UsageError(`--format must be json or yaml, got ${token.value}`);
  }
  const file = config === undefined ? {} : { config };
  return action === 'check' ? { name: 'config-check', ...file } : { name: 'config-print', ...file, format };
}

export function parseCommand(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Command {
  const [name = 'server', ...rest] = argv;
  if (name === 'help' || name === '--help' || name === '-h') return { name: 'help' };
  if (name === 'restart_server') return parseRestartServer(rest, env);
  if (name === 'server') return parseServer(rest, env);
  if (name === 'config') return parseConfig(rest, env);
  throw new UsageError(`unknown command ${JSON.stringify(name)}`);
}
