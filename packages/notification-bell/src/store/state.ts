import type { NotificationBellError } from '../errors.js';
import type { AppNotification } from '../types.js';

/** The two lists a feed can show; each element chooses its own (view state). */
export type FeedFilter = 'all' | 'unread';

/**
 * What a feed renders for one filter. Derived from the one entity cache, so
 * an item read in the "All" list leaves the "Unread" list at the same moment.
 */
export interface FeedView {
  readonly items: readonly AppNotification[];
  readonly hasMore: boolean;
  readonly isLoading: boolean;
  readonly hasLoaded: boolean;
  /** The first load of this list failed and nothing is shown. */
  readonly error: NotificationBellError | null;
}

/**
 * A change to notifications, whoever makes it: the user (optimistic, until
 * the server confirms), another tab, or the server's live channel.
 * `applyChange` is the only place that says what each one does.
 */
export type Change =
  | { kind: 'insert'; item: AppNotification }
  | { kind: 'markRead'; id: string; readAt: string }
  | { kind: 'markUnread'; id: string }
  | { kind: 'archive'; id: string }
  | { kind: 'delete'; id: string }
  /** `ids` limits it to what the user saw when they asked; absent = every item (the server's word). */
  | { kind: 'markAllRead'; readAt: string; ids?: ReadonlySet<string> }
  /**
   * `ids`: the user's own "delete all", limited to what they saw (page-local items included); absent:
   * another tab or device deleted all, which leaves page-local items.
   */
  | { kind: 'deleteAll'; ids?: ReadonlySet<string> };

/** Something the server told us, stamped with when we learned it. */
export interface Known<T> {
  readonly value: T;
  /** The store's sequence number when this was learned; a page requested earlier must not overwrite it. */
  readonly at: number;
}

export interface ListState {
  /** Pages loaded, counting from 1; 0 before the first answer. */
  readonly pages: number;
  /** The server has rows after the cursor (rows already known past `oldest` are counted by the view). */
  readonly hasMore: boolean;
  readonly loading: 'refresh' | 'more' | false;
  readonly hasLoaded: boolean;
  readonly error: NotificationBellError | null;
  /** Where the list ends: `created_at` of its oldest shown row. Everything newer is known. */
  readonly oldest: string | null;
  /** Where the next page starts, when the server pages by cursor. */
  readonly cursor: string | null;
  /** `created_at` of the row the cursor follows (it may lie past `oldest`: see `pageLoaded`). */
  readonly cursorAt: string | null;
  /** When the latest "load more" answered was asked for; an older page 1 must not cut the list back. */
  readonly extendedAt: number;
}

interface PendingChange {
  readonly change: Change;
  /** When its request was sent: at once, or when the change before it to the same item was answered. */
  readonly sentAt: number;
}

/**
 * Everything the store knows, immutable. Confirmed knowledge and the user's
 * changes in flight are kept apart, so a failed change is undone by
 * forgetting it: what the user sees is always `confirmed + pending`.
 */
export interface StoreState {
  /** Increases with every change learned or started. */
  readonly seq: number;
  readonly items: ReadonlyMap<string, Known<AppNotification>>;
  /** Ids deleted or archived, and when; a page requested before that must not bring them back. */
  readonly gone: ReadonlyMap<string, number>;
  /** Mark-all-read and delete-all learned while pages were in flight: a page asked for earlier gets them applied. */
  readonly bulk: ReadonlyArray<{ readonly change: Extract<Change, { kind: 'markAllRead' | 'deleteAll' }>; readonly at: number }>;
  readonly unreadCount: Known<number>;
  readonly pending: ReadonlyMap<number, PendingChange>;
  /** Items added in the page (`addNotification`) that the server does not know. */
  readonly localOnly: ReadonlySet<string>;
  readonly lists: Readonly<Record<FeedFilter, ListState>>;
  readonly pageRequestsInFlight: number;
  /** The newest `created_at` ever learned: only rows newer than it are announced as arrivals. */
  readonly newestSeen: number;
  /** The last refresh failed after a list had loaded: what is shown may be stale. */
  readonly syncError: NotificationBellError | null;
  /** The API last answered 401. */
  readonly signedOut: boolean;
}

const emptyList: ListState = { pages: 0, hasMore: false, loading: false, hasLoaded: false, error: null, oldest: null, cursor: null, cursorAt: null, extendedAt: -1 };

export function initialState(): StoreState {
  return {
    seq: 0,
    items: new Map(),
    gone: new Map(),
    bulk: [],
    unreadCount: { value: 0, at: -1 },
    pending: new Map(),
    localOnly: new Set(),
    lists: { all: emptyList, unread: emptyList },
    pageRequestsInFlight: 0,
    newestSeen: -Infinity,
    syncError: null,
    signedOut: false,
  };
}
