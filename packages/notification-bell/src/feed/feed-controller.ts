import { html, nothing } from 'lit';
import type { ReactiveController, ReactiveElement, TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { AnnouncerController } from '../controllers/announcer-controller.js';
import { StoreController, rerenderOnChange } from '../controllers/store-controller.js';
import { formatPlural } from '../messages.js';
import type { MessageCatalog } from '../messages.js';
import { safeUrlOrNull } from '../safe-url.js';
import type { NotificationStore } from '../store.js';
import type { AppNotification, NotificationAction } from '../types.js';
import { renderItem } from './render-item.js';
import type { ItemContext, ItemHost } from './render-item.js';

/** The element a feed renders into: `<notification-feed>`, or the bell's dialog. */
export interface FeedHost extends ReactiveElement {
  store: NotificationStore;
  readonly feedMessages: MessageCatalog;
  readonly feedLocale: string | undefined;
  readonly resolvedOptions: Readonly<{ markReadOnClick: boolean }>;
  renderItem: ((notification: AppNotification, context: ItemContext) => unknown) | undefined;
  renderEmpty: (() => unknown) | undefined;
  renderLoading: (() => unknown) | undefined;
  renderError: ((retry: () => void) => unknown) | undefined;
  renderLoadMore: ((loadMore: () => void) => unknown) | undefined;
  /** The bell closes itself for actions with `shouldClose`; an inline feed has nothing to close. */
  hide?(returnFocus?: boolean): void;
}

const NAVIGATION_WAIT_MS = 1000;
const MOVE_KEYS = new Set(['ArrowDown', 'ArrowUp', 'Home', 'End', 'PageDown', 'PageUp']);
let feeds = 0;

/**
 * One feed's view of the store and its behaviour: the list with keyed items,
 * item and header actions, keyboard movement between items, and where focus
 * goes when the focused control disappears (see "Focus" in the README).
 * Shared by `<notification-feed>` and the bell's dialog, so both behave the same.
 */
export class FeedController implements ReactiveController, ItemHost {
  readonly idPrefix = `nf${++feeds}`;
  readonly announcer: AnnouncerController;
  readonly controls = { markUnread: false, archive: false };
  /** Item ids in the order last rendered. */
  #rendered: string[] = [];
  /** The ids as they were before the current update, to find a removed item's neighbours. */
  #before: string[] = [];
  /** The focused element inside this feed and the item it belongs to. */
  #focused: { element: Element; itemId: string | undefined } | undefined;

  constructor(private readonly host: FeedHost) {
    host.addController(this);
    new StoreController(host, rerenderOnChange(host));
    this.announcer = new AnnouncerController(host, (count) => formatPlural(this.messages.newArrivals, count, this.locale));
  }

  get messages(): MessageCatalog {
    return this.host.feedMessages;
  }

  get locale(): string | undefined {
    return this.host.feedLocale;
  }

  get renderItem(): FeedHost['renderItem'] {
    return this.host.renderItem;
  }

  get titleId(): string {
    return `${this.idPrefix}-title`;
  }

  get #store(): NotificationStore {
    return this.host.store;
  }

  get #root(): ShadowRoot {
    return this.host.renderRoot as ShadowRoot;
  }

  hostConnected(): void {
    this.#root.addEventListener('focusin', this.#onFocusIn);
  }

  hostDisconnected(): void {
    this.#root.removeEventListener('focusin', this.#onFocusIn);
  }

  hostUpdate(): void {
    this.#before = this.#rendered;
  }

  hostUpdated(): void {
    this.#restoreLostFocus();
  }

  // ---- focus ---------------------------------------------------------------

  readonly #onFocusIn = (event: Event) => {
    const element = event.composedPath()[0];
    if (!(element instanceof Element)) return;
    this.#focused = { element, itemId: element.closest<HTMLElement>('.item')?.dataset.id };
  };

  /**
   * The focused control was removed by a render (an item deleted, archived or
   * left the list; "mark as read" or "mark all as read" vanished): focus goes
   * to the same item's main link if it is still listed, else the next item,
   * else the previous one, else the heading. Never to <body>.
   */
  #restoreLostFocus(): void {
    const focused = this.#focused;
    if (!focused || focused.element.isConnected || this.#root.activeElement) return;
    const active = document.activeElement;
    if (active && active !== document.body && active !== this.host) return; // the user moved on elsewhere
    this.#focused = undefined;
    const before = this.#before;
    const at = focused.itemId === undefined ? -1 : before.indexOf(focused.itemId);
    const candidates = at < 0 ? before : [before[at] as string, ...before.slice(at + 1), ...before.slice(0, at).reverse()];
    for (const id of candidates) if (this.#focusItem(id)) return;
    this.focusHeading();
  }

  #mainLink(id: string): HTMLElement | null {
    return this.#root.querySelector<HTMLElement>(`.item[data-id="${CSS.escape(id)}"] .main`);
  }

  #focusItem(id: string | undefined): boolean {
    const link = id === undefined ? null : this.#mainLink(id);
    link?.focus();
    return link !== null;
  }

  focusHeading(): void {
    this.#root.getElementById(this.titleId)?.focus();
  }

  /** Where focus goes when the feed opens: the first item's main link, else the heading. */
  initialFocus(): HTMLElement | null {
    const first = this.#rendered[0];
    return (first === undefined ? null : this.#mainLink(first)) ?? this.#root.getElementById(this.titleId);
  }

  /** ↑/↓ (and PageUp/PageDown, Home/End) move between items' main links, as in the APG feed pattern. */
  #onListKeydown = (event: KeyboardEvent) => {
    if (!MOVE_KEYS.has(event.key) || event.altKey || event.ctrlKey || event.metaKey) return;
    const ids = this.#rendered;
    if (ids.length === 0) return;
    const current = this.#focused?.itemId === undefined ? -1 : ids.indexOf(this.#focused.itemId);
    const key = event.key;
    const next =
      key === 'Home' ? 0 : key === 'End' ? ids.length - 1 : current < 0 ? 0 : key === 'ArrowDown' || key === 'PageDown' ? Math.min(ids.length - 1, current + 1) : Math.max(0, current - 1);
    event.preventDefault();
    this.#focusItem(ids[next]);
  };

  // ---- actions -------------------------------------------------------------

  markAsRead(id: string): Promise<boolean> {
    return this.#store.markAsRead(id);
  }

  markAsUnread(id: string): Promise<boolean> {
    const store = this.#store as NotificationStore & { markAsUnread?(id: string): Promise<boolean> };
    return store.markAsUnread ? store.markAsUnread(id) : Promise.resolve(false);
  }

  archive(id: string): Promise<boolean> {
    const store = this.#store as NotificationStore & { archive?(id: string): Promise<boolean> };
    return store.archive ? store.archive(id) : Promise.resolve(false);
  }

  remove(id: string): Promise<boolean> {
    return this.#store.deleteNotification(id);
  }

  /**
   * A click on an item's main link: marks it read first (if asked to), then
   * follows its URL (only safe ones are links at all), waiting at most a
   * second so a slow API never blocks navigation. Modified clicks (new tab)
   * are left to the browser.
   */
  open(event: MouseEvent, notification: AppNotification): void {
    if (!this.host.resolvedOptions.markReadOnClick || notification.read_at !== null) return;
    const url = safeUrlOrNull(notification.action_url);
    const plain = event.button === 0 && !event.ctrlKey && !event.metaKey && !event.shiftKey && !event.altKey;
    const marked = this.markAsRead(notification.id);
    if (!url || !plain) return;
    event.preventDefault();
    void Promise.race([marked, new Promise((resolve) => setTimeout(resolve, NAVIGATION_WAIT_MS))]).then(() => window.location.assign(url));
  }

  /** An item's action: its `event`, then its `url` only if safe, then closes the bell if `shouldClose`. */
  runAction(action: NotificationAction, notification: AppNotification): void {
    if (action.isDisabled) return;
    if (action.event) window.dispatchEvent(new CustomEvent(action.event, { detail: { ...action.data, notificationId: notification.id, action: action.name } }));
    const url = safeUrlOrNull(action.url);
    if (url) {
      if (action.openInNewTab) window.open(url, '_blank', 'noopener');
      else window.location.assign(url);
    }
    if (action.shouldClose) this.host.hide?.(true);
  }

  async #loadMore(): Promise<void> {
    if (this.#store.isLoading) return;
    const first = this.#rendered.length;
    const hadFocus = this.#root.activeElement?.matches('.load-more') === true;
    const added = await this.#store.loadMore();
    if (added <= 0) return;
    this.announcer.announce(formatPlural(this.messages.loadedMore, added, this.locale));
    // From "load more" (which may now be gone) to the first item it loaded, as feeds do.
    await this.host.updateComplete;
    if (hadFocus) this.#focusItem(this.#rendered[first]);
  }

  // ---- rendering -----------------------------------------------------------

  /** The heading row: title, "mark all as read", and `extra` (the bell's close button). */
  renderHeader(extra: unknown = nothing): TemplateResult {
    const messages = this.messages;
    const store = this.#store;
    return html`
      <div class="header" part="header">
        <h2 id=${this.titleId} part="title" tabindex="-1">${messages.title}</h2>
        ${store.unreadCount > 0
          ? html`<button type="button" class="text-button" part="mark-all-read" @click=${() => void store.markAllAsRead()}>${messages.markAllRead}</button>`
          : nothing}
        ${extra}
      </div>
    `;
  }

  /** Everything under the header: the list or its state, and "load more". */
  renderBody(): TemplateResult {
    const messages = this.messages;
    const store = this.#store;
    const items = store.items;
    this.#rendered = items.map((item) => item.id);
    if (items.length === 0) {
      if (store.error && !store.isLoading) {
        const retry = () => void store.refresh();
        return html`<div class="state" part="error" role="alert">
          <slot name="error"
            >${this.host.renderError
              ? this.host.renderError(retry)
              : html`<p>${messages.error}</p>
                  <button type="button" class="text-button" part="retry" @click=${retry}>${messages.retry}</button>`}</slot
          >
        </div>`;
      }
      if (store.isLoading || !store.hasLoaded) {
        return html`<div class="state" part="loading"><slot name="loading">${this.host.renderLoading ? this.host.renderLoading() : messages.loading}</slot></div>`;
      }
      return html`<div class="state" part="empty"><slot name="empty">${this.host.renderEmpty ? this.host.renderEmpty() : messages.empty}</slot></div>`;
    }
    const now = Date.now();
    const setSize = store.hasMore ? -1 : items.length;
    const loadMore = () => void this.#loadMore();
    return html`
      <div class="scroller" @keydown=${this.#onListKeydown}>
        <div class="feed" part="list" role="feed" aria-labelledby=${this.titleId} aria-busy=${store.isLoading ? 'true' : 'false'}>
          ${repeat(
            items,
            (item) => item.id,
            (item, index) => renderItem(this, item, index, setSize, now),
          )}
        </div>
        ${store.hasMore
          ? this.host.renderLoadMore
            ? this.host.renderLoadMore(loadMore)
            : html`<button type="button" class="load-more" part="load-more" aria-disabled=${store.isLoading ? 'true' : 'false'} @click=${loadMore}>
                ${store.isLoading ? messages.loading : messages.loadMore}
              </button>`
          : nothing}
      </div>
    `;
  }
}
