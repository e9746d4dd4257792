import type { ReactiveController, TemplateResult } from 'lit';
import type { AnnouncerController } from '../controllers/announcer-controller.js';
import type { MessageCatalog } from '../messages.js';
import type { FeedFilter, FeedView, NotificationStore, StoreFailure } from '../store.js';
import type { AppNotification } from '../types.js';
import type { FeedBase, FeedHost } from './feed-context.js';
import { FeedPagination } from './feed-pagination.js';
import { HeldArrivals } from './held-arrivals.js';
import { ItemActions } from './item-actions.js';
import { renderBody, renderHeader } from './render-feed.js';
import type { RenderedFeed } from './render-feed.js';
import { RovingFocus } from './roving-focus.js';

export type { FeedBase, FeedHost } from './feed-context.js';

/**
 * One feed's view of the store and its behaviour: the Unread/All tabs, the
 * list with keyed items, item and header actions, failure notices, the
 * "N new notifications" pill, keyboard movement between items, and where
 * focus goes when the focused control disappears (see "Focus" in the README).
 * Shared by `<notification-feed>` and the bell's dialog, so both behave the same.
 *
 * This class wires the parts and orders them in the host's update: before
 * render (`hostUpdate`) it settles what the list shows (held arrivals, an
 * automatic load); render (`renderHeader`/`renderBody`, in render-feed.ts)
 * only reads; after render (`hostUpdated`) it moves lost focus and starts loads.
 */
export class FeedController implements ReactiveController, RenderedFeed {
  readonly idPrefix: string;
  readonly titleId: string;
  readonly announcer: AnnouncerController;
  readonly actions = new ItemActions(this);
  readonly focus: RovingFocus;
  readonly arrivals: HeldArrivals;
  readonly pagination: FeedPagination;
  /** Item ids in the order of the current render. */
  rendered: readonly string[] = [];
  /** The items the current render lists. */
  shownItems: readonly AppNotification[] = [];
  /** The ids as they were before the current update, to find a removed item's neighbours. */
  #before: readonly string[] = [];
  /** Whether this update renders the list (the bell's only while open). */
  #shown = false;

  constructor(
    readonly host: FeedHost,
    base: FeedBase,
  ) {
    ({ idPrefix: this.idPrefix, titleId: this.titleId, announcer: this.announcer } = base);
    const focusItem = (id: string | undefined) => void this.focus.focusItem(id);
    this.arrivals = new HeldArrivals(this, () => focusItem(this.rendered[0]));
    this.focus = new RovingFocus(this, {
      heldCount: () => this.arrivals.held.size,
      showHeld: () => void this.arrivals.show(),
      selectFilter: (filter) => this.selectFilter(filter),
    });
    this.pagination = new FeedPagination(this, focusItem);
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

  get store(): NotificationStore {
    return this.host.store;
  }

  get view(): FeedView {
    return this.store.view(this.filter);
  }

  get root(): ShadowRoot {
    return this.host.renderRoot as ShadowRoot;
  }

  get scroller(): HTMLElement | null {
    return this.root.querySelector<HTMLElement>('.scroller');
  }

  hostConnected(): void {
    this.root.addEventListener('focusin', this.focus.onFocusIn);
    window.addEventListener('scroll', this.arrivals.onScroll, { passive: true });
  }

  hostDisconnected(): void {
    this.root.removeEventListener('focusin', this.focus.onFocusIn);
    window.removeEventListener('scroll', this.arrivals.onScroll);
  }

  /** Before render: what the list shows this time, so that rendering it is only reading. */
  hostUpdate(): void {
    this.#before = this.rendered;
    // The bell renders its list only while open; what it did not show is not settled.
    this.#shown = this.host.open !== false;
    if (!this.#shown) return;
    if (this.store.signedOut) {
      this.rendered = this.shownItems = [];
      return;
    }
    this.shownItems = this.arrivals.visible(this.view.items);
    this.rendered = this.shownItems.map((item) => item.id);
    this.pagination.plan(this.shownItems.length);
  }

  /** After render: focus lost with a removed control finds a new home; the list loads if it must. */
  hostUpdated(): void {
    this.focus.restoreLost(this.#before);
    this.pagination.afterUpdate(this.#shown);
  }

  /** A failed mutation: an alert (a failed load shows as the error state or stale notice instead). */
  failed(failure: StoreFailure): void {
    this.actions.failed(failure);
  }

  /** Where focus goes when the feed opens: the first item's main link, else the heading. */
  initialFocus(): HTMLElement | null {
    return this.focus.initialFocus();
  }

  /** Shows another list; it loads on first show. */
  selectFilter(filter: FeedFilter): void {
    if (filter === this.filter) return;
    this.host.filter = filter;
    this.arrivals.held.clear();
    const scroller = this.scroller;
    if (scroller) scroller.scrollTop = 0;
  }

  /** The heading row, tabs and list actions (pure: see render-feed.ts). */
  renderHeader(onClose?: () => void): TemplateResult {
    return renderHeader(this, onClose);
  }

  /** Everything under the header (pure: see render-feed.ts). */
  renderBody(): TemplateResult {
    return renderBody(this);
  }
}
