import type { ChatContent, ChatTarget } from './chat-notification.js';
import { assertInstanceName, resolveChatConfig, type ChatInstanceConfig, type ResolvedChatConfig } from './config.js';
import { ChatProxyFailure, CouldNotSendNotification, type ChatErrorResponse, type CouldNotSendCode } from './errors.js';
import { preparePayload, type PreparedPayload } from './prepare-payload.js';
import { headerSecrets, maskUrl, Redactor, safeString, sanitizeError, userinfoSecrets } from './redact.js';
import { backoffDelay, classifyFailure, isRetryableFailure, serverRetryDelay, type FailureKind } from './retry-policy.js';
import type { ChatHttpResponse, ChatTransport } from './transport.js';
import { ProxyConnectError, UndiciTransport } from './undici-transport.js';

/** Receives retry notices; messages and data never contain the webhook token. */
export interface ChatLogger {
  warn(message: string, data?: Record<string, unknown>): void;
}

export interface ChatChannelOptions {
  /** Instance name used in errors and logs; `chat` or `chat-<suffix>`. Default `chat`. */
  readonly name?: string;
  /**
   * A transport, or a factory given the validated config. Default: an
   * UndiciTransport built from the config's HTTP options.
   */
  readonly transport?: ChatTransport | ChatTransportFactory;
  /** Where a missing `webhook` is read from. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly logger?: ChatLogger;
}

export type ChatTransportFactory = (instance: string, config: ResolvedChatConfig) => ChatTransport;

export interface ChatSendOptions {
  readonly signal?: AbortSignal;
}

export interface ChatSendResult {
  /** False only with `http_errors: false` and a non-2xx final answer. */
  readonly ok: boolean;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly attempts: number;
  /** What was posted. */
  readonly payload: PreparedPayload['payload'];
}

const USER_AGENT = '@org/chat-notifier';
const BODY_IN_MESSAGE = 500;

/** One Rocket.Chat incoming webhook with its own options. */
export class ChatChannel {
  readonly name: string;
  readonly #config: ResolvedChatConfig;
  readonly #transport: ChatTransport;
  readonly #logger: ChatLogger | undefined;
  readonly #redactor: Redactor;
  readonly #safeUrl: string;

  constructor(config: ChatInstanceConfig | undefined, options: ChatChannelOptions = {}) {
    const name = options.name ?? 'chat';
    assertInstanceName(name);
    this.name = name;
    this.#config = resolveChatConfig(name, config, options.env);
    const transport = options.transport;
    this.#transport =
      typeof transport === 'function'
        ? transport(name, this.#config)
        : (transport ?? new UndiciTransport(this.#config, name));
    this.#logger = options.logger;
    const proxy = userinfoSecrets(this.#config.proxy);
    const headers = headerSecrets(this.#config.headers);
    this.#redactor = Redactor.forWebhook(this.#config.webhook, [...proxy.secrets, ...headers.secrets], [...proxy.maskOnly, ...headers.maskOnly]);
    this.#safeUrl = maskUrl(this.#config.webhook);
  }

  /** The webhook's own destination from config (routes equal to it are not sent). */
  get defaultChannel(): string | undefined {
    return this.#config.channel;
  }

  /** The webhook URL with the token hidden. */
  get redactedWebhook(): string {
    return this.#safeUrl;
  }

  /** Builds and validates the payload that send() would post, without sending. */
  prepare(target: ChatTarget | null | undefined, message: ChatContent): PreparedPayload {
    return preparePayload(target, message, { ...this.#config, instance: this.name });
  }

  /**
   * Posts `message` to `target` (`#room`, `@user`, or null for the webhook's
   * default). Retries per the instance's policy; throws CouldNotSendNotification
   * when it gives up (or, with http_errors: false, returns the non-2xx answer).
   */
  async send(target: ChatTarget | null | undefined, message: ChatContent, options: ChatSendOptions = {}): Promise<ChatSendResult> {
    const prepared = this.prepare(target, message);
    const policy = this.#config.retry;
    const maxAttempts = policy === false ? 1 : policy.retries + 1;
    const started = Date.now();

    for (let attempt = 1; ; attempt++) {
      const outcome = await this.#attempt(prepared.body, options.signal);
      const canRetry = policy !== false && attempt < maxAttempts;

      if ('error' in outcome) {
        const { kind, error } = outcome;
        if (canRetry && isRetryableFailure(kind, policy)) {
          const delay = backoffDelay(policy, attempt);
          if (elapsedSeconds(started) + delay <= policy.max_elapsed) {
            this.#logRetry(`${describeKind(kind)}`, delay, attempt + 1, maxAttempts);
            await this.#pause(delay, options.signal, attempt);
            continue;
          }
        }
        throw this.#failure(kind, error, attempt);
      }

      const response = outcome.response;
      if (response.status >= 200 && response.status < 300) {
        return { ok: true, ...this.#safeResponse(response), attempts: attempt, payload: prepared.payload };
      }

      const serverDelay = serverRetryDelay(response.headers, response.body);
      if (canRetry && policy.statuses.includes(response.status)) {
        const delay = serverDelay ?? backoffDelay(policy, attempt);
        // A wait longer than the policy allows is not shortened (it would only
        // earn another 429): give up and report how long the server asked for.
        if (delay <= policy.max_delay && elapsedSeconds(started) + delay <= policy.max_elapsed) {
          this.#logRetry(`HTTP ${response.status}`, delay, attempt + 1, maxAttempts);
          await this.#pause(delay, options.signal, attempt);
          continue;
        }
      }

      if (!this.#config.http_errors) {
        return { ok: false, ...this.#safeResponse(response), attempts: attempt, payload: prepared.payload };
      }
      throw this.#httpFailure(response, attempt, serverDelay);
    }
  }

  /** Closes the connection pool. */
  async close(): Promise<void> {
    await this.#transport.close?.();
  }

  /** Keeps the token out of console.log / util.inspect. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `ChatChannel { name: '${this.name}', webhook: '${this.#safeUrl}' }`;
  }

  toJSON(): { name: string; webhook: string } {
    return { name: this.name, webhook: this.#safeUrl };
  }

  async #attempt(
    body: string,
    signal: AbortSignal | undefined,
  ): Promise<{ response: ChatHttpResponse } | { error: unknown; kind: FailureKind }> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error(`timed out after ${this.#config.timeout} s`));
    }, this.#config.timeout * 1000);
    const onAbort = () => controller.abort(signal?.reason);
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await withDeadline(
        this.#transport.post({
          url: this.#config.webhook,
          headers: {
            'user-agent': USER_AGENT,
            accept: 'application/json',
            ...this.#config.headers,
            'content-type': 'application/json',
          },
          body,
          signal: controller.signal,
        }),
        controller.signal,
      );
      return { response };
    } catch (error) {
      // A proxy failure says more than "timed out": the request never left for Rocket.Chat.
      const kind: FailureKind = signal?.aborted
        ? 'aborted'
        : error instanceof ProxyConnectError
          ? failureKind(error)
          : timedOut
            ? 'timeout'
            : failureKind(error);
      return { error, kind };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  async #pause(seconds: number, signal: AbortSignal | undefined, attempts: number): Promise<void> {
    try {
      await sleep(seconds, signal);
    } catch (reason) {
      throw this.#failure('aborted', reason, attempts);
    }
  }

  #failure(kind: FailureKind, error: unknown, attempts: number): CouldNotSendNotification {
    const cause = sanitizeError(error, this.#redactor);
    if (error instanceof ProxyConnectError && kind !== 'aborted') {
      return new ChatProxyFailure(
        error.code,
        `${this.#redactor.text(error.message)}, so chat instance "${this.name}" could not reach Rocket.Chat (${this.#safeUrl}, ${plural(attempts)}); the proxy failed, not Rocket.Chat`,
        { channel: this.name, cause, attempts, proxy: error.proxy, proxyStatus: error.status },
      );
    }
    const code: CouldNotSendCode =
      kind === 'timeout' ? 'CHAT_TIMEOUT' : kind === 'aborted' ? 'CHAT_ABORTED' : 'CHAT_CONNECTION_FAILED';
    const reason = this.#redactor.text(error instanceof Error ? `${error.message}${codeOf(error)}` : safeString(error));
    const detail =
      kind === 'timeout'
        ? `no answer within timeout (${this.#config.timeout} s)`
        : kind === 'tls'
          ? `TLS verification failed: ${reason}`
          : reason;
    return new CouldNotSendNotification(
      code,
      `The communication with Rocket.Chat failed (instance "${this.name}", ${this.#safeUrl}, ${plural(attempts)}). Reason: ${detail}`,
      { channel: this.name, cause, attempts },
    );
  }

  #httpFailure(response: ChatHttpResponse, attempts: number, retryAfter: number | undefined): CouldNotSendNotification {
    const safe: ChatErrorResponse = this.#safeResponse(response);
    const body = safe.body;
    const snippet = body.length > BODY_IN_MESSAGE ? `${body.slice(0, BODY_IN_MESSAGE)}…` : body;
    const rateLimited = response.status === 429;
    const wait = rateLimited && retryAfter !== undefined ? `; the server asked to wait ${round(retryAfter)} s` : '';
    return new CouldNotSendNotification(
      rateLimited ? 'CHAT_RATE_LIMITED' : 'CHAT_HTTP_ERROR',
      `Rocket.Chat responded with an error \`${response.status} - ${snippet}\` (instance "${this.name}", ${this.#safeUrl}, ${plural(attempts)}${wait})`,
      { channel: this.name, response: safe, attempts, retryAfter: rateLimited ? retryAfter : undefined },
    );
  }

  #logRetry(reason: string, delay: number, nextAttempt: number, maxAttempts: number): void {
    this.#logger?.warn(
      `chat-notifier: instance "${this.name}" got ${reason} from ${this.#safeUrl}; retrying in ${round(delay)} s (attempt ${nextAttempt} of ${maxAttempts})`,
      { instance: this.name, delaySeconds: delay, attempt: nextAttempt },
    );
  }

  /** Status, headers and body with the masking rule applied: what errors and results may carry. */
  #safeResponse(response: ChatHttpResponse): ChatErrorResponse {
    return { status: response.status, headers: this.#redactor.headers(response.headers), body: this.#redactor.text(response.body) };
  }
}

/**
 * A proxy that is down, hangs up or answers the tunnel with 5xx never passed
 * the request on, so that is retried like a connection error; a 407 or a TLS
 * mismatch will not heal.
 */
function failureKind(error: unknown): FailureKind {
  if (error instanceof ProxyConnectError) return error.retryable ? 'connection' : 'other';
  return classifyFailure(error);
}

function describeKind(kind: FailureKind): string {
  return kind === 'timeout' ? 'a timeout' : 'a connection error';
}

function codeOf(error: Error): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? ` (${code})` : '';
}

function plural(attempts: number): string {
  return attempts === 1 ? '1 attempt' : `${attempts} attempts`;
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

function elapsedSeconds(since: number): number {
  return (Date.now() - since) / 1000;
}

/** How long a transport gets, after its signal aborted, to settle with its own (more precise) error. */
const TRANSPORT_ABORT_GRACE_MS = 250;

/**
 * The package's own deadline: `post` settles no later than shortly after
 * `signal` aborts, even from a transport that ignores the signal.
 */
function withDeadline<T>(post: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      timer = setTimeout(() => reject(signal.reason), TRANSPORT_ABORT_GRACE_MS);
    };
    const finish = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    };
    post.then(
      (value) => (finish(), resolve(value)),
      (error: unknown) => (finish(), reject(error)),
    );
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

function sleep(seconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, seconds * 1000);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
