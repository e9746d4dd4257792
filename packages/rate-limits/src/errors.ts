const brand = Symbol.for('@org/rate-limits/RateLimitsError');

export type RateLimitsErrorCode =
  /** An option failed validation when the limits were built; the message names the key and what it expects. */
  'INVALID_OPTION';

/** An error of `@org/rate-limits` with a stable `code`; a `RangeError`, like the counters' own size check. */
export class RateLimitsError extends RangeError {
  readonly code: RateLimitsErrorCode;
  override readonly name = 'RateLimitsError';

  constructor(code: RateLimitsErrorCode, message: string) {
    super(message);
    this.code = code;
    Object.defineProperty(this, brand, { value: true });
  }

  /** Works across two installed copies of this package. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && brand in value;
  }
}
