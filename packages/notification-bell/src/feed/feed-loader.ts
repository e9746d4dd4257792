import { adoptStyles } from 'lit';
import type { LitElement, ReactiveController } from 'lit';
import { AnnouncerController } from '../controllers/announcer-controller.js';
import { StoreController } from '../controllers/store-controller.js';
import { formatPlural } from '../messages.js';
import type { StoreFailure } from '../store.js';
import type { FeedController, FeedHost } from './feed-controller.js';
import type * as Panel from './panel.js';

/** The feed's lazily loaded chunk. */
export type FeedPanel = typeof Panel;

let panel: Promise<FeedPanel> | undefined;
let feeds = 0;

/**
 * What an element keeps of its feed before the feed's code is loaded: ids,
 * the status region (arrivals and the stale notice are announced even while
 * the bell is closed), store subscriptions for the badge, and the last
 * failure, handed to the view when it comes. The view itself (list, tabs,
 * items, keyboard and focus behaviour, its styles) is the `panel.js` chunk,
 * loaded by `load()`: at once by `<notification-feed>`, by the bell on
 * first open or when the pointer or focus comes to it.
 */
export class FeedLoader implements ReactiveController {
  readonly idPrefix = `nf${++feeds}`;
  readonly titleId = `${this.idPrefix}-title`;
  readonly announcer: AnnouncerController;
  /** The feed's view, once its chunk has loaded. */
  view: FeedController | undefined;
  #failure: StoreFailure | undefined;
  #wasStale = false;

  constructor(
    private readonly host: FeedHost & LitElement,
    private readonly onLoad: (loaded: FeedPanel) => void,
  ) {
    host.addController(this);
    const update = () => host.requestUpdate();
    new StoreController(host, (store) => [
      store.subscribe('state', update),
      store.subscribe('unreadCount', update),
      store.subscribe('failure', (failure) => {
        if (this.view) this.view.failed(failure);
        else this.#failure = failure;
      }),
    ]);
    this.announcer = new AnnouncerController(host, (count) => formatPlural(host.feedMessages.newArrivals, count, host.feedLocale));
  }

  hostUpdate(): void {
    // A refresh that failed after the list loaded: say so once, politely (the notice stays visible while shown).
    const store = this.host.store;
    const stale = store.syncError !== null && !store.signedOut;
    if (stale && !this.#wasStale) this.announcer.announce(this.host.feedMessages.stale);
    this.#wasStale = stale;
  }

  /** Loads the view (once per page), then shows it in this element. */
  async load(): Promise<void> {
    // A failed load (offline) is tried again next time.
    const loaded = await (panel ??= import('./panel.js').catch((error: unknown) => {
      panel = undefined;
      throw error;
    }));
    if (this.view) return;
    const host = this.host;
    adoptStyles(host.renderRoot as ShadowRoot, [...(host.constructor as typeof LitElement).elementStyles, loaded.feedStyles]);
    this.view = new loaded.FeedController(host, this);
    if (this.#failure) this.view.failed(this.#failure);
    this.#failure = undefined;
    this.onLoad(loaded);
    host.requestUpdate();
  }
}
