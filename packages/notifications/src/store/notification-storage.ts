import type { NormalizedContent } from '../content-schema.js';
import type { NotificationResource } from '../resource.js';

export type ReadStatus = 'all' | 'read' | 'unread';

/** Which notifications a list holds by archive state; lists leave archived ones out by default. */
export type ArchivedFilter = 'exclude' | 'only' | 'include';

export interface ListQuery {
  /** 1-based page number. */
  page: number;
  limit: number;
  status: ReadStatus;
  type?: string;
  /** Default `exclude`. */
  archived?: ArchivedFilter;
  /**
   * A previous result's `nextCursor`: list the rows right after it (then `page` is not used), so
   * rows added or deleted meanwhile shift nothing. Throws INVALID_PARAMETER for a malformed cursor.
   */
  before?: string;
}

export interface ListResult {
  items: NotificationResource[];
  /** Number of notifications matching the filters, over all pages. */
  total: number;
  /** Where the page after this one starts (opaque), or null when this page is empty. */
  nextCursor: string | null;
  /** Whether rows follow this page. */
  hasMore: boolean;
}

export interface NewNotification extends NormalizedContent {
  /** UUID; generated when omitted. */
  id?: string;
  userId: string;
  /** When it happened (imports, seeding); now when omitted. A Date or an ISO 8601 string. */
  createdAt?: Date | string;
}

/** The notification after a state change on one of them (read, unread, archive, unarchive). */
export interface ChangeResult {
  notification: NotificationResource;
  /** False when it already was in that state (every such call is idempotent). */
  changed: boolean;
}

/** Kept for compatibility: the result of `markRead`. */
export type MarkReadResult = ChangeResult;

/**
 * Storage for notifications. Every read and write is scoped by user id, so one user can never
 * see or change another's notifications: an unknown id and a foreign id look the same (null).
 *
 * Archived notifications stay stored and readable by id, but lists leave them out unless asked
 * (`archived: 'only' | 'include'`), and they never count as unread.
 */
export interface NotificationStorage {
  /** Validates the content with the same rules as the notification channels (INVALID_NOTIFICATION). */
  create(input: NewNotification): Promise<NotificationResource>;
  /** Newest first. */
  list(userId: string, query: ListQuery): Promise<ListResult>;
  get(userId: string, id: string): Promise<NotificationResource | null>;
  markRead(userId: string, id: string): Promise<ChangeResult | null>;
  markUnread(userId: string, id: string): Promise<ChangeResult | null>;
  /** Marks every unread, non-archived notification read; returns how many changed. */
  markAllRead(userId: string): Promise<number>;
  /** Sets `archived_at`; the read state is kept, so unarchiving an unread one counts it again. */
  archive(userId: string, id: string): Promise<ChangeResult | null>;
  unarchive(userId: string, id: string): Promise<ChangeResult | null>;
  delete(userId: string, id: string): Promise<boolean>;
  /** Deletes all of the user's notifications, archived ones included; returns how many. */
  deleteAll(userId: string): Promise<number>;
  /** Unread and not archived. */
  unreadCount(userId: string): Promise<number>;
  /** Releases what the store opened itself (an embedded database, a pool it created). */
  close(): Promise<void>;
}
