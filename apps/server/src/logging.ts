import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { silentLogger, type Logger } from '@org/protocol';
import pino from 'pino';
import type { Config } from './config/schema.js';
import { scopeDefaults } from './config/schema.js';
import { logCensor, redactSecretFields } from './secret-log-fields.js';

type Scope = keyof typeof scopeDefaults | (string & {});

/**
 * Paths pino blanks out, also in serialized values (an error's fields). Every
 * plain field under a secret key, by the configuration's one key rule, is
 * blanked by redactSecretFields; these add the request names that are no
 * configuration keys (`auth`, `auth_signature`) and `webhook`.
 */
const redactPaths = [
  'secret', '*.secret', 'auth', '*.auth', 'auth_signature', '*.auth_signature', 'authorization', '*.authorization',
  'password', '*.password', 'token', '*.token', 'headers.authorization', 'webhook', '*.webhook',
];

export interface Logging {
  /** The logger of a scope; a silent one when the scope (or logging) is off. */
  scope(name: Scope): Logger;
  /**
   * Apps whose debug lines are written although `debug_enabled` is off (their
   * `enable_debug`). A debug line belongs to an app when it has an `app` field.
   */
  setDebugApps(appIds: Iterable<string>): void;
  readonly root: pino.Logger;
}

const debugLevel = 20;

/**
 * pino with the original server's scopes: JSON lines by default, pretty on a
 * TTY, optionally also to `<log_path>/<log_file>.log`. Each line carries `scope`.
 */
export function createLogging(config: Config['logging'], options: { stream?: NodeJS.WritableStream; pretty?: boolean } = {}): Logging {
  // Streams and loggers let debug through; the hook below decides which debug lines are written.
  const level = 'debug';
  let debugApps = new Set<string>();
  const writes = (lineLevel: number, fields: unknown): boolean => {
    if (lineLevel > debugLevel || config.debug_enabled) return true;
    const app = typeof fields === 'object' && fields !== null ? (fields as { app?: unknown }).app : undefined;
    return typeof app === 'string' && debugApps.has(app);
  };
  const streams: pino.StreamEntry[] = [];
  const pretty = options.pretty ?? (options.stream === undefined && process.stdout.isTTY === true);
  if (pretty) {
    streams.push({ level, stream: pino.transport({ target: 'pino-pretty', options: { colorize: true, ignore: 'pid,hostname' } }) });
  } else {
    streams.push({ level, stream: options.stream ?? process.stdout });
  }
  if (config.log_path) {
    mkdirSync(config.log_path, { recursive: true });
    streams.push({ level, stream: pino.destination({ dest: join(config.log_path, `${config.log_file}.log`), sync: false, mkdir: true }) });
  }
  const root = pino(
    {
      level,
      redact: { paths: redactPaths, censor: logCensor },
      formatters: { log: redactSecretFields },
      base: null,
      hooks: {
        logMethod(args, method, lineLevel) {
          if (writes(lineLevel, args[0])) method.apply(this, args);
        },
      },
    },
    pino.multistream(streams),
  );
  const scopes: Record<string, boolean> = { ...scopeDefaults, ...config.scopes };
  const cache = new Map<string, Logger>();

  return {
    root,
    setDebugApps(appIds) {
      debugApps = new Set(appIds);
    },
    scope(name) {
      let logger = cache.get(name);
      if (!logger) {
        const enabled = config.enabled && (scopes[name] ?? true);
        logger = enabled ? (root.child({ scope: name }) as unknown as Logger) : silentLogger;
        cache.set(name, logger);
      }
      return logger;
    },
  };
}
