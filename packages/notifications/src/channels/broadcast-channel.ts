import { randomUUID } from 'node:crypto';
import type { Broadcaster } from '../broadcast/broadcaster.js';
import { NOTIFICATION_EVENTS, defaultChannelFor } from '../contract.js';
import type { NotificationChannel, RenderableNotification } from '../core/contracts.js';
import { resolveUserId } from '../core/resolve-recipient.js';
import type { NotificationResource } from '../resource.js';
import type { NotificationStorage } from '../store/notification-storage.js';
import { render } from './render.js';

export interface BroadcastChannelOptions {
  broadcaster: Broadcaster;
  /**
   * When given, the event carries the stored row (same id and created_at as the `database`
   * channel wrote, if it ran first) and the authoritative `unread_count`.
   */
  store?: NotificationStorage;
  /** Private channel for a user. Default `private-App.Model.Entity.User.{userId}`. */
  channelFor?: (userId: string) => string;
}

/**
 * Triggers `notification.created` on the user's private channel with the Notification object
 * plus `unread_count` (when a store is given).
 */
export function createBroadcastChannel(options: BroadcastChannelOptions): NotificationChannel {
  const channelFor = options.channelFor ?? defaultChannelFor;
  return {
    async send(notifiable, notification, channel) {
      const n = notification as RenderableNotification;
      const userId = resolveUserId(notifiable, n, channel);
      const stored = typeof n.id === 'string' && options.store ? await options.store.get(userId, n.id) : null;
      let resource: NotificationResource;
      if (stored && typeof n.toBroadcast !== 'function') {
        resource = stored;
      } else {
        const content = render(n, notifiable, ['toBroadcast', 'toDatabase', 'toArray'], channel);
        resource = {
          id: stored?.id ?? (typeof n.id === 'string' ? n.id : randomUUID()),
          ...content,
          read_at: stored?.read_at ?? null,
          archived_at: stored?.archived_at ?? null,
          created_at: stored?.created_at ?? new Date().toISOString(),
        };
      }
      const payload = options.store ? { ...resource, unread_count: await options.store.unreadCount(userId) } : resource;
      await options.broadcaster.trigger([channelFor(userId)], NOTIFICATION_EVENTS.created, payload);
    },
  };
}
