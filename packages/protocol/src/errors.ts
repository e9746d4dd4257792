const brand = Symbol.for('@org/protocol/RealtimeError');

export type RealtimeErrorCode =
  | 'APP_NOT_FOUND'
  | 'INVALID_CHANNEL'
  | 'INVALID_EVENT_NAME'
  | 'INVALID_SOCKET_ID'
  | 'INVALID_ARGUMENT'
  | 'PAYLOAD_TOO_LARGE'
  | 'TOO_MANY_CHANNELS'
  | 'TOO_MANY_EVENTS'
  | 'NOT_A_PRESENCE_CHANNEL'
  | 'INVALID_OPTION';

/**
 * An error thrown by the engine's API for bad input, with a stable `code`.
 * HTTP layers map codes to statuses (e.g. PAYLOAD_TOO_LARGE to 413).
 */
export class RealtimeError extends Error {
  readonly code: RealtimeErrorCode;
  override readonly name = 'RealtimeError';

  constructor(code: RealtimeErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    Object.defineProperty(this, brand, { value: true });
  }

  /** Works across two installed copies of this package. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && brand in value;
  }
}
