import { NotificationBellError } from '../errors.js';
import { normalizeNotification } from '../normalize.js';
import type { AppNotification } from '../types.js';
import type { NotificationApi } from './notification-api.js';

/** An in-process backend with the same semantics as the HTTP contract (newest first, authoritative counts). */
export interface MemoryNotificationApi extends NotificationApi {
  /** Adds a server-side notification (as if another system created it). */
  insert(notification: Partial<AppNotification> & { id: string; title: string }): AppNotification;
  readonly size: number;
}

export function createMemoryNotificationApi(seed: ReadonlyArray<Partial<AppNotification> & { id: string; title: string }> = []): MemoryNotificationApi {
  let rows: AppNotification[] = [];
  const unread = () => rows.filter((row) => row.read_at === null).length;
  const sort = () => rows.sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
  const find = (id: string) => {
    const row = rows.find((candidate) => candidate.id === id);
    if (!row) throw new NotificationBellError('HTTP_ERROR', `Notification "${id}" not found.`, { status: 404, serverCode: 'NOT_FOUND' });
    return row;
  };

  const api: MemoryNotificationApi = {
    get size() {
      return rows.length;
    },
    insert(notification) {
      const row = normalizeNotification(notification);
      rows = rows.filter((existing) => existing.id !== row.id);
      rows.push(row);
      sort();
      return row;
    },
    async list({ page, limit }) {
      const start = (page - 1) * limit;
      return {
        notifications: rows.slice(start, start + limit).map((row) => ({ ...row })),
        page,
        hasNextPage: start + limit < rows.length,
        unreadCount: unread(),
      };
    },
    async markRead(id) {
      const row = find(id);
      row.read_at ??= new Date().toISOString();
      return { unreadCount: unread() };
    },
    async markAllRead() {
      const now = new Date().toISOString();
      for (const row of rows) row.read_at ??= now;
      return { unreadCount: 0 };
    },
    async remove(id) {
      find(id);
      rows = rows.filter((row) => row.id !== id);
      return { unreadCount: unread() };
    },
  };
  for (const row of seed) api.insert(row);
  return api;
}
