export type WebhookFailureCode = 'HTTP_STATUS' | 'TIMEOUT' | 'NETWORK' | 'ABORTED';

/** One failed delivery attempt. The message never contains the URL's query, headers or body. */
export class WebhookDeliveryError extends Error {
  override readonly name = 'WebhookDeliveryError';
  readonly code: WebhookFailureCode;
  /** The receiver's status for `HTTP_STATUS`. */
  readonly status: number | undefined;

  constructor(code: WebhookFailureCode, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status;
  }
}

/** `createWebhooks` was given an option it cannot use; the message names every bad key. */
export class WebhooksOptionError extends Error {
  override readonly name = 'WebhooksOptionError';
  readonly code = 'INVALID_OPTION';
}
