import type { FeedFilter } from '../store/state.js';
import type { AppNotification } from '../types.js';

export interface PageRequest {
  page: number;
  limit: number;
  /** Default 'all'. Archived notifications are never listed. */
  filter?: FeedFilter;
  /**
   * A previous page's `nextCursor`: the rows right after it, whatever was
   * added or deleted since (when given, `page` is informational).
   */
  before?: string;
}

export interface NotificationPage {
  notifications: AppNotification[];
  page: number;
  hasNextPage: boolean;
  /** The server's count; authoritative whenever present. */
  unreadCount: number | undefined;
  /** Where the next page starts, when the server pages by cursor (`meta.next_cursor`); offsets are used otherwise. */
  nextCursor?: string | null;
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
  markUnread(id: string): Promise<MutationResult>;
  archive(id: string): Promise<MutationResult>;
  markAllRead(): Promise<MutationResult>;
  remove(id: string): Promise<MutationResult>;
  removeAll(): Promise<MutationResult>;
}
