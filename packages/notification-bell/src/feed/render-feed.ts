import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { formatPlural } from '../messages.js';
import type { FeedFilter } from '../store.js';
import type { AppNotification } from '../types.js';
import { icon } from '../ui/icons.js';
import type { FeedContext } from './feed-context.js';
import type { FeedPagination } from './feed-pagination.js';
import type { HeldArrivals } from './held-arrivals.js';
import type { ItemActions } from './item-actions.js';
import { control, renderItem } from './render-item.js';
import type { ItemHost } from './render-item.js';
import type { RovingFocus } from './roving-focus.js';

/** What the templates read: the feed and the state its parts settled before render. Reading it changes nothing. */
export interface RenderedFeed extends FeedContext, ItemHost {
  /** The items this render lists (arrivals held behind the pill left out). */
  readonly shownItems: readonly AppNotification[];
  readonly actions: ItemActions;
  readonly focus: RovingFocus;
  readonly arrivals: HeldArrivals;
  readonly pagination: FeedPagination;
  selectFilter(filter: FeedFilter): void;
}

/** The heading row (title, and a close button when `onClose` is given: the bell's panel), then the tabs and the list's actions. */
export function renderHeader(feed: RenderedFeed, onClose?: () => void): TemplateResult {
  const { messages, store, filter, idPrefix, actions } = feed;
  const tab = (value: FeedFilter, label: string) =>
    html`<button
      type="button"
      role="tab"
      class="tab"
      part="tab"
      id=${`${idPrefix}-tab-${value}`}
      aria-selected=${filter === value ? 'true' : 'false'}
      aria-controls=${`${idPrefix}-tabpanel`}
      tabindex=${filter === value ? 0 : -1}
      @click=${() => feed.selectFilter(value)}
    >
      ${label}
    </button>`;
  return html`
    <div class="header" part="header">
      <h2 id=${feed.titleId} part="title" tabindex="-1">${messages.title}</h2>
      ${onClose ? control('close', messages.close, 'close', onClose) : nothing}
      <div class="toolbar">
        <div class="tabs" role="tablist" aria-label=${messages.filters} @keydown=${feed.focus.onTabKeydown}>
          ${tab('all', messages.tabAll)}${tab('unread', messages.tabUnread)}
        </div>
        <span class="list-actions">
          ${store.unreadCount > 0 && !store.signedOut
            ? html`<button type="button" class="text-button" part="mark-all-read" title=${messages.markAllRead} @click=${actions.markAllAsRead}>
                ${icon('checks')}<span class="label">${messages.markAllRead}</span>
              </button>`
            : nothing}
          ${store.view('all').items.length > 0 && !store.signedOut
            ? html`<button
                type="button"
                class="text-button danger ${actions.confirmingDeleteAll ? 'confirming' : ''}"
                part="delete-all"
                title=${messages.deleteAll}
                @click=${actions.onDeleteAll}
                @blur=${actions.cancelDeleteAll}
              >
                ${icon('trash')}<span class="label">${actions.confirmingDeleteAll ? messages.deleteAllConfirm : messages.deleteAll}</span>
              </button>`
            : nothing}
        </span>
      </div>
    </div>
  `;
}

/** Everything under the header, as the tabs' panel: notices, then the list or its state. */
export function renderBody(feed: RenderedFeed): TemplateResult {
  const { messages, idPrefix } = feed;
  const alert = feed.actions.alert;
  return html`
    <div class="tabpanel" id=${`${idPrefix}-tabpanel`} role="tabpanel" aria-labelledby=${`${idPrefix}-tab-${feed.filter}`}>
      ${repeat(
        alert ? [alert] : [],
        (shown) => shown.key, // a new element per failure, so the same sentence is announced again
        (shown) => html`<div class="notice alert" part="alert" role="alert">
          <span>${shown.text}</span>
          ${control('dismiss', messages.dismiss, 'close', feed.actions.dismissAlert)}
        </div>`,
      )}
      ${renderList(feed)}
    </div>
  `;
}

function renderList(feed: RenderedFeed): TemplateResult {
  const { messages, store, view, host, pagination } = feed;
  const retry = pagination.retry;
  if (store.signedOut) return html`<div class="state" part="signed-out" role="alert">${messages.signedOut}</div>`;
  const stale = store.syncError && view.hasLoaded
    ? html`<div class="notice" part="stale">
        <span>${messages.stale}</span>
        <button type="button" class="text-button" part="retry" @click=${retry}>${messages.retry}</button>
      </div>`
    : nothing;
  const items = feed.shownItems;
  const loadMore = () => void pagination.loadMore();
  if (items.length === 0) {
    if (view.error && !view.isLoading) {
      return html`${stale}<div class="state" part="error" role="alert">
        <slot name="error"
          >${host.renderError
            ? host.renderError(retry)
            : html`<p>${messages.error}</p>
                <button type="button" class="text-button" part="retry" @click=${retry}>${messages.retry}</button>`}</slot
        >
      </div>`;
    }
    if (view.isLoading || !view.hasLoaded || pagination.autoLoad) {
      return html`<div class="state" part="loading"><slot name="loading">${host.renderLoading ? host.renderLoading() : messages.loading}</slot></div>`;
    }
    return html`${stale}<div class="state" part="empty">
        <slot name="empty">${host.renderEmpty ? host.renderEmpty() : feed.filter === 'unread' ? messages.emptyUnread : messages.empty}</slot>
      </div>
      ${view.hasMore ? html`<button type="button" class="load-more" part="load-more" @click=${loadMore}>${messages.loadMore}</button>` : nothing}`;
  }
  const now = Date.now();
  const setSize = view.hasMore ? -1 : items.length;
  const held = feed.arrivals.held.size;
  return html`
    ${stale}
    <div class="scroller" @keydown=${feed.focus.onListKeydown} @scroll=${feed.arrivals.onScroll}>
      ${held > 0
        ? html`<div class="pill-row">
            <button type="button" class="pill" part="new-items" @click=${feed.arrivals.show}>${formatPlural(messages.newItemsPill, held, feed.locale)}</button>
          </div>`
        : nothing}
      <div class="feed" part="list" role="feed" aria-labelledby=${feed.titleId} aria-busy=${view.isLoading ? 'true' : 'false'}>
        ${repeat(
          items,
          (item) => item.id,
          (item, index) => renderItem(feed, item, index, setSize, now),
        )}
      </div>
      ${view.hasMore
        ? host.renderLoadMore
          ? host.renderLoadMore(loadMore)
          : html`<button type="button" class="load-more" part="load-more" aria-disabled=${view.isLoading ? 'true' : 'false'} @click=${loadMore}>
              ${view.isLoading ? messages.loading : messages.loadMore}
            </button>`
        : nothing}
    </div>
  `;
}
