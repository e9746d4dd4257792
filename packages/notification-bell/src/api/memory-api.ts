import { NotificationBellError } from '../errors.js';
import { normalizeNotification } from '../normalize.js';
import type { AppNotification } from '../types.js';
import type { NotificationApi } from './notification-api.js';

type Seed = Partial<AppNotification> & { id: string; title: string };

/** An in-process backend with the same semantics as the HTTP contract (newest first, authoritative counts, archive hides). */
export interface MemoryNotificationApi extends NotificationApi {
  /** Adds a server-side notification (as if another system created it). */
  insert(notification: Seed): AppNotification;
  /** Every row, archived included, newest first. */
  readonly rows: readonly AppNotification[];
  readonly size: number;
}

export function createMemoryNotificationApi(seed: ReadonlyArray<Seed> = []): MemoryNotificationApi {
  let rows: AppNotification[] = [];
  const listed = () => rows.filter((row) => row.archived_at === null);
  const unread = () => listed().filter((row) => row.read_at === null).length;
  const sort = () => rows.sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  const find = (id: string) => {
    const row = rows.find((candidate) => candidate.id === id);
    if (!row) throw new NotificationBellError('HTTP_ERROR', `Notification "${id}" not found.`, { status: 404, serverCode: 'NOT_FOUND' });
    return row;
  };
  const answer = () => ({ unreadCount: unread() });

  const api: MemoryNotificationApi = {
    get rows() {
      return rows;
    },
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
    async list({ page, limit, filter = 'all', before }) {
      const matching = listed().filter((row) => filter === 'all' || row.read_at === null);
      let start = (page - 1) * limit;
      if (before !== undefined) {
        const [time = '', id = ''] = before.split('|');
        const after = matching.findIndex((row) => Date.parse(row.created_at) < Date.parse(time) || (Date.parse(row.created_at) === Date.parse(time) && row.id < id));
        start = after < 0 ? matching.length : after;
      }
      const notifications = matching.slice(start, start + limit).map((row) => ({ ...row }));
      const last = notifications.at(-1);
      return {
        notifications,
        page,
        hasNextPage: start + limit < matching.length,
        unreadCount: unread(),
        nextCursor: last ? `${last.created_at}|${last.id}` : null,
      };
    },
    async markRead(id) {
      find(id).read_at ??= new Date().toISOString();
      return answer();
    },
    async markUnread(id) {
      find(id).read_at = null;
      return answer();
    },
    async archive(id) {
      find(id).archived_at ??= new Date().toISOString();
      return answer();
    },
    async markAllRead() {
      const now = new Date().toISOString();
      for (const row of listed()) row.read_at ??= now;
      return answer();
    },
    async remove(id) {
      find(id);
      rows = rows.filter((row) => row.id !== id);
      return answer();
    },
    async removeAll() {
      rows = [];
      return answer();
    },
  };
  for (const row of seed) api.insert(row);
  return api;
}
