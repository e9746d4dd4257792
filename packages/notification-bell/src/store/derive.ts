import type { AppNotification } from '../types.js';
import { applyChange } from './apply-change.js';
import type { Snapshot } from './apply-change.js';
import type { FeedFilter, FeedView, ListState, StoreState } from './state.js';

/** What the user sees: confirmed knowledge with every change in flight applied on top. */
export function visibleSnapshot(state: StoreState): Snapshot {
  const snapshot: Snapshot = { items: new Map(), unreadCount: state.unreadCount.value };
  for (const [id, known] of state.items) snapshot.items.set(id, known.value);
  for (const { change } of state.pending.values()) applyChange(snapshot, change, state.localOnly);
  return snapshot;
}

export const createdTime = (item: AppNotification): number => Date.parse(item.created_at);

export function byNewest(a: AppNotification, b: AppNotification): number {
  return createdTime(b) - createdTime(a) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/** Items at least this new are all known for a list (-Infinity: all of them; Infinity: none yet). */
function coveredFrom(list: ListState): number {
  if (!list.hasLoaded) return Infinity;
  return list.hasMore && list.oldest !== null ? Date.parse(list.oldest) : -Infinity;
}

/**
 * A list's items: those of its filter down to where its pages reach. Unread
 * items are known down to whichever list reaches further, because the "All"
 * pages hold every unread item in their range too.
 */
export function deriveView(state: StoreState, snapshot: Snapshot, filter: FeedFilter): FeedView {
  const list = state.lists[filter];
  const from = filter === 'all' ? coveredFrom(state.lists.all) : Math.min(coveredFrom(state.lists.unread), coveredFrom(state.lists.all));
  const items: AppNotification[] = [];
  for (const item of snapshot.items.values()) {
    if (filter === 'unread' && item.read_at !== null) continue;
    if (createdTime(item) >= from || state.localOnly.has(item.id)) items.push(item);
  }
  items.sort(byNewest);
  const hasMore = from === -Infinity ? false : list.hasLoaded ? list.hasMore : state.lists.all.hasMore;
  return {
    items,
    hasMore,
    isLoading: list.loading !== false,
    hasLoaded: list.hasLoaded,
    error: list.hasLoaded ? null : list.error,
  };
}
