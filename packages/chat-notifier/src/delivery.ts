import { renderChatContent, resolveChatRoute, type ChatContent, type ChatTarget } from './chat-notification.js';
import { INSTANCE_NAME } from './config.js';
import type { Notifiable, Notification } from '@org/notifications/contract';
import { ChatNotifierError, InvalidChatTarget, type ChatNotifierErrorCode } from './errors.js';

/**
 * What happened for one recipient on one chat instance. Holds no secrets: the
 * error (when there is one) is this package's masked error.
 */
export interface ChatDeliveryResult {
  /** The instance used: `chat`, `chat-alerts`, … */
  readonly instance: string;
  /** Position of the recipient in the list given to notify()/send() (0 for one recipient). */
  readonly recipient: number;
  /** The recipient itself (not enumerable, so logging results does not dump your user objects). */
  readonly notifiable: object;
  /** The resolved route; null for the webhook's default (or when it failed before routing). */
  readonly target: ChatTarget | null;
  /** True when posted with a 2xx answer, or skipped because toChat() returned null. */
  readonly ok: boolean;
  /** toChat() returned null, so nothing was posted. */
  readonly skipped: boolean;
  /** The final HTTP status, when the server answered. */
  readonly status: number | undefined;
  /** Why it failed (a ChatNotifierError code), undefined when ok or for a foreign error. */
  readonly code: ChatNotifierErrorCode | undefined;
  /** HTTP requests made (0 when it failed before sending). */
  readonly attempts: number;
  /**
   * Set only for failures a single send would have thrown. A non-2xx answer
   * under `http_errors: false` has `ok: false`, `status` and `code`, and no error.
   */
  readonly error?: unknown;
}

/** What an instance reports back after posting (a ChatSendResult, or the fake's record). */
export interface PostOutcome {
  readonly ok: boolean;
  readonly status: number | undefined;
  readonly attempts: number;
}

export type Post = (
  instance: string,
  target: ChatTarget | null,
  content: ChatContent,
  notifiable: object,
  notification: Notification,
) => Promise<PostOutcome>;

/** Renders, routes and posts for one recipient on one instance; never throws, reports instead. */
async function deliverOne(
  post: Post,
  notifiable: object,
  notification: Notification,
  instance: string,
  recipient: number,
): Promise<ChatDeliveryResult> {
  const base = { instance, recipient };
  let target: ChatTarget | null = null;
  try {
    const who = notifiable as Notifiable; // any object; its routing methods are optional
    const content = await renderChatContent(who, notification, instance);
    if (content === null) return result(notifiable, { ...base, target, ok: true, skipped: true, status: undefined, code: undefined, attempts: 0 });
    target = resolveChatRoute(who, notification, instance);
    const outcome = await post(instance, target, content, notifiable, notification);
    const code: ChatNotifierErrorCode | undefined = outcome.ok ? undefined : outcome.status === 429 ? 'CHAT_RATE_LIMITED' : 'CHAT_HTTP_ERROR';
    return result(notifiable, { ...base, target, ok: outcome.ok, skipped: false, status: outcome.status, code, attempts: outcome.attempts });
  } catch (error) {
    const details = error as { code?: unknown; attempts?: unknown; response?: { status?: unknown } };
    return result(notifiable, {
      ...base,
      target,
      ok: false,
      skipped: false,
      status: typeof details?.response?.status === 'number' ? details.response.status : undefined,
      code: error instanceof ChatNotifierError ? error.code : undefined,
      attempts: typeof details?.attempts === 'number' ? details.attempts : 0,
      error,
    });
  }
}

function result(notifiable: object, fields: Omit<ChatDeliveryResult, 'notifiable'>): ChatDeliveryResult {
  const out = { ...fields };
  if (out.error === undefined) delete (out as { error?: unknown }).error;
  Object.defineProperty(out, 'notifiable', { value: notifiable, enumerable: false });
  return out as ChatDeliveryResult;
}

/**
 * Runs every delivery (in parallel, none stops the others), then throws
 * ChatDeliveryFailed if any failed in a way a single send would have thrown.
 */
async function settle(deliveries: ReadonlyArray<Promise<ChatDeliveryResult>>): Promise<ChatDeliveryResult[]> {
  const results = await Promise.all(deliveries);
  if (results.some((r) => r.error !== undefined)) throw new ChatDeliveryFailed(results);
  return results;
}

/** `notify()`: each recipient, through every `chat`/`chat-*` name its via() returns. */
export function notifyAll(post: Post, notifiables: object | readonly object[], notification: Notification): Promise<ChatDeliveryResult[]> {
  const list = recipients(notifiables);
  // Every via() is asked before anything is sent, so a throwing via() sends nothing.
  const plan = list.map((notifiable) => notification.via(notifiable as Notifiable).filter((name) => INSTANCE_NAME.test(name)));
  return settle(list.flatMap((notifiable, index) => plan[index]!.map((name) => deliverOne(post, notifiable, notification, name, index))));
}

/** `send(list, n, channel)`: each recipient through `channel`, exactly as send(recipient, n, channel). */
export function sendAll(post: Post, notifiables: readonly object[], notification: Notification, channel: string): Promise<ChatDeliveryResult[]> {
  return settle(recipients(notifiables).map((notifiable, index) => deliverOne(post, notifiable, notification, channel, index)));
}

/** `send(one, n, channel)`: the NotificationChannel contract; throws what the send threw. */
export async function sendOne(post: Post, notifiable: object, notification: Notification, channel: string): Promise<ChatDeliveryResult> {
  const outcome = await deliverOne(post, notifiable, notification, channel, 0);
  if (outcome.error !== undefined) throw outcome.error;
  return outcome;
}

function recipients(notifiables: object | readonly object[]): readonly object[] {
  if (!Array.isArray(notifiables)) {
    if (typeof notifiables !== 'object' || notifiables === null) {
      throw new InvalidChatTarget(`Expected a notifiable object or an array of them, got ${notifiables === null ? 'null' : typeof notifiables}`);
    }
    return [notifiables];
  }
  const list = notifiables as readonly unknown[];
  list.forEach((n, i) => {
    if (typeof n !== 'object' || n === null) {
      throw new InvalidChatTarget(`Expected notifiable objects, got ${n === null ? 'null' : typeof n} at index ${i}`);
    }
  });
  return list as readonly object[];
}

/**
 * `notify()` / `send([...])` attempted every recipient and instance, and at
 * least one failed in a way a single send would have thrown. `results` has one
 * entry per attempt (successes too); `errors` holds the failures' errors, in order.
 */
export class ChatDeliveryFailed extends ChatNotifierError {
  declare readonly code: 'CHAT_DELIVERY_FAILED';
  readonly results: readonly ChatDeliveryResult[];
  readonly errors: readonly unknown[];

  constructor(results: readonly ChatDeliveryResult[]) {
    const failed = results.filter((r) => r.error !== undefined);
    const first = failed[0]?.error;
    const firstMessage = first instanceof Error ? `; first: ${first.message}` : '';
    super(
      'CHAT_DELIVERY_FAILED',
      `${failed.length} of ${results.length} chat deliveries failed (${failed.map((r) => `${r.instance}: ${r.code ?? 'error'}`).join(', ')})${firstMessage}`,
      first === undefined ? undefined : { cause: first },
    );
    this.name = 'ChatDeliveryFailed';
    this.results = results;
    this.errors = failed.map((r) => r.error);
  }
}
