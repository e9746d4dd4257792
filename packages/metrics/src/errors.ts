const brand = Symbol.for('@org/metrics/MetricsError');

export type MetricsErrorCode =
  /** An option failed validation; the message names the key and what it expects. */
  | 'INVALID_OPTION'
  /** The metrics listener could not listen on its host and port (in use past `retryInUseMs`, no such address...). */
  | 'LISTEN_FAILED';

/** An error of `@org/metrics` with a stable `code`. */
export class MetricsError extends Error {
  readonly code: MetricsErrorCode;
  override readonly name = 'MetricsError';

  constructor(code: MetricsErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    Object.defineProperty(this, brand, { value: true });
  }

  /** Works across two installed copies of this package. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && brand in value;
  }
}
