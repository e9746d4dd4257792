import { formatPlural } from '../messages.js';
import type { FeedContext } from './feed-context.js';

/**
 * Loading the list: once on first show, the next page on "load more" (then
 * focus to the first item it brought), and automatically while the list shows
 * nothing but more exist. Decided before render (`plan`), started after it
 * (`afterUpdate`), so render itself never calls the store.
 */
export class FeedPagination {
  /** Automatic loads of the next page while the list shows nothing; reset once it shows rows. */
  #emptyLoads = 0;
  /** This update's render shows the loading state for an automatic load, which `afterUpdate` starts. */
  autoLoad = false;
  #startAutoLoad = false;

  constructor(
    private readonly feed: FeedContext,
    private readonly focusItem: (id: string | undefined) => void,
  ) {}

  /** Before render, for the list it will show (`shownCount` rows): whether to fetch the next page for an emptied list. */
  plan(shownCount: number): void {
    const view = this.feed.view;
    // The user emptied what was shown (read in Unread, archived, deleted) and more exist: fetch them
    // rather than say there is nothing. Each answer shows rows or ends `hasMore`; a failing server
    // gets two tries, then the button (below the empty state) is the user's to press.
    this.autoLoad = shownCount === 0 && !view.error && view.hasMore && !view.isLoading && this.#emptyLoads < 2;
    this.#startAutoLoad = this.autoLoad;
    if (this.autoLoad) this.#emptyLoads += 1;
    if (shownCount > 0) this.#emptyLoads = 0;
  }

  /** After an update that showed the list: its first load, or the automatic load `plan` chose. */
  afterUpdate(shown: boolean): void {
    const { store, view, filter } = this.feed;
    // The list on show loads once; a failed first load waits for Retry instead of looping.
    if (shown && !view.hasLoaded && !view.isLoading && !view.error) void store.refresh(filter);
    if (this.#startAutoLoad) queueMicrotask(() => void store.loadMore(filter));
    this.#startAutoLoad = false;
  }

  readonly retry = () => void this.feed.store.refresh(this.feed.filter);

  /** "Load more": the next page, announced; focus moves from the button (which may now be gone) to the first item it loaded. */
  readonly loadMore = async (): Promise<void> => {
    const feed = this.feed;
    if (feed.view.isLoading) return;
    const first = feed.rendered.length;
    const hadFocus = feed.root.activeElement?.matches('.load-more') === true;
    const added = await feed.store.loadMore(feed.filter);
    if (added <= 0) return;
    feed.announcer.announce(formatPlural(feed.messages.loadedMore, added, feed.locale));
    // As feeds do.
    await feed.host.updateComplete;
    if (hadFocus) this.focusItem(feed.rendered[first]);
  };
}
