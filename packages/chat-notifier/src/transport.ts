/** One POST of a JSON body to the webhook URL. */
export interface ChatHttpRequest {
  /** The webhook URL exactly as configured (it carries the secret token). */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** Aborted when the instance's `timeout` elapses or the caller cancels. */
  readonly signal: AbortSignal;
}

export interface ChatHttpResponse {
  readonly status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  /** At most MAX_RESPONSE_BODY_BYTES of the body, decoded as UTF-8. */
  readonly body: string;
}

/**
 * How a ChatChannel reaches the server. The default is UndiciTransport; tests
 * and dry runs can pass RecordingTransport (from `@org/chat-notifier/testing`).
 * Throw on network failures; return (do not throw) any HTTP status.
 */
export interface ChatTransport {
  post(request: ChatHttpRequest): Promise<ChatHttpResponse>;
  close?(): Promise<void>;
}

/** Response bodies are only kept for errors; cap them so a huge error page cannot exhaust memory. */
export const MAX_RESPONSE_BODY_BYTES = 64 * 1024;
