import { normalizeContent } from '../content-schema.js';
import type { NormalizedContent } from '../content-schema.js';
import { NotificationsError } from '../errors.js';
import type { Notifiable, RenderableNotification } from '../core/contracts.js';
import { notificationType } from '../core/resolve-recipient.js';

type Renderer = 'toDatabase' | 'toArray' | 'toBroadcast';

/** Renders with the first of `order` the notification implements, then validates the result. */
export function render(notification: RenderableNotification, notifiable: Notifiable, order: readonly Renderer[], channel: string): NormalizedContent {
  for (const method of order) {
    const fn = notification[method];
    if (typeof fn === 'function') return normalizeContent(fn.call(notification, notifiable), notificationType(notification));
  }
  throw new NotificationsError('INVALID_NOTIFICATION', `Notification "${notificationType(notification)}" is sent via "${channel}" but has none of ${order.map((m) => `${m}()`).join(', ')}`);
}
