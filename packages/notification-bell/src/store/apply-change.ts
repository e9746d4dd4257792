import type { AppNotification } from '../types.js';
import type { Change } from './state.js';

export interface Snapshot {
  items: Map<string, AppNotification>;
  unreadCount: number;
}

/** Which ids a change touched and what it removed; the caller stamps and announces them. */
export interface ChangeResult {
  touched: string[];
  removed: AppNotification[];
}

const isUnread = (item: AppNotification) => item.read_at === null;

/**
 * Applies one change to a snapshot in place, keeping the count consistent
 * with what changed. Used for the optimistic view, for server confirmations
 * and for live events alike, so each change is written once.
 * `keep` names items a bulk delete must spare (page-local additions).
 */
export function applyChange(snapshot: Snapshot, change: Change, keep: ReadonlySet<string> = new Set()): ChangeResult {
  const { items } = snapshot;
  const touched: string[] = [];
  const removed: AppNotification[] = [];
  const remove = (item: AppNotification) => {
    items.delete(item.id);
    removed.push(item);
    touched.push(item.id);
    if (isUnread(item)) snapshot.unreadCount -= 1;
  };
  switch (change.kind) {
    case 'insert': {
      if (items.has(change.item.id)) break;
      items.set(change.item.id, change.item);
      touched.push(change.item.id);
      if (isUnread(change.item)) snapshot.unreadCount += 1;
      break;
    }
    case 'markRead': {
      const item = items.get(change.id);
      if (!item || !isUnread(item)) break;
      items.set(change.id, { ...item, read_at: change.readAt });
      touched.push(change.id);
      snapshot.unreadCount -= 1;
      break;
    }
    case 'markUnread': {
      const item = items.get(change.id);
      if (!item || isUnread(item)) break;
      items.set(change.id, { ...item, read_at: null });
      touched.push(change.id);
      snapshot.unreadCount += 1;
      break;
    }
    case 'archive':
    case 'delete': {
      const item = items.get(change.id);
      if (item) remove(item);
      break;
    }
    case 'markAllRead': {
      for (const item of items.values()) {
        if (!isUnread(item) || (change.ids && !change.ids.has(item.id))) continue;
        items.set(item.id, { ...item, read_at: change.readAt });
        touched.push(item.id);
      }
      // The server marks every unread item, listed here or not; only items outside `ids` arrived after the request.
      snapshot.unreadCount = change.ids ? [...items.values()].filter((item) => isUnread(item) && !change.ids?.has(item.id)).length : 0;
      break;
    }
    case 'deleteAll': {
      for (const item of [...items.values()]) if (change.ids ? change.ids.has(item.id) : !keep.has(item.id)) remove(item);
      snapshot.unreadCount = [...items.values()].filter(isUnread).length;
      break;
    }
  }
  snapshot.unreadCount = Math.max(0, snapshot.unreadCount);
  return { touched, removed };
}
