/** Stable codes; match on `code`, never on `message`. */
export type NotificationBellErrorCode =
  | 'INVALID_OPTION'
  | 'INVALID_NOTIFICATION'
  | 'INVALID_RESPONSE'
  | 'HTTP_ERROR'
  | 'NETWORK_ERROR'
  | 'BROADCASTER_UNAVAILABLE';

export interface NotificationBellErrorDetails {
  /** HTTP status when the server answered. */
  status?: number;
  /** The server's own `code` (e.g. `NOT_FOUND`, `CSRF_MISMATCH`). */
  serverCode?: string;
  cause?: unknown;
}

export class NotificationBellError extends Error {
  override readonly name = 'NotificationBellError';
  readonly code: NotificationBellErrorCode;
  readonly status: number | undefined;
  readonly serverCode: string | undefined;

  constructor(code: NotificationBellErrorCode, message: string, details: NotificationBellErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.status = details.status;
    this.serverCode = details.serverCode;
  }
}

export function isNotificationBellError(value: unknown): value is NotificationBellError {
  return value instanceof NotificationBellError;
}
