import type { AppNotification } from '../types.js';
import type { FeedContext } from './feed-context.js';

const createdAt = (item: AppNotification) => Date.parse(item.created_at);

/**
 * The "N new notifications" pill: items that arrive while the list is
 * scrolled are held back behind it, so nothing shifts under the reader; at
 * the top (or on the pill, or Home) they show.
 */
export class HeldArrivals {
  /** Items that arrived while the list was scrolled. */
  readonly held = new Set<string>();
  /** `created_at` of the newest item shown so far; anything newer is an arrival. */
  #newest = -Infinity;

  constructor(
    private readonly feed: FeedContext,
    /** Moves focus to an item's main link once the held items show. */
    private readonly focusFirst: () => void,
  ) {}

  /** Scrolled away from the top: of the list's own scroll box, or of the page past an inline feed's top. */
  #isScrolled(): boolean {
    const scroller = this.feed.scroller;
    return scroller !== null && (scroller.scrollTop > 0 || scroller.getBoundingClientRect().top < 0);
  }

  /**
   * The items the next render shows: all of them at the top; while scrolled, arrivals wait behind
   * the pill. Called once per update, before render (it remembers what it let through).
   */
  visible(items: readonly AppNotification[]): readonly AppNotification[] {
    // Layout is read only when there is something new or something held, not on every update.
    const fresh = items.filter((item) => createdAt(item) > this.#newest);
    if ((fresh.length > 0 || this.held.size > 0) && !this.#isScrolled()) this.held.clear();
    else for (const item of fresh) this.held.add(item.id);
    const visible = this.held.size > 0 ? items.filter((item) => !this.held.has(item.id)) : items;
    for (const item of visible) this.#newest = Math.max(this.#newest, createdAt(item));
    return visible;
  }

  /** Back at the top: the held items can show without moving anything the user is reading. */
  readonly onScroll = () => {
    if (this.held.size > 0 && !this.#isScrolled()) this.feed.host.requestUpdate();
  };

  /** The pill (or Home): back to the top, the held items shown, focus on the newest. */
  readonly show = async () => {
    this.held.clear();
    const scroller = this.feed.scroller;
    if (scroller) {
      scroller.scrollTop = 0;
      if (scroller.getBoundingClientRect().top < 0) scroller.scrollIntoView();
    }
    this.feed.host.requestUpdate();
    await this.feed.host.updateComplete;
    this.focusFirst();
  };
}
