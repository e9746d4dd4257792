import type { ReactiveElement } from 'lit';
import type { AnnouncerController } from '../controllers/announcer-controller.js';
import type { MessageCatalog } from '../messages.js';
import type { FeedFilter, FeedView, NotificationStore } from '../store.js';
import type { AppNotification } from '../types.js';
import type { ItemContext } from './render-item.js';

/** The element a feed renders into: `<notification-feed>`, or the bell's dialog. */
export interface FeedHost extends ReactiveElement {
  store: NotificationStore;
  /** Which list this element shows; its own view state, not the store's. */
  filter: FeedFilter;
  /** The bell's: its list is rendered only while open. An inline feed has none and always shows its list. */
  readonly open?: boolean;
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

/** What the view gets from the element's part that is loaded up front (feed-loader.ts). */
export interface FeedBase {
  readonly idPrefix: string;
  readonly titleId: string;
  readonly announcer: AnnouncerController;
}

/** What each of the feed's parts (focus, arrivals, loading, actions, rendering) reads of the feed they belong to. */
export interface FeedContext extends FeedBase {
  readonly host: FeedHost;
  readonly store: NotificationStore;
  readonly filter: FeedFilter;
  /** The store's view of the list this feed shows. */
  readonly view: FeedView;
  readonly root: ShadowRoot;
  /** The list's scroll box, while the list shows rows. */
  readonly scroller: HTMLElement | null;
  readonly messages: MessageCatalog;
  readonly locale: string | undefined;
  /** Item ids in the order of the current render (computed before it, in `hostUpdate`). */
  readonly rendered: readonly string[];
}
