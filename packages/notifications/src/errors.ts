/** Every error this package throws carries one of these stable codes. */
export type NotificationsErrorCode =
  | 'INVALID_OPTION'
  | 'INVALID_PARAMETER'
  | 'INVALID_NOTIFICATION'
  | 'UNAUTHENTICATED'
  | 'CSRF_MISMATCH'
  | 'CHANNEL_FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'CHANNEL_NOT_FOUND'
  | 'ROUTE_NOT_FOUND'
  | 'PAYLOAD_TOO_LARGE'
  | 'BROADCAST_FAILED'
  | 'BROADCASTING_DISABLED'
  | 'DELIVERY_FAILED'
  | 'STORE_CLOSED'
  | 'INTERNAL_ERROR';

const brand = Symbol.for('@org/notifications/error');

export interface NotificationsErrorOptions {
  cause?: unknown;
  /** HTTP status for errors that cross the API, or the upstream status for BROADCAST_FAILED. */
  status?: number;
}

/** Base error of @org/notifications: branded so `instanceof` survives two installed copies. */
export class NotificationsError extends Error {
  override readonly name: string = 'NotificationsError';
  readonly code: NotificationsErrorCode;
  readonly status: number | undefined;
  readonly [brand] = true;

  constructor(code: NotificationsErrorCode, message: string, options: NotificationsErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status;
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
  }
}

/** One failed (notifiable, channel) pair inside a DeliveryError. */
export interface DeliveryFailure {
  notifiable: object;
  channel: string;
  error: unknown;
}

/** Thrown by NotificationManager.send after every channel was tried, when at least one failed. */
export class DeliveryError extends NotificationsError {
  override readonly name = 'DeliveryError';
  readonly failures: readonly DeliveryFailure[];

  constructor(failures: readonly DeliveryFailure[]) {
    const first = failures[0];
    const reason = first?.error instanceof Error ? first.error.message : String(first?.error);
    super('DELIVERY_FAILED', `${failures.length} notification deliver${failures.length === 1 ? 'y' : 'ies'} failed; first on channel "${first?.channel}": ${reason}`, {
      cause: first?.error,
    });
    this.failures = failures;
  }
}
