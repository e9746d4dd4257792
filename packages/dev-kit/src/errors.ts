export type DevKitErrorCode =
  /** The OS answered a listen on port 0 without a port. */
  | 'NO_PORT'
  /** No Redis to test against where one is required: `REDIS_URL` does not answer, or CI has none. */
  | 'REDIS_UNAVAILABLE'
  /** Our own redis-server exited or was not ready in time. */
  | 'REDIS_START_FAILED'
  /** The daemon process could not be spawned. */
  | 'DAEMON_SPAWN_FAILED'
  /** No log line matched within the wait. */
  | 'DAEMON_LOG_TIMEOUT'
  /** The daemon exited before the log line a caller waited for. */
  | 'DAEMON_EXITED'
  /** A test setting is malformed (`REDIS_CLUSTER_NODES` not host:port,…). */
  | 'INVALID_OPTION';

/** An error of the test utilities with a stable `code`; messages carry the process output that explains it. */
export class DevKitError extends Error {
  readonly code: DevKitErrorCode;
  override readonly name = 'DevKitError';

  constructor(code: DevKitErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
