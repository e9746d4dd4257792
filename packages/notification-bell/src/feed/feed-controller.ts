import { html, nothing } from 'lit';
import type { ReactiveController, ReactiveElement, TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { AnnouncerController } from '../controllers/announcer-controller.js';
import { failureMessage, formatPlural } from '../messages.js';
import type { MessageCatalog } from '../messages.js';
import { safeUrlOrNull } from '../safe-url.js';
import type { FeedFilter, FeedView, NotificationStore, StoreFailure } from '../store.js';
import type { AppNotification, NotificationAction } from '../types.js';
import { icon } from '../ui/icons.js';
import { control, renderItem } from './render-item.js';
import type { ItemContext, ItemHost } from './render-item.js';

/** The element a feed renders into: `<notification-feed>`, or the bell's dialog. */
export interface FeedHost extends ReactiveElement {
  store: NotificationStore;
  /** Which list this element shows; its own view state, not the store's. */
  filter: FeedFilter;
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

const FILTERS: readonly FeedFilter[] = ['all', 'unread'];
const NAVIGATION_WAIT_MS = 1000;
const createdAt = (item: AppNotification) => Date.parse(item.created_at);

/** What the view gets from the element's part that is loaded up front (feed-loader.ts). */
export interface FeedBase {
  readonly idPrefix: string;
  readonly titleId: string;
  readonly announcer: AnnouncerController;
}

/**
 * One feed's view of the store and its behaviour: the Unread/All tabs, the
 * list with keyed items, item and header actions, failure notices, the
 * "N new notifications" pill, keyboard movement between items, and where
 * focus goes when the focused control disappears (see "Focus" in the README).
 * Shared by `<notification-feed>` and the bell's dialog, so both behave the same.
 */
export class FeedController implements ReactiveController, ItemHost {
  readonly idPrefix: string;
  readonly titleId: string;
  readonly announcer: AnnouncerController;
  /** Item ids in the order last rendered. */
  #rendered: string[] = [];
  /** The ids as they were before the current update, to find a removed item's neighbours. */
  #before: string[] = [];
  /** The focused element inside this feed and the item it belongs to. */
  #focused: { element: Element; itemId: string | undefined } | undefined;
  /** Items that arrived while the list was scrolled: held back behind the pill, so nothing shifts under the reader. */
  #held = new Set<string>();
  /** Automatic loads of the next page while the list shows nothing (see render); reset once it shows rows. */
  #emptyLoads = 0;
  /** `created_at` of the newest item shown so far; anything newer is an arrival. */
  #newest = -Infinity;
  #alert: { text: string; key: number } | undefined;
  #alerts = 0;
  #confirmingDeleteAll = false;
  /** Whether the last render showed the list (the bell's is only rendered while open). */
  #shown = false;

  constructor(
    private readonly host: FeedHost,
    base: FeedBase,
  ) {
    ({ idPrefix: this.idPrefix, titleId: this.titleId, announcer: this.announcer } = base);
    host.addController(this);
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

  get filter(): FeedFilter {
    return this.host.filter === 'unread' ? 'unread' : 'all';
  }

  get #store(): NotificationStore {
    return this.host.store;
  }

  get #view(): FeedView {
    return this.#store.view(this.filter);
  }

  get #root(): ShadowRoot {
    return this.host.renderRoot as ShadowRoot;
  }

  get #scroller(): HTMLElement | null {
    return this.#root.querySelector<HTMLElement>('.scroller');
  }

  hostConnected(): void {
    this.#root.addEventListener('focusin', this.#onFocusIn);
    window.addEventListener('scroll', this.#onScroll, { passive: true });
  }

  hostDisconnected(): void {
    this.#root.removeEventListener('focusin', this.#onFocusIn);
    window.removeEventListener('scroll', this.#onScroll);
  }

  hostUpdate(): void {
    this.#before = this.#rendered;
    this.#shown = false;
  }

  hostUpdated(): void {
    this.#restoreLostFocus();
    // The list on show loads once; a failed first load waits for Retry instead of looping.
    const view = this.#view;
    if (this.#shown && !view.hasLoaded && !view.isLoading && !view.error) void this.#store.refresh(this.filter);
  }

  /** A failed mutation: an alert (a failed load shows as the error state or stale notice instead). */
  failed({ operation, error }: StoreFailure): void {
    // A failed load shows as the error state or the stale notice; 401 as the signed-out state.
    if (operation === 'load' || error.status === 401) return;
    const text = failureMessage(this.messages, operation);
    if (text) this.#alert = { text, key: ++this.#alerts };
    this.host.requestUpdate();
  }

  // ---- focus ---------------------------------------------------------------

  readonly #onFocusIn = (event: Event) => {
    const element = event.composedPath()[0];
    if (!(element instanceof Element)) return;
    const item = element.closest<HTMLElement>('.item');
    this.#focused = { element, itemId: item?.dataset.id };
    // The link's ring goes round the whole item: show all of it, not only the link's own box (the browser's default).
    if (item && element.classList.contains('main')) item.scrollIntoView({ block: 'nearest' });
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
    this.#root.getElementById(this.titleId)?.focus();
  }

  #mainLink(id: string | undefined): HTMLElement | null {
    return id === undefined ? null : this.#root.querySelector<HTMLElement>(`.item[data-id="${CSS.escape(id)}"] .main`);
  }

  #focusItem(id: string | undefined): boolean {
    const link = this.#mainLink(id);
    link?.focus();
    return link !== null;
  }

  /** Where focus goes when the feed opens: the first item's main link, else the heading. */
  initialFocus(): HTMLElement | null {
    return this.#mainLink(this.#rendered[0]) ?? this.#root.getElementById(this.titleId);
  }

  /** ↑/↓ (and PageUp/PageDown, Home/End) move between items' main links, as in the APG feed pattern. */
  readonly #onListKeydown = (event: KeyboardEvent) => {
    const ids = this.#rendered;
    const at = ids.indexOf(this.#focused?.itemId as string);
    const step = ({ ArrowDown: 1, PageDown: 1, ArrowUp: -1, PageUp: -1 } as Record<string, number>)[event.key];
    const next = event.key === 'Home' ? 0 : event.key === 'End' ? ids.length - 1 : step && Math.min(ids.length - 1, Math.max(0, at + step));
    if (next === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    // Home is "back to the newest": it also shows what the pill holds.
    if (next === 0 && this.#held.size > 0) void this.#showHeld();
    else this.#focusItem(ids[next]);
  };

  // ---- tabs ----------------------------------------------------------------

  /** Shows another list; it loads on first show. */
  selectFilter(filter: FeedFilter): void {
    if (filter === this.filter) return;
    this.host.filter = filter;
    this.#held.clear();
    const scroller = this.#scroller;
    if (scroller) scroller.scrollTop = 0;
  }

  /** ←/→ move between the tabs (wrapping) and select as they go; Home/End jump to the ends. */
  readonly #onTabKeydown = async (event: KeyboardEvent) => {
    // Two tabs: ←/→ (wrapping) go to the other one; Home/End to the first/last.
    const next = ({ ArrowRight: 1, ArrowLeft: 1, Home: 0, End: 1 } as Record<string, number>)[event.key];
    if (next === undefined) return;
    event.preventDefault();
    this.selectFilter(event.key.startsWith('Arrow') ? (this.filter === 'all' ? 'unread' : 'all') : (FILTERS[next] as FeedFilter));
    await this.host.updateComplete;
    this.#root.getElementById(`${this.idPrefix}-tab-${this.filter}`)?.focus();
  };

  // ---- actions -------------------------------------------------------------

  markAsRead(id: string): Promise<boolean> {
    return this.#store.markAsRead(id);
  }

  markAsUnread(id: string): Promise<boolean> {
    return this.#store.markAsUnread(id);
  }

  archive(id: string): Promise<boolean> {
    return this.#store.archive(id);
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

  /** "Delete all" asks for a second press (its label says so, and it is announced); leaving the button cancels. */
  readonly #onDeleteAll = () => {
    this.#confirmingDeleteAll = !this.#confirmingDeleteAll;
    if (this.#confirmingDeleteAll) this.announcer.announce(this.messages.deleteAllPrompt);
    else void this.#store.deleteAll();
    this.host.requestUpdate();
  };

  readonly #cancelDeleteAll = () => {
    if (!this.#confirmingDeleteAll) return;
    this.#confirmingDeleteAll = false;
    this.host.requestUpdate();
  };

  async #loadMore(): Promise<void> {
    if (this.#view.isLoading) return;
    const first = this.#rendered.length;
    const hadFocus = this.#root.activeElement?.matches('.load-more') === true;
    const added = await this.#store.loadMore(this.filter);
    if (added <= 0) return;
    this.announcer.announce(formatPlural(this.messages.loadedMore, added, this.locale));
    // From "load more" (which may now be gone) to the first item it loaded, as feeds do.
    await this.host.updateComplete;
    if (hadFocus) this.#focusItem(this.#rendered[first]);
  }

  // ---- the pill ------------------------------------------------------------

  /** Scrolled away from the top: of the list's own scroll box, or of the page past an inline feed's top. */
  #isScrolled(): boolean {
    const scroller = this.#scroller;
    return scroller !== null && (scroller.scrollTop > 0 || scroller.getBoundingClientRect().top < 0);
  }

  /** Back at the top: the held items can show without moving anything the user is reading. */
  readonly #onScroll = () => {
    if (this.#held.size > 0 && !this.#isScrolled()) this.host.requestUpdate();
  };

  readonly #showHeld = async () => {
    this.#held.clear();
    const scroller = this.#scroller;
    if (scroller) {
      scroller.scrollTop = 0;
      if (scroller.getBoundingClientRect().top < 0) scroller.scrollIntoView();
    }
    this.host.requestUpdate();
    await this.host.updateComplete;
    this.#focusItem(this.#rendered[0]);
  };

  /** The items to render now: all of them at the top; while scrolled, arrivals wait behind the pill. */
  #visible(items: readonly AppNotification[]): readonly AppNotification[] {
    // Layout is read only when there is something new or something held, not on every render.
    const fresh = items.filter((item) => createdAt(item) > this.#newest);
    if ((fresh.length > 0 || this.#held.size > 0) && !this.#isScrolled()) this.#held.clear();
    else for (const item of fresh) this.#held.add(item.id);
    const visible = this.#held.size > 0 ? items.filter((item) => !this.#held.has(item.id)) : items;
    for (const item of visible) this.#newest = Math.max(this.#newest, createdAt(item));
    return visible;
  }

  // ---- rendering -----------------------------------------------------------

  /** The heading row (title, and a close button when `onClose` is given: the bell's panel), then the tabs and the list's actions. */
  renderHeader(onClose?: () => void): TemplateResult {
    const messages = this.messages;
    const store = this.#store;
    const filter = this.filter;
    const tab = (value: FeedFilter, label: string) =>
      html`<button
        type="button"
        role="tab"
        class="tab"
        part="tab"
        id=${`${this.idPrefix}-tab-${value}`}
        aria-selected=${filter === value ? 'true' : 'false'}
        aria-controls=${`${this.idPrefix}-tabpanel`}
        tabindex=${filter === value ? 0 : -1}
        @click=${() => this.selectFilter(value)}
      >
        ${label}
      </button>`;
    return html`
      <div class="header" part="header">
        <h2 id=${this.titleId} part="title" tabindex="-1">${messages.title}</h2>
        ${onClose ? control('close', messages.close, 'close', onClose) : nothing}
        <div class="toolbar">
          <div class="tabs" role="tablist" aria-label=${messages.filters} @keydown=${this.#onTabKeydown}>
            ${tab('all', messages.tabAll)}${tab('unread', messages.tabUnread)}
          </div>
          <span class="list-actions">
            ${store.unreadCount > 0 && !store.signedOut
              ? html`<button type="button" class="text-button" part="mark-all-read" title=${messages.markAllRead} @click=${() => void store.markAllAsRead()}>
                  ${icon('checks')}<span class="label">${messages.markAllRead}</span>
                </button>`
              : nothing}
            ${store.view('all').items.length > 0 && !store.signedOut
              ? html`<button
                  type="button"
                  class="text-button danger ${this.#confirmingDeleteAll ? 'confirming' : ''}"
                  part="delete-all"
                  title=${messages.deleteAll}
                  @click=${this.#onDeleteAll}
                  @blur=${this.#cancelDeleteAll}
                >
                  ${icon('trash')}<span class="label">${this.#confirmingDeleteAll ? messages.deleteAllConfirm : messages.deleteAll}</span>
                </button>`
              : nothing}
          </span>
        </div>
      </div>
    `;
  }

  /** Everything under the header, as the tabs' panel: notices, then the list or its state. */
  renderBody(): TemplateResult {
    this.#shown = true;
    const messages = this.messages;
    const alert = this.#alert;
    return html`
      <div class="tabpanel" id=${`${this.idPrefix}-tabpanel`} role="tabpanel" aria-labelledby=${`${this.idPrefix}-tab-${this.filter}`}>
        ${repeat(
          alert ? [alert] : [],
          (shown) => shown.key, // a new element per failure, so the same sentence is announced again
          (shown) => html`<div class="notice alert" part="alert" role="alert">
            <span>${shown.text}</span>
            ${control('dismiss', messages.dismiss, 'close', () => {
              this.#alert = undefined;
              this.host.requestUpdate();
            })}
          </div>`,
        )}
        ${this.#renderList(messages)}
      </div>
    `;
  }

  #renderList(messages: MessageCatalog): TemplateResult {
    const store = this.#store;
    const view = this.#view;
    const retry = () => void store.refresh(this.filter);
    if (store.signedOut) {
      this.#rendered = [];
      return html`<div class="state" part="signed-out" role="alert">${messages.signedOut}</div>`;
    }
    const stale = store.syncError && view.hasLoaded
      ? html`<div class="notice" part="stale">
          <span>${messages.stale}</span>
          <button type="button" class="text-button" part="retry" @click=${retry}>${messages.retry}</button>
        </div>`
      : nothing;
    const items = this.#visible(view.items);
    this.#rendered = items.map((item) => item.id);
    if (items.length === 0) {
      if (view.error && !view.isLoading) {
        return html`${stale}<div class="state" part="error" role="alert">
          <slot name="error"
            >${this.host.renderError
              ? this.host.renderError(retry)
              : html`<p>${messages.error}</p>
                  <button type="button" class="text-button" part="retry" @click=${retry}>${messages.retry}</button>`}</slot
          >
        </div>`;
      }
      // The user emptied what was shown (read in Unread, archived, deleted) and more exist: fetch them
      // rather than say there is nothing. Each answer shows rows or ends `hasMore`; a failing server
      // gets two tries, then the button (below the empty state) is the user's to press.
      const autoLoad = view.hasMore && !view.isLoading && this.#emptyLoads < 2;
      if (autoLoad) {
        this.#emptyLoads += 1;
        queueMicrotask(() => void store.loadMore(this.filter));
      }
      if (view.isLoading || !view.hasLoaded || autoLoad) {
        return html`<div class="state" part="loading"><slot name="loading">${this.host.renderLoading ? this.host.renderLoading() : messages.loading}</slot></div>`;
      }
      return html`${stale}<div class="state" part="empty">
          <slot name="empty">${this.host.renderEmpty ? this.host.renderEmpty() : this.filter === 'unread' ? messages.emptyUnread : messages.empty}</slot>
        </div>
        ${view.hasMore ? html`<button type="button" class="load-more" part="load-more" @click=${() => void this.#loadMore()}>${messages.loadMore}</button>` : nothing}`;
    }
    this.#emptyLoads = 0;
    const now = Date.now();
    const setSize = view.hasMore ? -1 : items.length;
    const loadMore = () => void this.#loadMore();
    const held = this.#held.size;
    return html`
      ${stale}
      <div class="scroller" @keydown=${this.#onListKeydown} @scroll=${this.#onScroll}>
        ${held > 0
          ? html`<div class="pill-row">
              <button type="button" class="pill" part="new-items" @click=${this.#showHeld}>${formatPlural(messages.newItemsPill, held, this.locale)}</button>
            </div>`
          : nothing}
        <div class="feed" part="list" role="feed" aria-labelledby=${this.titleId} aria-busy=${view.isLoading ? 'true' : 'false'}>
          ${repeat(
            items,
            (item) => item.id,
            (item, index) => renderItem(this, item, index, setSize, now),
          )}
        </div>
        ${view.hasMore
          ? this.host.renderLoadMore
            ? this.host.renderLoadMore(loadMore)
            : html`<button type="button" class="load-more" part="load-more" aria-disabled=${view.isLoading ? 'true' : 'false'} @click=${loadMore}>
                ${view.isLoading ? messages.loading : messages.loadMore}
              </button>`
          : nothing}
      </div>
    `;
  }
}
