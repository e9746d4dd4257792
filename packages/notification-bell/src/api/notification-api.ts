import type { AppNotification } from '../types.js';

export interface PageRequest {
  page: number;
  limit: number;
}

export interface NotificationPage {
  notifications: AppNotification[];
  page: number;
  hasNextPage: boolean;
  /** The server's count; authoritative whenever present. */
  unreadCount: number | undefined;
}

export interface MutationResult {
  unreadCount: number | undefined;
}

/**
 * What the store needs from a backend. `createHttpNotificationApi` speaks the
 * `@org/notifications` JSON contract; `createMemoryNotificationApi` is the
 * local default for demos and tests. Failures reject with NotificationBellError.
 */
export interface NotificationApi {
  list(request: PageRequest): Promise<NotificationPage>;
  markRead(id: string): Promise<MutationResult>;
  markAllRead(): Promise<MutationResult>;
  remove(id: string): Promise<MutationResult>;
}
