import { createHttpNotificationApi } from './api/http-api.js';
import type { NotificationApi } from './api/notification-api.js';
import { NotificationBellError } from './errors.js';
import { normalizeNotification } from './normalize.js';
import type { AppNotification, LiveEvent } from './types.js';

export interface StoreChannels {
  unreadCount: number;
  items: readonly AppNotification[];
  /** Any change of isLoading / hasMore / isOpen / currentPage / error. */
  state: NotificationStore;
  /** Number of new unread items that just arrived by poll, push or local add (never the first load). */
  arrivals: number;
  /** A change this tab made or received, in live-event form, for relaying to other tabs. */
  sync: LiveEvent;
}
export type StoreChannel = keyof StoreChannels;
type Listener<K extends StoreChannel> = (value: StoreChannels[K]) => void;

export interface NotificationStoreOptions {
  api?: NotificationApi;
  perPage?: number;
  /** Where the `notification:*` DOM events go; `window` in a browser. */
  eventTarget?: EventTarget;
}

export type StoreOperation = 'load' | 'loadMore' | 'markAsRead' | 'markAllAsRead' | 'delete';

export interface NotificationErrorDetail {
  operation: StoreOperation;
  code: string;
  message: string;
  notificationId?: string;
  error: unknown;
}

const byNewest = (a: AppNotification, b: AppNotification) => Date.parse(b.created_at) - Date.parse(a.created_at);

function toBellError(error: unknown): NotificationBellError {
  return error instanceof NotificationBellError ? error : new NotificationBellError('NETWORK_ERROR', String(error), { cause: error });
}

/**
 * The page's notification state. Mutations are optimistic and undo exactly
 * their own change on failure; counts from the server replace local
 * arithmetic whenever they arrive (except poll counts that raced a pending mutation).
 */
export class NotificationStore {
  items: readonly AppNotification[] = [];
  unreadCount = 0;
  isLoading = false;
  hasMore = false;
  isOpen = false;
  currentPage = 0;
  error: NotificationBellError | null = null;
  perPage = 10;

  #api: NotificationApi;
  #target: EventTarget;
  #listeners = new Map<StoreChannel, Set<Listener<StoreChannel>>>();
  #pendingIds = new Set<string>();
  #pendingMutations = 0;
  /** Items added with addNotification that the server does not know; a resync must not drop them. */
  #localOnlyIds = new Set<string>();
  #loadedOnce = false;
  #inflightRefresh: Promise<void> | undefined;
  /**
   * Live changes are numbered so that a page answered for a request sent
   * before them is not taken as newer than they are: it must not prune items
   * pushed meanwhile, nor overwrite a count that changed meanwhile.
   */
  #changeSequence = 0;
  /** When a live event last set or adjusted the count (other than a count-less push of a new item). */
  #countTouchedAt = 0;
  #pageRequestsInFlight = 0;
  /** Items pushed or added while a page request was in flight; emptied when none is. */
  #arrivalsDuringRequests = new Map<string, number>();

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

  get hasLoaded(): boolean {
    return this.#loadedOnce;
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

  #setItems(items: AppNotification[]): void {
    this.items = items.sort(byNewest);
    this.#emit('items', this.items);
  }

  #setCount(count: number): void {
    const next = Math.max(0, Math.round(count));
    if (next === this.unreadCount) return;
    this.unreadCount = next;
    this.#emit('unreadCount', next);
  }

  #stateChanged(): void {
    this.#emit('state', this);
  }

  #fail(operation: StoreOperation, error: unknown, notificationId?: string): void {
    const bellError = toBellError(error);
    const detail: NotificationErrorDetail = { operation, code: bellError.code, message: bellError.message, error: bellError };
    if (notificationId !== undefined) detail.notificationId = notificationId;
    this.#dispatch('notification:error', detail);
  }

  /** Sets the count the page rendered with (`unread-count`), until the server says otherwise. */
  setInitialUnreadCount(count: number): void {
    if (!this.#loadedOnce) this.#setCount(count);
  }

  /** Merges server rows: server versions win except for items with a mutation in flight. */
  #merge(rows: AppNotification[], { prune, requestedAt = Infinity }: { prune: boolean; requestedAt?: number }): number {
    const known = new Map(this.items.map((item) => [item.id, item]));
    let arrivals = 0;
    for (const row of rows) {
      const existing = known.get(row.id);
      if (!existing && row.read_at === null) arrivals += 1;
      if (existing && this.#pendingIds.has(row.id)) continue;
      this.#localOnlyIds.delete(row.id);
      known.set(row.id, row);
    }
    if (prune && rows.length > 0) {
      // Anything newer than the oldest row of page 1 that the server no longer lists was deleted elsewhere.
      const incoming = new Set(rows.map((row) => row.id));
      const oldest = Math.min(...rows.map((row) => Date.parse(row.created_at)));
      for (const [id, item] of known) {
        const arrivedSinceRequest = (this.#arrivalsDuringRequests.get(id) ?? 0) > requestedAt;
        if (!incoming.has(id) && !arrivedSinceRequest && !this.#pendingIds.has(id) && !this.#localOnlyIds.has(id) && Date.parse(item.created_at) >= oldest) {
          known.delete(id);
        }
      }
    }
    this.#setItems([...known.values()]);
    return arrivals;
  }

  /** Fetches page 1 and the count (first load, poll, reconnect resync). Concurrent calls share one request. */
  refresh(): Promise<void> {
    this.#inflightRefresh ??= this.#refresh().finally(() => {
      this.#inflightRefresh = undefined;
    });
    return this.#inflightRefresh;
  }

  async #refresh(): Promise<void> {
    const first = !this.#loadedOnce;
    if (first) {
      this.isLoading = true;
      this.#stateChanged();
    }
    const requestedAt = this.#beginPageRequest();
    try {
      const page = await this.#api.list({ page: 1, limit: this.perPage });
      const arrivals = this.#merge(page.notifications, { prune: true, requestedAt });
      if (this.currentPage <= 1) {
        this.currentPage = 1;
        this.hasMore = page.hasNextPage;
      }
      this.#takePageCount(page, requestedAt, { firstPage: true });
      this.error = null;
      if (!first && arrivals > 0) this.#emit('arrivals', arrivals);
      this.#loadedOnce = true;
    } catch (error) {
      this.error = toBellError(error);
      this.#fail('load', error);
    } finally {
      this.#endPageRequest();
      this.isLoading = false;
      this.#stateChanged();
    }
  }

  #beginPageRequest(): number {
    this.#pageRequestsInFlight += 1;
    return this.#changeSequence;
  }

  #endPageRequest(): void {
    this.#pageRequestsInFlight -= 1;
    if (this.#pageRequestsInFlight === 0) this.#arrivalsDuringRequests.clear();
  }

  /**
   * The server's count from a page, unless a live change since the request
   * makes it stale. Items pushed meanwhile without a count are added to it
   * when page 1 does not list them (the server had not counted them either);
   * other pages cannot tell, so the local count stays.
   */
  #takePageCount(page: { notifications: AppNotification[]; unreadCount?: number | undefined }, requestedAt: number, { firstPage }: { firstPage: boolean }): void {
    if (page.unreadCount === undefined || this.#pendingMutations > 0 || this.#countTouchedAt > requestedAt) return;
    let count = page.unreadCount;
    const listed = new Set(page.notifications.map((row) => row.id));
    for (const [id, sequence] of this.#arrivalsDuringRequests) {
      if (sequence <= requestedAt || this.#localOnlyIds.has(id)) continue;
      if (!firstPage) return;
      const item = this.items.find((candidate) => candidate.id === id);
      if (item && item.read_at === null && !listed.has(id)) count += 1;
    }
    this.#setCount(count);
  }

  /** Loads the next page; a no-op while loading or when there is nothing more. Resolves to how many items were added. */
  async loadMore(): Promise<number> {
    if (this.isLoading || (!this.hasMore && this.#loadedOnce)) return 0;
    if (!this.#loadedOnce) {
      await this.refresh();
      return this.items.length;
    }
    this.isLoading = true;
    this.#stateChanged();
    const before = this.items.length;
    const requestedAt = this.#beginPageRequest();
    try {
      const nextPage = this.currentPage + 1;
      const page = await this.#api.list({ page: nextPage, limit: this.perPage });
      this.#merge(page.notifications, { prune: false });
      this.currentPage = nextPage;
      this.hasMore = page.hasNextPage;
      this.#takePageCount(page, requestedAt, { firstPage: false });
      this.error = null;
    } catch (error) {
      this.#fail('loadMore', error);
    } finally {
      this.#endPageRequest();
      this.isLoading = false;
      this.#stateChanged();
    }
    return this.items.length - before;
  }

  #insert(raw: unknown, unreadCount: number | undefined): AppNotification | undefined {
    const notification = normalizeNotification(raw);
    const existing = this.items.find((item) => item.id === notification.id);
    if (existing) {
      // Dedup: the same notification by poll and push (or twice by push) is one item.
      if (unreadCount !== undefined) this.#setCount(unreadCount);
      return undefined;
    }
    const sequence = ++this.#changeSequence;
    if (this.#pageRequestsInFlight > 0) this.#arrivalsDuringRequests.set(notification.id, sequence);
    this.#setItems([...this.items, notification]);
    if (unreadCount !== undefined) this.#setCount(unreadCount);
    else if (notification.read_at === null) this.#setCount(this.unreadCount + 1);
    this.#dispatch('notification:received', notification);
    if (notification.read_at === null) this.#emit('arrivals', 1);
    return notification;
  }

  /**
   * Adds a notification created in the page (not known to the server). Items
   * are deduplicated by id; throws INVALID_NOTIFICATION for unusable input.
   */
  addNotification(raw: unknown): AppNotification {
    const notification = normalizeNotification(raw);
    const added = this.#insert(notification, undefined);
    if (added) this.#localOnlyIds.add(added.id);
    return this.items.find((item) => item.id === notification.id) ?? notification;
  }

  async markAsRead(id: string): Promise<boolean> {
    const item = this.items.find((candidate) => candidate.id === id);
    if (!item || item.read_at !== null || this.#pendingIds.has(id)) return false;
    const readAt = new Date().toISOString();
    this.#replace(id, { ...item, read_at: readAt });
    this.#setCount(this.unreadCount - 1);
    if (this.#localOnlyIds.has(id)) {
      this.#afterMarkedRead(id);
      return true;
    }
    this.#pendingIds.add(id);
    this.#pendingMutations += 1;
    this.#countTouchedAt = ++this.#changeSequence; // a page requested before this mutation is stale
    try {
      const result = await this.#api.markRead(id);
      if (result.unreadCount !== undefined) this.#setCount(result.unreadCount);
      this.#afterMarkedRead(id);
      return true;
    } catch (error) {
      const current = this.items.find((candidate) => candidate.id === id);
      if (current && current.read_at === readAt) {
        this.#replace(id, { ...current, read_at: null });
        this.#setCount(this.unreadCount + 1);
      }
      this.#fail('markAsRead', error, id);
      return false;
    } finally {
      this.#pendingIds.delete(id);
      this.#pendingMutations -= 1;
    }
  }

  #afterMarkedRead(id: string): void {
    this.#dispatch('notification:marked-read', { notificationId: id });
    this.#emit('sync', { event: 'notification.marked-read', data: { notification_id: id, unread_count: this.unreadCount } });
  }

  async markAllAsRead(): Promise<boolean> {
    const unreadIds = this.items.filter((item) => item.read_at === null).map((item) => item.id);
    const previousCount = this.unreadCount;
    const readAt = new Date().toISOString();
    this.#setItems(this.items.map((item) => (item.read_at === null ? { ...item, read_at: readAt } : item)));
    this.#setCount(0);
    this.#pendingMutations += 1;
    this.#countTouchedAt = ++this.#changeSequence; // a page requested before this mutation is stale
    try {
      const result = await this.#api.markAllRead();
      this.#setCount(result.unreadCount ?? 0);
      this.#dispatch('notification:all-marked-read', {});
      this.#emit('sync', { event: 'notification.marked-all-read', data: { unread_count: this.unreadCount } });
      return true;
    } catch (error) {
      const undo = new Set(unreadIds);
      this.#setItems(this.items.map((item) => (undo.has(item.id) && item.read_at === readAt ? { ...item, read_at: null } : item)));
      this.#setCount(previousCount);
      this.#fail('markAllAsRead', error);
      return false;
    } finally {
      this.#pendingMutations -= 1;
    }
  }

  async deleteNotification(id: string): Promise<boolean> {
    const item = this.items.find((candidate) => candidate.id === id);
    if (!item || this.#pendingIds.has(id)) return false;
    this.#setItems(this.items.filter((candidate) => candidate.id !== id));
    if (item.read_at === null) this.#setCount(this.unreadCount - 1);
    const localOnly = this.#localOnlyIds.delete(id);
    this.#pendingIds.add(id);
    this.#pendingMutations += 1;
    this.#countTouchedAt = ++this.#changeSequence; // a page requested before this mutation is stale
    try {
      if (!localOnly) {
        const result = await this.#api.remove(id);
        if (result.unreadCount !== undefined) this.#setCount(result.unreadCount);
      }
      this.#dispatch('notification:deleted', { notificationId: id });
      this.#emit('sync', { event: 'notification.deleted', data: { notification_id: id, unread_count: this.unreadCount } });
      return true;
    } catch (error) {
      if (!this.items.some((candidate) => candidate.id === id)) {
        this.#setItems([...this.items, item]);
        if (item.read_at === null) this.#setCount(this.unreadCount + 1);
      }
      if (localOnly) this.#localOnlyIds.add(id);
      this.#fail('delete', error, id);
      return false;
    } finally {
      this.#pendingIds.delete(id);
      this.#pendingMutations -= 1;
    }
  }

  #replace(id: string, next: AppNotification): void {
    this.#setItems(this.items.map((item) => (item.id === id ? next : item)));
  }

  /**
   * Applies a live event (from the server's channel, or relayed by another tab).
   * Own-action echoes are harmless: the item is already in that state, so no
   * event fires twice, and the count simply takes the server's value.
   */
  applyLiveEvent(live: LiveEvent): void {
    const data = live.data;
    const count = typeof data.unread_count === 'number' ? data.unread_count : undefined;
    // Any count this event sets or adjusts is newer than a page requested before it.
    if (count !== undefined || live.event !== 'notification.created') this.#countTouchedAt = ++this.#changeSequence;
    const id = typeof data.notification_id === 'string' || typeof data.notification_id === 'number' ? String(data.notification_id) : undefined;
    switch (live.event) {
      case 'notification.created': {
        const { unread_count: _ignored, ...notification } = data;
        try {
          this.#localOnlyIds.delete(String(notification.id));
          this.#insert(notification, count);
        } catch (error) {
          console.error('[notification-bell] ignored an invalid pushed notification', error);
        }
        return;
      }
      case 'notification.marked-read': {
        if (id === undefined) return;
        const item = this.items.find((candidate) => candidate.id === id);
        if (item && item.read_at === null) {
          this.#replace(id, { ...item, read_at: new Date().toISOString() });
          if (count === undefined) this.#setCount(this.unreadCount - 1);
          this.#dispatch('notification:marked-read', { notificationId: id });
        }
        if (count !== undefined) this.#setCount(count);
        return;
      }
      case 'notification.marked-all-read': {
        const hadUnread = this.items.some((item) => item.read_at === null) || this.unreadCount > 0;
        const readAt = new Date().toISOString();
        if (hadUnread) {
          this.#setItems(this.items.map((item) => (item.read_at === null ? { ...item, read_at: readAt } : item)));
          this.#dispatch('notification:all-marked-read', {});
        }
        this.#setCount(count ?? 0);
        return;
      }
      case 'notification.deleted': {
        if (id === undefined) return;
        const item = this.items.find((candidate) => candidate.id === id);
        if (item) {
          this.#setItems(this.items.filter((candidate) => candidate.id !== id));
          if (count === undefined && item.read_at === null) this.#setCount(this.unreadCount - 1);
          this.#dispatch('notification:deleted', { notificationId: id });
        }
        if (count !== undefined) this.#setCount(count);
        return;
      }
      case 'notification.all-deleted': {
        // Everything the server held is gone; only page-local additions stay.
        const kept = this.items.filter((item) => this.#localOnlyIds.has(item.id));
        if (kept.length !== this.items.length) {
          this.#setItems(kept);
          this.#dispatch('notification:all-deleted', {});
        }
        if (this.hasMore) {
          this.hasMore = false;
          this.#stateChanged();
        }
        this.#setCount(count ?? 0);
        return;
      }
    }
  }

  open(): void {
    if (this.isOpen) return;
    this.isOpen = true;
    this.#stateChanged();
  }

  close(): void {
    if (!this.isOpen) return;
    this.isOpen = false;
    this.#stateChanged();
  }

  toggle(): void {
    if (this.isOpen) this.close();
    else this.open();
  }
}
