const brand = Symbol.for('@org/rest-api/PusherApiError');

/** Stable codes of everything the HTTP API refuses; each maps to one HTTP status. */
export const errorStatus = {
  INVALID_OPTION: 500,
  MALFORMED_REQUEST: 400,
  INVALID_FIELD: 400,
  UNAUTHORIZED: 401,
  APP_NOT_FOUND: 404,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  IDEMPOTENCY_KEY_IN_USE: 409,
  PAYLOAD_TOO_LARGE: 413,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type PusherApiErrorCode = keyof typeof errorStatus;

/**
 * An error of the HTTP API with a stable `code` and the HTTP `status` it is
 * answered with. Its message is safe to show to the caller.
 */
export class PusherApiError extends Error {
  readonly code: PusherApiErrorCode;
  override readonly name = 'PusherApiError';
  /** For `RATE_LIMITED`: sent as `Retry-After`. */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: PusherApiErrorCode, message: string, options?: { cause?: unknown; retryAfterSeconds?: number }) {
    super(message, options);
    this.code = code;
    this.retryAfterSeconds = options?.retryAfterSeconds;
    Object.defineProperty(this, brand, { value: true });
  }

  get status(): number {
    return errorStatus[this.code];
  }

  /** Works across two installed copies of this package. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && brand in value;
  }
}
