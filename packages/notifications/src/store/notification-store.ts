import type { NormalizedContent } from '../content-schema.js';
import type { NotificationResource } from '../resource.js';

export type ReadStatus = 'all' | 'read' | 'unread';

export interface ListQuery {
  /** 1-based page number. */
  page: number;
  limit: number;
  status: ReadStatus;
  type?: string;
}

export interface ListResult {
  items: NotificationResource[];
  /** Number of notifications matching the filters, over all pages. */
  total: number;
}

export interface NewNotification extends NormalizedContent {
  /** UUID; generated when omitted. */
  id?: string;
  userId: string;
}

export interface MarkReadResult {
  notification: NotificationResource;
  /** False when it was already read (the call is idempotent). */
  changed: boolean;
}

/**
 * Storage for notifications. Every read and write is scoped by user id, so one user can never
 * see or change another's notifications: an unknown id and a foreign id look the same (null).
 */
export interface NotificationStore {
  create(input: NewNotification): Promise<NotificationResource>;
  /** Newest first. */
  list(userId: string, query: ListQuery): Promise<ListResult>;
  get(userId: string, id: string): Promise<NotificationResource | null>;
  markRead(userId: string, id: string): Promise<MarkReadResult | null>;
  /** Returns how many were unread and are now read. */
  markAllRead(userId: string): Promise<number>;
  delete(userId: string, id: string): Promise<boolean>;
  /** Returns how many were deleted. */
  deleteAll(userId: string): Promise<number>;
  unreadCount(userId: string): Promise<number>;
  /** Releases what the store opened itself (an embedded database, a pool it created). */
  close(): Promise<void>;
}
