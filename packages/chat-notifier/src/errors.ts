/** Stable machine-readable codes; match on these, never on messages. */
export type ChatNotifierErrorCode =
  | 'CHAT_INVALID_CONFIG'
  | 'CHAT_UNKNOWN_INSTANCE'
  | 'CHAT_INVALID_PAYLOAD'
  | 'CHAT_INVALID_TARGET'
  | 'CHAT_MISSING_RENDERER'
  | 'CHAT_DELIVERY_FAILED'
  | CouldNotSendCode;

/** Why a send failed; all are raised as CouldNotSendNotification. */
export type CouldNotSendCode =
  | 'CHAT_HTTP_ERROR'
  | 'CHAT_RATE_LIMITED'
  | 'CHAT_TIMEOUT'
  | 'CHAT_CONNECTION_FAILED'
  | 'CHAT_ABORTED'
  | ChatProxyFailureCode;

/** The proxy, not Rocket.Chat, failed: it could not be reached, or it refused the tunnel (407, 5xx). */
export type ChatProxyFailureCode = 'CHAT_PROXY_UNREACHABLE' | 'CHAT_PROXY_REFUSED';

const kChatNotifierError = Symbol.for('@org/chat-notifier.error');

/**
 * Root of every error this package throws. Branded with a global symbol so
 * `instanceof` still works when two copies of the package are installed.
 */
export class ChatNotifierError extends Error {
  readonly code: ChatNotifierErrorCode;
  readonly [kChatNotifierError] = true;

  constructor(code: ChatNotifierErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChatNotifierError';
    this.code = code;
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    if (this !== ChatNotifierError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[kChatNotifierError] === true;
  }

  /**
   * `JSON.stringify(error)` gives name, code, message and the error's own
   * details (never a cause object from the network stack, only its message).
   * Every string here went through the package's masking rule.
   */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, code: this.code, message: this.message };
    for (const [key, value] of Object.entries(this)) if (value !== undefined) out[key] = value;
    if (this.cause instanceof Error) out.cause = { name: this.cause.name, message: this.cause.message };
    return out;
  }
}

/** Config failed validation; the message names the key and what was expected. */
export class InvalidChatConfig extends ChatNotifierError {
  declare readonly code: 'CHAT_INVALID_CONFIG';
  /**
   * Each problem on its own, starting with the key it is about, when an instance's options failed
   * validation (the message joins them with "; ", which a key may itself contain); otherwise the message alone.
   */
  readonly problems: readonly string[];
  constructor(message: string, problems?: readonly string[]) {
    super('CHAT_INVALID_CONFIG', message);
    this.name = 'InvalidChatConfig';
    this.problems = problems ?? [message];
  }
}

/** A registry was asked for an instance it does not know. */
export class UnknownChatInstance extends ChatNotifierError {
  declare readonly code: 'CHAT_UNKNOWN_INSTANCE';
  readonly instance: string;
  constructor(instance: string, message: string) {
    super('CHAT_UNKNOWN_INSTANCE', message);
    this.name = 'UnknownChatInstance';
    this.instance = instance;
  }
}

/** A message or payload that Rocket.Chat would reject (or silently drop). */
export class InvalidChatPayload extends ChatNotifierError {
  declare readonly code: 'CHAT_INVALID_PAYLOAD';
  /** Dotted path of the offending field, e.g. `attachments[0].fields[1].value`. */
  readonly field: string;
  constructor(field: string, message: string) {
    super('CHAT_INVALID_PAYLOAD', field ? `Invalid chat payload: ${field}: ${message}` : `Invalid chat payload: ${message}`);
    this.name = 'InvalidChatPayload';
    this.field = field;
  }
}

/** A route (`#channel`, `@user`) that cannot be sent to. */
export class InvalidChatTarget extends ChatNotifierError {
  declare readonly code: 'CHAT_INVALID_TARGET';
  constructor(message: string) {
    super('CHAT_INVALID_TARGET', message);
    this.name = 'InvalidChatTarget';
  }
}

/** The notification has no `toChat()` method. */
export class MissingChatRenderer extends ChatNotifierError {
  declare readonly code: 'CHAT_MISSING_RENDERER';
  constructor(message: string) {
    super('CHAT_MISSING_RENDERER', message);
    this.name = 'MissingChatRenderer';
  }
}

/** What the server answered; `body` is truncated to a bounded size and redacted. */
export interface ChatErrorResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface CouldNotSendDetails {
  readonly channel: string;
  readonly response?: ChatErrorResponse | undefined;
  readonly cause?: unknown;
  readonly attempts: number;
  /** Seconds the server asked us to wait, when it told us and we gave up. */
  readonly retryAfter?: number | undefined;
}

/** Sending failed for good (after any retries). Never contains the webhook token; `cause` is a scrubbed copy. */
export class CouldNotSendNotification extends ChatNotifierError {
  declare readonly code: CouldNotSendCode;
  /** The instance name, e.g. `chat` or `chat-alerts`. */
  readonly channel: string;
  readonly response: ChatErrorResponse | undefined;
  readonly attempts: number;
  readonly retryAfter: number | undefined;

  constructor(code: CouldNotSendCode, message: string, details: CouldNotSendDetails) {
    super(code, message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'CouldNotSendNotification';
    this.channel = details.channel;
    this.response = details.response;
    this.attempts = details.attempts;
    this.retryAfter = details.retryAfter;
  }
}

export interface ChatProxyFailureDetails extends CouldNotSendDetails {
  /** `host:port` of the proxy (never its credentials). */
  readonly proxy: string;
  /** What the proxy answered to CONNECT (e.g. 407), when it answered. */
  readonly proxyStatus?: number | undefined;
}

/**
 * The configured proxy failed, so Rocket.Chat was never reached: it refused
 * the connection or could not be resolved (`CHAT_PROXY_UNREACHABLE`), or it
 * answered the tunnel request with 407 or another non-200 (`CHAT_PROXY_REFUSED`).
 * A CouldNotSendNotification, so existing handlers still catch it.
 */
export class ChatProxyFailure extends CouldNotSendNotification {
  declare readonly code: ChatProxyFailureCode;
  readonly proxy: string;
  readonly proxyStatus: number | undefined;

  constructor(code: ChatProxyFailureCode, message: string, details: ChatProxyFailureDetails) {
    super(code, message, details);
    this.name = 'ChatProxyFailure';
    this.proxy = details.proxy;
    this.proxyStatus = details.proxyStatus;
  }
}
