import { normalizeNotification } from '../normalize.js';
import type { LiveEvent } from '../types.js';
import type { Change } from './state.js';

export interface RemoteChange {
  change: Change | null;
  unreadCount: number | undefined;
  /** The event says something changed that the store cannot rebuild from it (an item came back from the archive). */
  resync: boolean;
}

const idOf = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined);

/**
 * Reads a live event (server channel or another tab) as a change. Unknown
 * events and unusable payloads become "no change" (their count still
 * counts); an invalid pushed notification is reported and ignored.
 */
export function readLiveEvent(live: LiveEvent, now: () => string = () => new Date().toISOString()): RemoteChange {
  const data = live.data;
  const unreadCount = typeof data.unread_count === 'number' && Number.isFinite(data.unread_count) && data.unread_count >= 0 ? data.unread_count : undefined;
  const id = idOf(data.notification_id);
  const result = (change: Change | null, resync = false): RemoteChange => ({ change, unreadCount, resync });
  switch (live.event) {
    case 'notification.created': {
      const { unread_count: _count, ...raw } = data;
      try {
        return result({ kind: 'insert', item: normalizeNotification(raw) });
      } catch (error) {
        console.error('[notification-bell] ignored an invalid pushed notification', error);
        return result(null);
      }
    }
    case 'notification.marked-read':
      return result(id === undefined ? null : { kind: 'markRead', id, readAt: now() });
    case 'notification.marked-unread':
      return result(id === undefined ? null : { kind: 'markUnread', id });
    case 'notification.archived':
      return result(id === undefined ? null : { kind: 'archive', id });
    case 'notification.unarchived':
      return result(null, true);
    case 'notification.deleted':
      return result(id === undefined ? null : { kind: 'delete', id });
    case 'notification.marked-all-read':
      return result({ kind: 'markAllRead', readAt: now() });
    case 'notification.all-deleted':
      return result({ kind: 'deleteAll' });
    default:
      return result(null);
  }
}

/** The live-event form of a change this tab made, for relaying to the user's other tabs. */
export function toLiveEvent(change: Change, unreadCount: number): LiveEvent | undefined {
  const count = { unread_count: unreadCount };
  switch (change.kind) {
    case 'markRead':
      return { event: 'notification.marked-read', data: { notification_id: change.id, ...count } };
    case 'markUnread':
      return { event: 'notification.marked-unread', data: { notification_id: change.id, ...count } };
    case 'archive':
      return { event: 'notification.archived', data: { notification_id: change.id, ...count } };
    case 'delete':
      return { event: 'notification.deleted', data: { notification_id: change.id, ...count } };
    case 'markAllRead':
      return { event: 'notification.marked-all-read', data: count };
    case 'deleteAll':
      return { event: 'notification.all-deleted', data: count };
    case 'insert':
      return undefined;
  }
}
