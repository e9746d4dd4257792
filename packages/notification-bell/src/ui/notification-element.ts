import { html, LitElement, nothing } from 'lit';
import type { PropertyDeclarations, PropertyValues } from 'lit';
import type { NotificationApi } from '../api/notification-api.js';
import { ConnectionController } from '../controllers/connection-controller.js';
import { ThemeController } from '../controllers/theme-controller.js';
import { NotificationBellError } from '../errors.js';
import { FeedLoader } from '../feed/feed-loader.js';
import type { FeedPanel } from '../feed/feed-loader.js';
import type { ItemContext } from '../feed/render-item.js';
import { mergeMessages } from '../messages.js';
import type { MessageCatalog } from '../messages.js';
import { notifications } from '../notifications.js';
import { defaultOptions, parseOption } from '../options.js';
import type { BellOptions, OptionName } from '../options.js';
import type { NotificationStore } from '../store.js';
import type { FeedFilter } from '../store.js';
import type { AppNotification } from '../types.js';
import { jsonOrFalse, optionalNumber, trueByDefault } from './converters.js';

const OPTION_NAMES = Object.keys(defaultOptions) as OptionName[];
const CONNECTION_KEYS: ReadonlySet<string> = new Set(['store', 'api', 'apiBase', 'perPage', 'pollInterval', 'enablePolling', 'broadcasting', 'userId']);

/**
 * What `<notification-bell>` and `<notification-feed>` share: the options
 * (validated, with defaults), the store and its connection, the theme, the
 * message catalog and the feed itself. Subclasses add their own rendering.
 */
export class NotificationElement extends LitElement {
  static override properties: PropertyDeclarations = {
    theme: { reflect: true },
    filter: { reflect: true },
    pollInterval: { attribute: 'poll-interval', converter: optionalNumber },
    enablePolling: { attribute: 'enable-polling', converter: trueByDefault },
    perPage: { attribute: 'per-page', converter: optionalNumber },
    unreadCount: { attribute: 'unread-count', converter: optionalNumber },
    markReadOnClick: { attribute: 'mark-read-on-click', converter: trueByDefault },
    userId: { attribute: 'user-id' },
    userName: { attribute: 'user-name' },
    broadcasting: { converter: jsonOrFalse },
    apiBase: { attribute: 'api-base' },
    locale: {},
    iconStylesheet: { attribute: 'icon-stylesheet' },
    messages: { attribute: false },
    api: { attribute: false },
    store: { attribute: false },
    renderItem: { attribute: false },
    renderEmpty: { attribute: false },
    renderLoading: { attribute: false },
    renderError: { attribute: false },
    renderLoadMore: { attribute: false },
  };

  // `declare` (no class-field initialisers) so Lit's reactive accessors are not shadowed.
  declare theme: BellOptions['theme'];
  /** The list shown: `all` (default) or `unread`; each element has its own. */
  declare filter: FeedFilter;
  declare pollInterval: number;
  declare enablePolling: boolean;
  declare perPage: number;
  declare unreadCount: number | undefined;
  declare markReadOnClick: boolean;
  declare userId: string | undefined;
  declare userName: string | undefined;
  /** An object, a JSON string (attribute) or `false`. */
  declare broadcasting: unknown;
  declare apiBase: string;
  /** BCP 47 locale for plurals and dates; defaults to `<html lang>` / the browser's. */
  declare locale: string | undefined;
  /** A stylesheet URL loaded into the shadow root so `icon_class` and action icon classes (icon fonts) are styled. */
  declare iconStylesheet: string | undefined;
  declare messages: Partial<MessageCatalog> | undefined;
  /** Replaces the HTTP API, e.g. with `createMemoryNotificationApi()`. */
  declare api: NotificationApi | undefined;
  declare store: NotificationStore;
  declare renderItem: ((notification: AppNotification, context: ItemContext) => unknown) | undefined;
  declare renderEmpty: (() => unknown) | undefined;
  declare renderLoading: (() => unknown) | undefined;
  declare renderError: ((retry: () => void) => unknown) | undefined;
  declare renderLoadMore: ((loadMore: () => void) => unknown) | undefined;

  /** Validated options actually in use. */
  #options: BellOptions = { ...defaultOptions };
  #messages: MessageCatalog = mergeMessages(undefined);
  readonly #connection = new ConnectionController(this, (error) => this.reportError(error));
  /** The feed: its up-front part, and its view once `feed.load()` brought the view's chunk. */
  readonly feed = new FeedLoader(this, (loaded) => this.feedLoaded(loaded));

  constructor() {
    super();
    this.pollInterval = defaultOptions.pollInterval;
    this.enablePolling = defaultOptions.enablePolling;
    this.perPage = defaultOptions.perPage;
    this.markReadOnClick = defaultOptions.markReadOnClick;
    this.broadcasting = defaultOptions.broadcasting;
    this.apiBase = defaultOptions.apiBase;
    this.store = notifications;
    this.filter = 'all';
    new ThemeController(this);
  }

  /** The options after validation (invalid values fall back to defaults). */
  get resolvedOptions(): Readonly<BellOptions> {
    return this.#options;
  }

  get feedMessages(): MessageCatalog {
    return this.#messages;
  }

  get feedLocale(): string | undefined {
    return this.locale ?? (document.documentElement.lang || undefined);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    for (const name of OPTION_NAMES) {
      if (!(changed as PropertyValues).has(name)) continue;
      try {
        (this.#options as Record<OptionName, unknown>)[name] = parseOption(name, this[name as keyof this]);
      } catch (error) {
        (this.#options as Record<OptionName, unknown>)[name] = defaultOptions[name];
        this.reportError(error);
      }
    }
    if (changed.has('messages')) this.#messages = mergeMessages(this.messages);
    if (changed.has('unreadCount') && this.#options.unreadCount !== undefined) this.store.setInitialUnreadCount(this.#options.unreadCount);
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    // Renders follow every store change; the connection only cares about its own options.
    if (![...(changed as PropertyValues).keys()].some((key) => CONNECTION_KEYS.has(key as string))) return;
    const options = this.#options;
    this.#connection.configure(this.store, {
      apiBase: options.apiBase,
      ...(this.api ? { api: this.api } : {}),
      perPage: options.perPage,
      pollInterval: options.pollInterval,
      enablePolling: options.enablePolling,
      broadcasting: options.broadcasting,
      userId: options.userId,
    });
  }

  /** Called once, when the feed's view has loaded, before the render that shows it. */
  protected feedLoaded(_loaded: FeedPanel): void {}

  /** Loads the feed's view (once per page); a failure is reported like a configuration error. */
  protected loadFeed(): void {
    this.feed.load().catch((error: unknown) => this.reportError(error));
  }

  protected reportError(error: unknown): void {
    const bellError =
      error instanceof NotificationBellError ? error : new NotificationBellError('BROADCASTER_UNAVAILABLE', error instanceof Error ? error.message : String(error), { cause: error });
    console.error(`[notification-bell] ${bellError.code}: ${bellError.message}`);
    window.dispatchEvent(new CustomEvent('notification:error', { detail: { operation: 'configure', code: bellError.code, message: bellError.message, error: bellError } }));
  }

  protected renderIconStylesheet(): unknown {
    return this.iconStylesheet ? html`<link rel="stylesheet" href=${this.iconStylesheet} />` : nothing;
  }
}
