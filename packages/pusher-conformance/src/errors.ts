/** Why a case did not pass, or why the kit could not start; `code` is stable, the message says what to do. */
export type ConformanceErrorCode =
  /** A case's check did not hold: the server does not conform. */
  | 'CHECK_FAILED'
  /** A case did not finish within its time: the server did not answer. */
  | 'CASE_TIMEOUT'
  /** The whole run's time was up before the case finished. */
  | 'RUN_TIMEOUT'
  /** The options given to the kit are not valid. */
  | 'INVALID_OPTIONS'
  /** The webhook receiver could not listen. */
  | 'RECEIVER_FAILED';

export class ConformanceError extends Error {
  override readonly name = 'ConformanceError';
  constructor(
    readonly code: ConformanceErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
