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

/** Where a list ends (-Infinity: nothing past it anywhere; Infinity: nothing loaded yet). */
function coveredFrom(list: ListState, knownPast: boolean): number {
  if (!list.hasLoaded) return Infinity;
  return (list.hasMore || knownPast) && list.oldest !== null ? Date.parse(list.oldest) : -Infinity;
}

/**
 * A list's items: those of its filter down to where its pages reach. Unread
 * items are known down to whichever list reaches further, because the "All"
 * pages hold every unread item in their range too.
 */
export function deriveView(state: StoreState, snapshot: Snapshot, filter: FeedFilter): FeedView {
  const list = state.lists[filter];
  const matching = [...snapshot.items.values()].filter((item) => filter === 'all' || item.read_at === null);
  const known = (of: ListState) => of.oldest !== null && matching.some((item) => createdTime(item) < Date.parse(of.oldest!) && !state.localOnly.has(item.id));
  const fromAll = coveredFrom(state.lists.all, known(state.lists.all));
  const from = filter === 'all' ? fromAll : Math.min(coveredFrom(state.lists.unread, known(state.lists.unread)), fromAll);
  const items: AppNotification[] = [];
  let past = false;
  for (const item of matching) {
    if (createdTime(item) >= from || state.localOnly.has(item.id)) items.push(item);
    else past = true;
  }
  items.sort(byNewest);
  const serverHasMore = list.hasLoaded ? list.hasMore : state.lists.all.hasMore;
  const hasMore = from !== -Infinity && (serverHasMore || past);
  return {
    items,
    hasMore,
    isLoading: list.loading !== false,
    hasLoaded: list.hasLoaded,
    error: list.hasLoaded ? null : list.error,
  };
}
