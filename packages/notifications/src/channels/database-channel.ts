import type { NotificationChannel, RenderableNotification } from '../core/contracts.js';
import { resolveUserId } from '../core/resolve-recipient.js';
import type { NotificationStorage } from '../store/notification-storage.js';
import { isNotificationId } from '../store/sql-store.js';
import { render } from './render.js';

/** Stores `toDatabase(notifiable)` (or `toArray`) for the notifiable's user through the store. */
export function createDatabaseChannel(options: { store: NotificationStorage }): NotificationChannel {
  return {
    async send(notifiable, notification, channel) {
      const n = notification as RenderableNotification;
      const userId = resolveUserId(notifiable, n, channel);
      const content = render(n, notifiable, ['toDatabase', 'toArray'], channel);
      await options.store.create({ ...content, userId, ...(typeof n.id === 'string' && isNotificationId(n.id) ? { id: n.id } : {}) });
    },
  };
}
