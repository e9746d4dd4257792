export type DemoErrorCode = 'INVALID_OPTION' | 'ASSET_NOT_FOUND' | 'DAEMON_FAILED';

/** Every error the demo throws on purpose carries a stable code. */
export class DemoError extends Error {
  override readonly name = 'DemoError';
  constructor(
    readonly code: DemoErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
