const brand = Symbol.for('@org/idempotency/IdempotencyError');

export type IdempotencyErrorCode =
  /** An option is invalid (the message names it). */
  | 'INVALID_OPTION'
  /** The store did not answer in time, or answered something it could not have stored. */
  | 'UNAVAILABLE'
  /** The store was closed. */
  | 'CLOSED';

/** An error of this package with a stable `code`. */
export class IdempotencyError extends Error {
  readonly code: IdempotencyErrorCode;
  override readonly name = 'IdempotencyError';

  constructor(code: IdempotencyErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    Object.defineProperty(this, brand, { value: true });
  }

  /** Works across two installed copies of this package. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && brand in value;
  }
}
