/** The logging surface the engine needs; pino loggers satisfy it. */
export interface Logger {
  debug(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/** Log scopes the engine writes to; operators switch each on or off. */
export type LogScope = 'socket.server' | 'socket.connection' | 'socket.channel' | 'socket.handler' | 'socket.controller';

/** Returns the logger for a scope. */
export type LoggerFactory = (scope: LogScope) => Logger;

const noop = () => {};
export const silentLogger: Logger = { debug: noop, info: noop, warn: noop, error: noop };
export const silentLoggerFactory: LoggerFactory = () => silentLogger;
