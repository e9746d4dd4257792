import { NotificationsError } from '../errors.js';
import type { Notifiable, Notification, UserNotifiable } from './contracts.js';

/**
 * The user id a built-in channel delivers to: `routeNotificationFor{Channel}(notification)`,
 * then `routeNotificationFor(channel, notification)`, then the notifiable's own `id`.
 */
export function resolveUserId(notifiable: Notifiable, notification: Notification, channel: string): string {
  const specific = `routeNotificationFor${channel.charAt(0).toUpperCase()}${channel.slice(1)}`;
  const method = (notifiable as Record<string, unknown>)[specific];
  const candidates = [
    typeof method === 'function' ? (method as (n: Notification) => unknown).call(notifiable, notification) : undefined,
    notifiable.routeNotificationFor?.(channel, notification),
    (notifiable as UserNotifiable).id,
  ];
  for (const value of candidates) {
    if ((typeof value === 'string' && value.length > 0) || (typeof value === 'number' && Number.isFinite(value))) return String(value);
  }
  throw new NotificationsError('ROUTE_NOT_FOUND', `Cannot find a user id for the "${channel}" channel: give the notifiable an "id" or a route for "${channel}"`);
}

/** Type stored with the notification: its `type` property, else its class name. */
export function notificationType(notification: Notification): string {
  const declared = (notification as { type?: unknown }).type;
  if (typeof declared === 'string' && declared.length > 0) return declared;
  const name = Object.getPrototypeOf(notification)?.constructor?.name as string | undefined;
  return name && name !== 'Object' ? name : 'notification';
}
