const brand = Symbol.for('@org/redis-scaler/RedisScalerError');

export type RedisScalerErrorCode =
  /** An option failed validation; the message names the key and what it expects. */
  | 'INVALID_OPTION'
  /** The scaler was used after `close()`. */
  | 'SCALER_CLOSED'
  /** A question only Redis can answer (another node's presence members) while Redis is unreachable. */
  | 'REDIS_UNAVAILABLE';

/** An error of the Redis scaler with a stable `code`. */
export class RedisScalerError extends Error {
  readonly code: RedisScalerErrorCode;
  override readonly name = 'RedisScalerError';

  constructor(code: RedisScalerErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    Object.defineProperty(this, brand, { value: true });
  }

  /** Works across two installed copies of this package. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && brand in value;
  }
}
