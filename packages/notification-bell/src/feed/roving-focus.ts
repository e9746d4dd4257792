import type { FeedFilter } from '../store.js';
import type { FeedContext } from './feed-context.js';

const FILTERS: readonly FeedFilter[] = ['all', 'unread'];

/**
 * Keyboard movement and where focus goes: ↑/↓ between items' main links (the
 * APG feed pattern), ←/→ between the tabs, focus on open, and a new home for
 * focus when a render removed the focused control (see "Focus" in the README).
 */
export class RovingFocus {
  /** The focused element inside this feed and the item it belongs to. */
  #focused: { element: Element; itemId: string | undefined } | undefined;

  constructor(
    private readonly feed: FeedContext,
    private readonly actions: {
      /** Home with arrivals held behind the pill: show them instead. */
      readonly heldCount: () => number;
      readonly showHeld: () => void;
      readonly selectFilter: (filter: FeedFilter) => void;
    },
  ) {}

  readonly onFocusIn = (event: Event) => {
    const element = event.composedPath()[0];
    if (!(element instanceof Element)) return;
    const item = element.closest<HTMLElement>('.item');
    this.#focused = { element, itemId: item?.dataset.id };
    // The link's ring goes round the whole item: show all of it, not only the link's own box (the browser's default).
    if (item && element.classList.contains('main')) item.scrollIntoView({ block: 'nearest' });
  };

  /**
   * After an update: the focused control was removed by it (an item deleted, archived or
   * left the list; "mark as read" or "mark all as read" vanished): focus goes
   * to the same item's main link if it is still listed, else the next item,
   * else the previous one, else the heading. Never to <body>. `before` is the ids listed before the update.
   */
  restoreLost(before: readonly string[]): void {
    const focused = this.#focused;
    const root = this.feed.root;
    if (!focused || focused.element.isConnected || root.activeElement) return;
    const active = document.activeElement;
    if (active && active !== document.body && active !== this.feed.host) return; // the user moved on elsewhere
    this.#focused = undefined;
    const at = focused.itemId === undefined ? -1 : before.indexOf(focused.itemId);
    const candidates = at < 0 ? before : [before[at] as string, ...before.slice(at + 1), ...before.slice(0, at).reverse()];
    for (const id of candidates) if (this.focusItem(id)) return;
    root.getElementById(this.feed.titleId)?.focus();
  }

  #mainLink(id: string | undefined): HTMLElement | null {
    return id === undefined ? null : this.feed.root.querySelector<HTMLElement>(`.item[data-id="${CSS.escape(id)}"] .main`);
  }

  focusItem(id: string | undefined): boolean {
    const link = this.#mainLink(id);
    link?.focus();
    return link !== null;
  }

  /** Where focus goes when the feed opens: the first item's main link, else the heading. */
  initialFocus(): HTMLElement | null {
    return this.#mainLink(this.feed.rendered[0]) ?? this.feed.root.getElementById(this.feed.titleId);
  }

  /** ↑/↓ (and PageUp/PageDown, Home/End) move between items' main links, as in the APG feed pattern. */
  readonly onListKeydown = (event: KeyboardEvent) => {
    const ids = this.feed.rendered;
    const at = ids.indexOf(this.#focused?.itemId as string);
    const step = ({ ArrowDown: 1, PageDown: 1, ArrowUp: -1, PageUp: -1 } as Record<string, number>)[event.key];
    const next = event.key === 'Home' ? 0 : event.key === 'End' ? ids.length - 1 : step && Math.min(ids.length - 1, Math.max(0, at + step));
    if (next === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    // Home is "back to the newest": it also shows what the pill holds.
    if (next === 0 && this.actions.heldCount() > 0) this.actions.showHeld();
    else this.focusItem(ids[next]);
  };

  /** ←/→ move between the tabs (wrapping) and select as they go; Home/End jump to the ends. */
  readonly onTabKeydown = async (event: KeyboardEvent) => {
    // Two tabs: ←/→ (wrapping) go to the other one; Home/End to the first/last.
    const next = ({ ArrowRight: 1, ArrowLeft: 1, Home: 0, End: 1 } as Record<string, number>)[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const filter = this.feed.filter;
    this.actions.selectFilter(event.key.startsWith('Arrow') ? (filter === 'all' ? 'unread' : 'all') : (FILTERS[next] as FeedFilter));
    await this.feed.host.updateComplete;
    this.feed.root.getElementById(`${this.feed.idPrefix}-tab-${this.feed.filter}`)?.focus();
  };
}
