import { ChatMessage } from './chat-message.js';
import { describe } from './colors.js';
import type { Notifiable, Notification } from '@org/notifications/contract';
import { InvalidChatPayload, InvalidChatTarget, MissingChatRenderer } from './errors.js';
import type { ChatPayload } from './payload.js';

/** What `toChat()` may return: a builder, a raw payload, plain text, or null for "send nothing". */
export type ChatContent = ChatMessage | ChatPayload | string;
export type ChatTarget = string | readonly string[];

/** A notification that can be sent to chat. `channel` is the name via() used (`chat`, `chat-alerts`, …). */
export interface ChatNotification extends Notification {
  toChat(notifiable: Notifiable, channel: string): ChatContent | null | undefined | Promise<ChatContent | null | undefined>;
}

/** A notifiable that routes chat itself; return `#room`, `@user`, or null for the webhook's default. */
export interface ChatNotifiable extends Notifiable {
  routeNotificationForChat?(notification: Notification, channel: string): unknown;
}

/**
 * The destination for this notifiable on this chat channel, in the contract's
 * order: routeNotificationForChat, routeNotificationFor(channel), then for
 * `chat-*` names routeNotificationFor('chat'). Null means the webhook's default.
 */
export function resolveChatRoute(notifiable: Notifiable, notification: Notification, channel: string): ChatTarget | null {
  const candidates: Array<() => unknown> = [
    () => (notifiable as ChatNotifiable).routeNotificationForChat?.(notification, channel),
    () => notifiable.routeNotificationFor?.(channel, notification),
  ];
  if (channel !== 'chat') candidates.push(() => notifiable.routeNotificationFor?.('chat', notification));
  for (const candidate of candidates) {
    const route = candidate();
    if (route === null || route === undefined) continue;
    return normalizeTarget(route);
  }
  return null;
}

/** Accepts `#room`, `@user`, a room id, or a non-empty array of them. */
export function normalizeTarget(route: unknown): ChatTarget {
  const list = Array.isArray(route) ? route : [route];
  if (list.length > 0 && list.every((t) => typeof t === 'string' && t.trim() !== '')) {
    return Array.isArray(route) ? [...(route as string[])] : (route as string);
  }
  throw new InvalidChatTarget(`Invalid chat route ${describe(route)}: expected "#room", "@user", a room id, or an array of them`);
}

/** Calls the notification's toChat(); throws a clear error when it has none. */
export async function renderChatContent(
  notifiable: Notifiable,
  notification: Notification,
  channel: string,
): Promise<ChatContent | null> {
  const render = (notification as Partial<ChatNotification>).toChat;
  if (typeof render !== 'function') {
    throw new MissingChatRenderer(
      `${notification.constructor?.name ?? 'Notification'} is sent via "${channel}" but has no toChat(notifiable) method`,
    );
  }
  const content = await render.call(notification, notifiable, channel);
  return content ?? null;
}

/** A ChatMessage, a plain payload object or a string, as a fresh payload object. */
export function contentToPayload(content: ChatContent): ChatPayload {
  if (content instanceof ChatMessage) return content.toArray();
  if (typeof content === 'string') return { text: content };
  if (typeof content === 'object' && content !== null && !Array.isArray(content)) {
    const maybeBuilder = content as { toArray?: unknown };
    // A ChatMessage from another copy of this package still renders.
    if (typeof maybeBuilder.toArray === 'function') return (maybeBuilder.toArray as () => ChatPayload)();
    return { ...content };
  }
  throw new InvalidChatPayload('', `toChat() must return a ChatMessage, an object, a string or null, got ${describe(content)}`);
}
