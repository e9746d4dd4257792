/** The daemon's command line: `server [--host H] [--port P] [--config FILE]` and `restart_server`. */
export type Command =
  | { name: 'server'; host?: string; port?: number; config?: string; allowUwsFallback: boolean }
  | { name: 'restart_server'; config?: string }
  | { name: 'help' };

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const usage = `Usage:
  realtime-server server [--host <address>] [--port <port>] [--config <file.json|file.yaml>] [--allow-uws-fallback]
  realtime-server restart_server [--config <file.json|file.yaml>]
    Restarts every node gracefully: through Redis when scaling is enabled, else the servers on this host
    (only processes proven to be the registered server are signalled; stale pid files are removed).

Environment: REALTIME_CONFIG (config file), REALTIME_HOST, REALTIME_PORT, REALTIME_PATH,
REALTIME_APP_ID / REALTIME_APP_KEY / REALTIME_APP_SECRET, REDIS_URL, REALTIME_DEBUG=true.`;

export function parseCommand(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Command {
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
