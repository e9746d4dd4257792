import { createHttpNotificationApi } from '../api/http-api.js';
import type { MutationResult, NotificationApi } from '../api/notification-api.js';
import { NotificationBellError } from '../errors.js';
import { normalizeNotification } from '../normalize.js';
import type { AppNotification, LiveEvent } from '../types.js';
import type { Snapshot } from './apply-change.js';
import { byNewest, deriveView, visibleSnapshot } from './derive.js';
import { readLiveEvent, toLiveEvent } from './live-event.js';
import { initialState } from './state.js';
import type { Change, FeedFilter, FeedView, StoreState } from './state.js';
import { transition } from './transition.js';
import type { Notice, StoreInput } from './transition.js';

export type StoreOperation = 'load' | 'loadMore' | 'markAsRead' | 'markAsUnread' | 'archive' | 'markAllAsRead' | 'delete' | 'deleteAll';

/** A failed load, or a user's change that failed and was undone. */
export interface StoreFailure {
  operation: StoreOperation;
  notificationId?: string;
  error: NotificationBellError;
}

export interface NotificationErrorDetail {
  operation: StoreOperation;
  code: string;
  message: string;
  /** HTTP status when the server answered (401: signed out). */
  status?: number;
  notificationId?: string;
  error: unknown;
}

export interface StoreChannels {
  unreadCount: number;
  /** The "All" list changed. */
  items: readonly AppNotification[];
  /** Anything changed (items, loading, errors, either list). */
  state: NotificationStore;
  /** Number of new unread items that just arrived by poll, push or local add (never the first load). */
  arrivals: number;
  /** A change this tab made, in live-event form, for relaying to other tabs. */
  sync: LiveEvent;
  failure: StoreFailure;
}
export type StoreChannel = keyof StoreChannels;
type Listener<K extends StoreChannel> = (value: StoreChannels[K]) => void;

export interface NotificationStoreOptions {
  api?: NotificationApi;
  perPage?: number;
  /** Where the `notification:*` DOM events go; `window` in a browser. */
  eventTarget?: EventTarget;
}

const OPERATION_OF: Record<Change['kind'], StoreOperation> = {
  insert: 'load',
  markRead: 'markAsRead',
  markUnread: 'markAsUnread',
  archive: 'archive',
  delete: 'delete',
  markAllRead: 'markAllAsRead',
  deleteAll: 'deleteAll',
};

const EVENT_OF: Record<Exclude<Change['kind'], 'insert'>, string> = {
  markRead: 'notification:marked-read',
  markUnread: 'notification:marked-unread',
  archive: 'notification:archived',
  delete: 'notification:deleted',
  markAllRead: 'notification:all-marked-read',
  deleteAll: 'notification:all-deleted',
};

/** `@org/notifications` accepts up to 100 rows a page by default. */
const MAX_REFRESH_LIMIT = 100;

/** The key of mark-all-read and delete-all among the changes in flight (item ids are strings). */
const ALL_ITEMS: unique symbol = Symbol('all items');

function toBellError(error: unknown): NotificationBellError {
  return error instanceof NotificationBellError ? error : new NotificationBellError('NETWORK_ERROR', String(error), { cause: error });
}

/**
 * The mark every copy of this package puts on its stores. `Symbol.for` gives the same symbol to every
 * copy on a page (an app's bundle and the CDN build, two versions), so a copy recognises another's
 * store where `instanceof` would not (each copy has its own class). `v1` names the store's shape the
 * copies rely on: a copy whose store is incompatible takes a new brand, and then a store of its own.
 */
const STORE_BRAND: unique symbol = Symbol.for('@org/notification-bell/store/v1');

/** Whether `value` is a store made by any copy of this package (this one or another on the page). */
export function isNotificationStore(value: unknown): value is NotificationStore {
  return typeof value === 'object' && value !== null && (value as { [STORE_BRAND]?: unknown })[STORE_BRAND] === true;
}

/**
 * The page's notifications, shared by every bell and feed on it. A thin
 * shell around one pure state machine (`transition`): it calls the API,
 * feeds the answers in, and turns what the machine reports into DOM events.
 * The user's changes show at once and are undone by the machine if they fail;
 * the server's counts win whenever they are newer than what the page knows.
 */
export class NotificationStore {
  /** See `isNotificationStore`. */
  readonly [STORE_BRAND] = true;
  perPage = 10;

  #state: StoreState = initialState();
  #snapshot: Snapshot | undefined;
  #views = new Map<FeedFilter, FeedView>();
  #api: NotificationApi;
  #target: EventTarget;
  #listeners = new Map<StoreChannel, Set<Listener<StoreChannel>>>();
  /** Per list: the refresh in flight, and one queued behind it for callers who came after it was sent. */
  #refreshes = new Map<FeedFilter, { inflight: Promise<void>; queued?: Promise<void> }>();
  #nextChangeId = 0;
  /** The end of the latest change in flight per item, and of mark-all/delete-all under `ALL_ITEMS` (see `#change`). */
  readonly #latestChange = new Map<string | typeof ALL_ITEMS, Promise<boolean>>();

  constructor(options: NotificationStoreOptions = {}) {
    this.#api = options.api ?? createHttpNotificationApi();
    this.#target = options.eventTarget ?? (typeof window === 'undefined' ? new EventTarget() : window);
    if (options.perPage !== undefined) this.perPage = options.perPage;
  }

  configure(options: NotificationStoreOptions): void {
    if (options.api) this.#api = options.api;
    if (options.eventTarget) this.#target = options.eventTarget;
    if (options.perPage !== undefined) this.perPage = options.perPage;
  }

  // ---- reading ------------------------------------------------------------

  /** One list as a feed shows it; the same object until something changes. */
  view(filter: FeedFilter): FeedView {
    let view = this.#views.get(filter);
    if (!view) {
      view = deriveView(this.#state, this.#visible(), filter);
      this.#views.set(filter, view);
    }
    return view;
  }

  #visible(): Snapshot {
    this.#snapshot ??= visibleSnapshot(this.#state);
    return this.#snapshot;
  }

  get unreadCount(): number {
    return this.#visible().unreadCount;
  }
  get items(): readonly AppNotification[] {
    return this.view('all').items;
  }
  get isLoading(): boolean {
    return this.view('all').isLoading;
  }
  get hasMore(): boolean {
    return this.view('all').hasMore;
  }
  get hasLoaded(): boolean {
    return this.view('all').hasLoaded;
  }
  get error(): NotificationBellError | null {
    return this.view('all').error;
  }
  get currentPage(): number {
    return this.#state.lists.all.pages;
  }
  /** The last refresh failed after a list had loaded: what is shown may be stale. Null once one succeeds. */
  get syncError(): NotificationBellError | null {
    return this.#state.syncError;
  }
  /** The API last answered 401; cleared by the next successful load. */
  get signedOut(): boolean {
    return this.#state.signedOut;
  }

  subscribe<K extends StoreChannel>(channel: K, listener: Listener<K>): () => void {
    let set = this.#listeners.get(channel);
    if (!set) {
      set = new Set();
      this.#listeners.set(channel, set);
    }
    set.add(listener as Listener<StoreChannel>);
    return () => set.delete(listener as Listener<StoreChannel>);
  }

  // ---- the machine --------------------------------------------------------

  #run(input: StoreInput): void {
    const before = { items: this.items, count: this.unreadCount };
    const { state, notices } = transition(this.#state, input);
    if (state === this.#state && notices.length === 0) return;
    this.#state = state;
    this.#snapshot = undefined;
    this.#views.clear();
    if (this.items !== before.items && !sameItems(this.items, before.items)) this.#emit('items', this.items);
    if (this.unreadCount !== before.count) this.#emit('unreadCount', this.unreadCount);
    this.#emit('state', this);
    for (const notice of notices) this.#perform(notice);
  }

  #perform(notice: Notice): void {
    switch (notice.type) {
      case 'received':
        this.#dispatch('notification:received', notice.item);
        return;
      case 'arrivals':
        this.#emit('arrivals', notice.count);
        return;
      case 'applied': {
        if (notice.change.kind === 'insert') return;
        const id = 'id' in notice.change ? notice.change.id : undefined;
        this.#dispatch(EVENT_OF[notice.change.kind], id === undefined ? {} : { notificationId: id });
        return;
      }
      case 'failed': {
        const operation: StoreOperation = notice.change ? OPERATION_OF[notice.change.kind] : notice.page === 1 ? 'load' : 'loadMore';
        const failure: StoreFailure = { operation, error: notice.error };
        if (notice.change && 'id' in notice.change) failure.notificationId = notice.change.id;
        const detail: NotificationErrorDetail = { operation, code: notice.error.code, message: notice.error.message, error: notice.error };
        if (notice.error.status !== undefined) detail.status = notice.error.status;
        if (failure.notificationId !== undefined) detail.notificationId = failure.notificationId;
        this.#emit('failure', failure);
        this.#dispatch('notification:error', detail);
        return;
      }
    }
  }

  #emit<K extends StoreChannel>(channel: K, value: StoreChannels[K]): void {
    for (const listener of this.#listeners.get(channel) ?? []) {
      try {
        listener(value);
      } catch (error) {
        // One broken subscriber must not stop the others or the store.
        console.error('[notification-bell] subscriber failed', error);
      }
    }
  }

  #dispatch(name: string, detail: unknown): void {
    this.#target.dispatchEvent(new CustomEvent(name, { detail }));
  }

  // ---- loading ------------------------------------------------------------

  /** Sets the count the page rendered with (`unread-count`), until the server says otherwise. */
  setInitialUnreadCount(count: number): void {
    this.#run({ type: 'initialCount', value: count });
  }

  /**
   * Fetches page 1 and the count of a list (first load, poll, reconnect
   * resync). Without a filter, every list that has loaded (or "All"). Concurrent calls share one request per list.
   */
  refresh(filter?: FeedFilter): Promise<void> {
    const filters = filter ? [filter] : (['all', 'unread'] as const).filter((name) => name === 'all' || this.#state.lists[name].hasLoaded);
    return Promise.all(filters.map((name) => this.#refreshOne(name))).then(() => undefined);
  }

  /**
   * A refresh answers what the server had when it was sent, so a caller that
   * comes while one is in flight (say, after a live event the answer may
   * predate) gets the next one, sent when the current one ends. Any number of
   * such callers share that one queued request.
   */
  #refreshOne(filter: FeedFilter): Promise<void> {
    const running = this.#refreshes.get(filter);
    if (!running) {
      const inflight = this.#sendRefresh(filter).finally(() => {
        const entry = this.#refreshes.get(filter);
        if (entry?.inflight === inflight) this.#refreshes.delete(filter);
      });
      this.#refreshes.set(filter, { inflight });
      return inflight;
    }
    running.queued ??= running.inflight.then(() => {
      this.#refreshes.delete(filter);
      return this.#refreshOne(filter);
    });
    return running.queued;
  }

  async #sendRefresh(filter: FeedFilter): Promise<void> {
    // Page 1 as long as what the list shows plus a page for what arrived (within the API's usual cap), so one
    // answer re-checks every shown item. A server with a lower cap answers 400: then one page is asked for.
    // A list's first load is one page, whatever the other list already shows of it.
    const shown = this.#state.lists[filter].hasLoaded ? this.view(filter).items.filter((item) => !this.#state.localOnly.has(item.id)).length : 0;
    const limit = shown === 0 ? this.perPage : Math.min(shown + this.perPage, MAX_REFRESH_LIMIT);
    const refused = await this.#loadPage(filter, 1, undefined, limit, limit > this.perPage);
    if (refused) await this.#loadPage(filter, 1, undefined, this.perPage);
  }

  /** Loads the next page of a list; a no-op while it loads or when there is nothing more. Resolves to how many items were added. */
  async loadMore(filter: FeedFilter = 'all'): Promise<number> {
    const list = this.#state.lists[filter];
    if (!list.hasLoaded) {
      await this.#refreshOne(filter);
      return this.view(filter).items.length;
    }
    if (list.loading !== false || !this.view(filter).hasMore) return 0;
    const before = this.view(filter).items.length;
    // Rows a refresh already brought past the list's end are shown first, a page at a time, without a request.
    const shown = new Set(this.view(filter).items.map((item) => item.id));
    const past = [...this.#visible().items.values()]
      .filter((item) => !shown.has(item.id) && (filter === 'all' || item.read_at === null))
      .sort(byNewest);
    if (past.length >= this.perPage || (past.length > 0 && !list.hasMore)) {
      this.#run({ type: 'revealed', filter, oldest: past[Math.min(this.perPage, past.length) - 1]!.created_at });
      return Math.max(0, this.view(filter).items.length - before);
    }
    await this.#loadPage(filter, list.cursor === null ? this.#nextPage(filter) : list.pages + 1, list.cursor === null ? undefined : { before: list.cursor, from: list.cursorAt });
    return Math.max(0, this.view(filter).items.length - before);
  }

  /**
   * Without a cursor, the page that continues a list from what it shows, rather than from how
   * many pages were loaded: after deletions the server's pages shift up, and
   * counting pages would skip the items that moved. A page overlapping what
   * is shown is harmless (rows merge by id); a skipped item would never show.
   */
  #nextPage(filter: FeedFilter): number {
    const fromServer = this.view(filter).items.filter((item) => !this.#state.localOnly.has(item.id)).length;
    return Math.floor(fromServer / this.perPage) + 1;
  }

  /** Resolves true (and changes nothing) when `tolerateRefusal` and the server refused the request as invalid (400). */
  async #loadPage(filter: FeedFilter, page: number, cursor?: { before: string; from: string | null }, limit = this.perPage, tolerateRefusal = false): Promise<boolean> {
    const requestedAt = this.#state.seq;
    this.#run({ type: 'pageRequested', filter, page });
    try {
      const answer = await this.#api.list({ page, limit, filter, ...(cursor ? { before: cursor.before } : {}) });
      this.#run({
        type: 'pageLoaded',
        filter,
        page,
        pageSize: this.perPage,
        rows: answer.notifications,
        hasMore: answer.hasNextPage,
        unreadCount: answer.unreadCount,
        nextCursor: answer.nextCursor ?? null,
        requestedAt,
        continuesFrom: cursor?.from ?? null,
        receivedAt: new Date().toISOString(),
      });
    } catch (error) {
      const failure = toBellError(error);
      if (tolerateRefusal && failure.status === 400) {
        this.#run({ type: 'pageAbandoned', filter });
        return true;
      }
      this.#run({ type: 'pageFailed', filter, page, error: failure });
    }
    return false;
  }

  // ---- the user's changes -------------------------------------------------

  /**
   * Shows a change at once, asks the server, and lets the machine keep or undo it. A change that
   * could conflict with one still in flight is shown at once too, but sent only once that one is
   * answered, so the server sees them in the order the user made them: a change to an item waits for
   * the item's previous change and for a mark-all or delete-all; a mark-all or delete-all waits for
   * everything before it.
   */
  #change(change: Change, call: (() => Promise<MutationResult>) | null): Promise<boolean> {
    const id = ++this.#nextChangeId;
    this.#run({ type: 'changeStarted', id, change });
    const key = 'id' in change ? change.id : ALL_ITEMS;
    const before = key === ALL_ITEMS ? [...this.#latestChange.values()] : [this.#latestChange.get(key), this.#latestChange.get(ALL_ITEMS)];
    const waitFor = before.filter((previous) => previous !== undefined);
    const send = () => this.#send(id, change, call);
    const sendLate = () => {
      this.#run({ type: 'changeSent', id });
      return send();
    };
    const done = waitFor.length === 0 ? send() : Promise.all(waitFor).then(sendLate, sendLate);
    this.#latestChange.set(key, done);
    const forget = () => {
      if (this.#latestChange.get(key) === done) this.#latestChange.delete(key);
    };
    void done.then(forget, forget);
    return done;
  }

  async #send(id: number, change: Change, call: (() => Promise<MutationResult>) | null): Promise<boolean> {
    try {
      const result = call ? await call() : { unreadCount: undefined };
      this.#run({ type: 'changeConfirmed', id, unreadCount: result.unreadCount });
      const relayed = toLiveEvent(change, this.unreadCount);
      if (relayed) this.#emit('sync', relayed);
      return true;
    } catch (error) {
      const failure = toBellError(error);
      this.#run({ type: 'changeFailed', id, error: failure });
      return failure.status === 404 && change.kind === 'delete';
    }
  }

  #visibleItem(id: string): AppNotification | undefined {
    return this.#visible().items.get(id);
  }

  /** Page-local items (`addNotification`) change without asking the server. */
  #serverCall(id: string, call: () => Promise<MutationResult>): (() => Promise<MutationResult>) | null {
    return this.#state.localOnly.has(id) ? null : call;
  }

  markAsRead(id: string): Promise<boolean> {
    const item = this.#visibleItem(id);
    if (!item || item.read_at !== null) return Promise.resolve(false);
    return this.#change({ kind: 'markRead', id, readAt: new Date().toISOString() }, this.#serverCall(id, () => this.#api.markRead(id)));
  }

  markAsUnread(id: string): Promise<boolean> {
    const item = this.#visibleItem(id);
    if (!item || item.read_at === null) return Promise.resolve(false);
    return this.#change({ kind: 'markUnread', id }, this.#serverCall(id, () => this.#api.markUnread(id)));
  }

  archive(id: string): Promise<boolean> {
    if (!this.#visibleItem(id)) return Promise.resolve(false);
    return this.#change({ kind: 'archive', id }, this.#serverCall(id, () => this.#api.archive(id)));
  }

  deleteNotification(id: string): Promise<boolean> {
    if (!this.#visibleItem(id)) return Promise.resolve(false);
    return this.#change({ kind: 'delete', id }, this.#serverCall(id, () => this.#api.remove(id)));
  }

  markAllAsRead(): Promise<boolean> {
    const ids = new Set([...this.#visible().items.values()].filter((item) => item.read_at === null).map((item) => item.id));
    return this.#change({ kind: 'markAllRead', readAt: new Date().toISOString(), ids }, () => this.#api.markAllRead());
  }

  deleteAll(): Promise<boolean> {
    return this.#change({ kind: 'deleteAll', ids: new Set(this.#visible().items.keys()) }, () => this.#api.removeAll());
  }

  // ---- changes from elsewhere ---------------------------------------------

  /**
   * Adds a notification created in the page (not known to the server). Items
   * are deduplicated by id; throws INVALID_NOTIFICATION for unusable input.
   */
  addNotification(raw: unknown): AppNotification {
    const notification = normalizeNotification(raw);
    this.#run({ type: 'localAdded', item: notification });
    return this.#visibleItem(notification.id) ?? notification;
  }

  /** Applies a live event from the server's channel or another tab. Echoes of this tab's own changes change nothing. */
  applyLiveEvent(live: LiveEvent): void {
    const { change, unreadCount, resync } = readLiveEvent(live);
    this.#run({ type: 'remoteChange', change, unreadCount });
    if (resync) void this.refresh();
  }
}

function sameItems(a: readonly AppNotification[], b: readonly AppNotification[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}
