import { html, LitElement, nothing } from 'lit';
import type { PropertyValues, TemplateResult } from 'lit';
import type { NotificationApi } from './api/notification-api.js';
import { BellConnection } from './connection.js';
import { NotificationBellError } from './errors.js';
import { bellLabel, formatBadge, formatPlural, mergeMessages } from './messages.js';
import type { MessageCatalog } from './messages.js';
import { notifications } from './notifications.js';
import { defaultOptions, parseOption } from './options.js';
import type { BellOptions, OptionName } from './options.js';
import { formatAbsoluteTime, formatRelativeTime } from './relative-time.js';
import type { NotificationStore } from './store.js';
import type { AppNotification, NotificationAction } from './types.js';
import { jsonOrFalse, optionalNumber, trueByDefault } from './ui/converters.js';
import { deepActiveElement, focusableIn } from './ui/focus.js';
import { icon, isBuiltInIcon } from './ui/icons.js';
import { bellStyles } from './ui/styles.js';
import { resolveAutoTheme, watchAutoTheme } from './ui/theme.js';

/** What template overrides receive for one item. */
export interface ItemContext {
  markAsRead(): Promise<boolean>;
  remove(): Promise<boolean>;
  relativeTime: string;
  messages: MessageCatalog;
}

const OPTION_NAMES = Object.keys(defaultOptions) as OptionName[];
const CONNECTION_OPTIONS: ReadonlySet<string> = new Set(['apiBase', 'perPage', 'pollInterval', 'enablePolling', 'broadcasting', 'userId', 'api', 'store']);
const ANNOUNCE_DEBOUNCE_MS = 1000;
const TICK_MS = 30_000;
const NAVIGATION_WAIT_MS = 1000;
let instances = 0;

/**
 * `<notification-bell>`: a bell button with an unread badge that opens a
 * dropdown (non-modal dialog) or a side panel (modal dialog) listing the
 * page's `notifications` store. Not registered on import; call `define()`.
 */
export class NotificationBell extends LitElement {
  static override styles = bellStyles;
  static override shadowRootOptions: ShadowRootInit = { ...LitElement.shadowRootOptions, delegatesFocus: true };
  static override properties = {
    mode: { reflect: true },
    position: { reflect: true },
    theme: { reflect: true },
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
    renderBellIcon: { attribute: false },
    renderItem: { attribute: false },
    renderEmpty: { attribute: false },
    renderLoading: { attribute: false },
    renderError: { attribute: false },
    renderLoadMore: { attribute: false },
    announcement: { state: true },
  };

  // `declare` (no class-field initialisers) so Lit's reactive accessors are not shadowed.
  declare mode: BellOptions['mode'];
  declare position: BellOptions['position'];
  declare theme: BellOptions['theme'];
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
  /** A stylesheet URL loaded into the shadow root so `icon_class` icons (icon fonts) are styled. */
  declare iconStylesheet: string | undefined;
  declare messages: Partial<MessageCatalog> | undefined;
  /** Replaces the HTTP API, e.g. with `createMemoryNotificationApi()`. */
  declare api: NotificationApi | undefined;
  declare store: NotificationStore;
  declare renderBellIcon: ((unreadCount: number) => unknown) | undefined;
  declare renderItem: ((notification: AppNotification, context: ItemContext) => unknown) | undefined;
  declare renderEmpty: (() => unknown) | undefined;
  declare renderLoading: (() => unknown) | undefined;
  declare renderError: ((retry: () => void) => unknown) | undefined;
  declare renderLoadMore: ((loadMore: () => void) => unknown) | undefined;
  declare announcement: string;

  /** Validated options actually in use. */
  #options: BellOptions = { ...defaultOptions };
  #connection: BellConnection | undefined;
  #storeUnsubscribers: Array<() => void> = [];
  #stopThemeWatch: (() => void) | undefined;
  #pendingArrivals = 0;
  #announceTimer: ReturnType<typeof setTimeout> | undefined;
  #ticker: ReturnType<typeof setInterval> | undefined;
  #wasOpen = false;
  readonly #ids = `nb${++instances}`;

  constructor() {
    super();
    this.mode = defaultOptions.mode;
    this.position = defaultOptions.position;
    this.pollInterval = defaultOptions.pollInterval;
    this.enablePolling = defaultOptions.enablePolling;
    this.perPage = defaultOptions.perPage;
    this.markReadOnClick = defaultOptions.markReadOnClick;
    this.broadcasting = defaultOptions.broadcasting;
    this.apiBase = defaultOptions.apiBase;
    this.store = notifications;
    this.announcement = '';
    this.addEventListener('keydown', this.#onKeydown);
    this.addEventListener('focusout', this.#onFocusOut);
  }

  get #messages(): MessageCatalog {
    return mergeMessages(this.messages);
  }

  get #locale(): string | undefined {
    return this.locale ?? (document.documentElement.lang || undefined);
  }

  get #panel(): HTMLElement | null {
    return this.renderRoot.querySelector<HTMLElement>('.panel');
  }

  get #bellButton(): HTMLButtonElement | null {
    return this.renderRoot.querySelector<HTMLButtonElement>('.bell');
  }

  /** The options after validation (invalid values fall back to defaults). */
  get resolvedOptions(): Readonly<BellOptions> {
    return this.#options;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#subscribeStore();
    this.#applyTheme();
    document.addEventListener('pointerdown', this.#onDocumentPointerDown, true);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    for (const unsubscribe of this.#storeUnsubscribers) unsubscribe();
    this.#storeUnsubscribers = [];
    this.#connection?.close();
    this.#connection = undefined;
    this.#stopThemeWatch?.();
    this.#stopThemeWatch = undefined;
    clearTimeout(this.#announceTimer);
    this.#stopTicker();
    this.#lockScroll(false);
    document.removeEventListener('pointerdown', this.#onDocumentPointerDown, true);
  }

  #subscribeStore(): void {
    for (const unsubscribe of this.#storeUnsubscribers) unsubscribe();
    const rerender = () => this.requestUpdate();
    this.#storeUnsubscribers = [
      this.store.subscribe('items', rerender),
      this.store.subscribe('unreadCount', rerender),
      this.store.subscribe('state', rerender),
      this.store.subscribe('arrivals', (count) => this.#queueAnnouncement(count)),
    ];
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    for (const name of OPTION_NAMES) {
      if (!changed.has(name as keyof NotificationBell)) continue;
      try {
        (this.#options as Record<OptionName, unknown>)[name] = parseOption(name, this[name as keyof this]);
      } catch (error) {
        (this.#options as Record<OptionName, unknown>)[name] = defaultOptions[name];
        this.#reportError(error);
      }
    }
    if (changed.has('store') && this.isConnected) this.#subscribeStore();
    if (changed.has('unreadCount') && this.#options.unreadCount !== undefined) this.store.setInitialUnreadCount(this.#options.unreadCount);
    if (changed.has('theme')) this.#applyTheme();
  }

  protected override updated(changed: PropertyValues<this>): void {
    if ([...changed.keys()].some((key) => CONNECTION_OPTIONS.has(String(key))) || !this.#connection) this.#reconnect();
    const open = this.store.isOpen;
    if (open !== this.#wasOpen) {
      this.#wasOpen = open;
      this.#onOpenChanged(open);
    }
  }

  #reconnect(): void {
    this.#connection?.close();
    const options = this.#options;
    this.#connection = new BellConnection({
      store: this.store,
      apiBase: options.apiBase,
      ...(this.api ? { api: this.api } : {}),
      perPage: options.perPage,
      pollInterval: options.pollInterval,
      enablePolling: options.enablePolling,
      broadcasting: options.broadcasting,
      userId: options.userId,
      onError: (error) => this.#reportError(error),
    });
    this.#connection.open();
  }

  #reportError(error: unknown): void {
    const bellError =
      error instanceof NotificationBellError ? error : new NotificationBellError('BROADCASTER_UNAVAILABLE', error instanceof Error ? error.message : String(error), { cause: error });
    console.error(`[notification-bell] ${bellError.code}: ${bellError.message}`);
    window.dispatchEvent(new CustomEvent('notification:error', { detail: { operation: 'configure', code: bellError.code, message: bellError.message, error: bellError } }));
  }

  #applyTheme(): void {
    if (this.theme === 'light' || this.theme === 'dark') {
      this.#stopThemeWatch?.();
      this.#stopThemeWatch = undefined;
      this.dataset.resolvedTheme = this.theme;
      return;
    }
    if (!this.isConnected) return;
    const update = () => {
      this.dataset.resolvedTheme = resolveAutoTheme(this);
    };
    this.#stopThemeWatch ??= watchAutoTheme(update);
    update();
  }

  // ---- announcements ----------------------------------------------------

  /** Batches arrivals into one polite message ("3 new notifications"), never the whole list. */
  #queueAnnouncement(count: number): void {
    this.#pendingArrivals += count;
    clearTimeout(this.#announceTimer);
    this.#announceTimer = setTimeout(() => {
      this.#announce(formatPlural(this.#messages.newArrivals, this.#pendingArrivals, this.#locale));
      this.#pendingArrivals = 0;
    }, ANNOUNCE_DEBOUNCE_MS);
  }

  #announce(text: string): void {
    // Clear first so the same sentence twice is still announced twice.
    this.announcement = '';
    requestAnimationFrame(() => {
      this.announcement = text;
    });
  }

  // ---- open / close -------------------------------------------------------

  /** Opens the list and moves focus into it. */
  show(): void {
    this.store.open();
  }

  /** Closes the list; focus goes back to the bell unless `returnFocus` is false. */
  hide(returnFocus = true): void {
    if (!this.store.isOpen) return;
    this.store.close();
    if (returnFocus) this.#bellButton?.focus();
  }

  #onOpenChanged(open: boolean): void {
    if (open) {
      if (!this.store.hasLoaded && !this.store.isLoading) void this.store.refresh();
      this.#startTicker();
      this.#lockScroll(this.#options.mode === 'panel');
      const panel = this.#panel;
      if (panel) (focusableIn(panel)[0] ?? panel).focus();
    } else {
      this.#stopTicker();
      this.#lockScroll(false);
    }
  }

  #lockScroll(lock: boolean): void {
    document.documentElement.style.overflow = lock ? 'hidden' : '';
  }

  #startTicker(): void {
    this.#stopTicker();
    this.#ticker = setInterval(() => this.requestUpdate(), TICK_MS);
  }

  #stopTicker(): void {
    clearInterval(this.#ticker);
    this.#ticker = undefined;
  }

  readonly #onDocumentPointerDown = (event: PointerEvent) => {
    if (this.store.isOpen && this.#options.mode === 'dropdown' && !event.composedPath().includes(this)) this.hide(false);
  };

  readonly #onFocusOut = (event: FocusEvent) => {
    // Dropdown is non-modal: tabbing out of it closes it. (Panel mode traps focus instead.)
    const next = event.relatedTarget;
    if (this.#options.mode === 'dropdown' && this.store.isOpen && next instanceof Node && next !== this && !this.contains(next)) this.hide(false);
  };

  readonly #onKeydown = (event: KeyboardEvent) => {
    if (!this.store.isOpen) return;
    if (event.key === 'Escape') {
      event.stopPropagation();
      event.preventDefault();
      this.hide(true);
      return;
    }
    const panel = this.#panel;
    if (!panel) return;
    if (event.key === 'Tab' && this.#options.mode === 'panel') {
      this.#trapTab(event, panel);
      return;
    }
    if (['ArrowDown', 'ArrowUp', 'Home', 'End', 'PageDown', 'PageUp'].includes(event.key)) this.#moveBetweenItems(event);
  };

  #trapTab(event: KeyboardEvent, panel: HTMLElement): void {
    const focusable = focusableIn(panel);
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    const active = deepActiveElement(this.renderRoot as ShadowRoot) ?? document.activeElement;
    if (event.shiftKey && (active === first || !panel.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !panel.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  }

  /** ↑/↓ (and PageUp/PageDown, Home/End) move between items' main links, as in the APG feed pattern. */
  #moveBetweenItems(event: KeyboardEvent): void {
    const targets = [...this.renderRoot.querySelectorAll<HTMLElement>('.item .main')];
    if (targets.length === 0) return;
    const active = deepActiveElement(this.renderRoot as ShadowRoot);
    const current = targets.findIndex((target) => target === active || target.closest('.item')?.contains(active));
    let next: number;
    if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = targets.length - 1;
    else if (event.key === 'ArrowDown' || event.key === 'PageDown') next = current < 0 ? 0 : Math.min(targets.length - 1, current + 1);
    else next = current < 0 ? 0 : Math.max(0, current - 1);
    event.preventDefault();
    targets[next]?.focus();
  }

  // ---- item behaviour -----------------------------------------------------

  async #onItemClick(event: MouseEvent, notification: AppNotification): Promise<void> {
    if (!this.#options.markReadOnClick || notification.read_at !== null) return;
    const link = event.currentTarget;
    const ownNavigation = link instanceof HTMLAnchorElement && event.button === 0 && !event.ctrlKey && !event.metaKey && !event.shiftKey && !event.altKey;
    if (!ownNavigation) {
      // New tab / no URL: the browser handles the link; we only mark it read.
      void this.store.markAsRead(notification.id);
      return;
    }
    // Mark read first, then follow the link; give up waiting after a second so a slow API never blocks navigation.
    event.preventDefault();
    await Promise.race([this.store.markAsRead(notification.id), new Promise((resolve) => setTimeout(resolve, NAVIGATION_WAIT_MS))]);
    window.location.assign(link.href);
  }

  #onAction(action: NotificationAction, notification: AppNotification): void {
    if (action.isDisabled) return;
    if (action.event) {
      window.dispatchEvent(new CustomEvent(action.event, { detail: { ...action.data, notificationId: notification.id, action: action.name } }));
    }
    if (action.url) {
      if (action.openInNewTab) window.open(action.url, '_blank', 'noopener');
      else window.location.assign(action.url);
    }
    if (action.shouldClose) this.hide(true);
  }

  async #loadMore(): Promise<void> {
    const added = await this.store.loadMore();
    if (added > 0) this.#announce(formatPlural(this.#messages.loadedMore, added, this.#locale));
  }

  // ---- rendering ----------------------------------------------------------

  protected override render(): TemplateResult {
    const messages = this.#messages;
    const store = this.store;
    const count = store.unreadCount;
    const open = store.isOpen;
    const panelMode = this.#options.mode === 'panel';
    const panelId = `${this.#ids}-panel`;
    const titleId = `${this.#ids}-title`;
    return html`
      ${this.iconStylesheet ? html`<link rel="stylesheet" href=${this.iconStylesheet} />` : nothing}
      <button
        type="button"
        class="bell"
        part="bell"
        aria-haspopup="dialog"
        aria-expanded=${open ? 'true' : 'false'}
        aria-controls=${panelId}
        aria-label=${bellLabel(messages, count, this.#locale)}
        @click=${() => (open ? this.hide(true) : this.show())}
      >
        <slot name="bell-icon">${this.renderBellIcon ? this.renderBellIcon(count) : icon('bell')}</slot>
        ${count > 0 ? html`<span class="badge" part="badge" aria-hidden="true">${formatBadge(count, this.#locale)}</span>` : nothing}
      </button>
      <div class="sr-only" part="status" role="status" aria-live="polite" aria-atomic="true">${this.announcement}</div>
      ${panelMode ? html`<div class="backdrop" part="backdrop" aria-hidden="true" ?hidden=${!open} @click=${() => this.hide(true)}></div>` : nothing}
      <div
        id=${panelId}
        class="panel"
        part="panel"
        role="dialog"
        aria-labelledby=${titleId}
        aria-modal=${panelMode ? 'true' : nothing}
        tabindex="-1"
        ?hidden=${!open}
      >
        <div class="header" part="header">
          <h2 id=${titleId} part="title">${messages.title}</h2>
          ${count > 0
            ? html`<button type="button" class="text-button" part="mark-all-read" @click=${() => void store.markAllAsRead()}>${messages.markAllRead}</button>`
            : nothing}
          ${panelMode
            ? html`<button type="button" class="icon-button" part="close" aria-label=${messages.close} @click=${() => this.hide(true)}>${icon('close')}</button>`
            : nothing}
        </div>
        ${open ? this.#renderBody(messages, titleId) : nothing}
      </div>
    `;
  }

  #renderBody(messages: MessageCatalog, titleId: string): TemplateResult {
    const store = this.store;
    const items = store.items;
    if (items.length === 0) {
      if (store.error && !store.isLoading) {
        const retry = () => void store.refresh();
        return html`<div class="state" part="error" role="alert">
          <slot name="error">${this.renderError
            ? this.renderError(retry)
            : html`<p>${messages.error}</p><button type="button" class="text-button" part="retry" @click=${retry}>${messages.retry}</button>`}</slot>
        </div>`;
      }
      if (store.isLoading || !store.hasLoaded) {
        return html`<div class="state" part="loading"><slot name="loading">${this.renderLoading ? this.renderLoading() : messages.loading}</slot></div>`;
      }
      return html`<div class="state" part="empty"><slot name="empty">${this.renderEmpty ? this.renderEmpty() : messages.empty}</slot></div>`;
    }
    const now = Date.now();
    const setSize = store.hasMore ? -1 : items.length;
    const loadMore = () => void this.#loadMore();
    return html`
      <div class="feed" part="list" role="feed" aria-labelledby=${titleId} aria-busy=${store.isLoading ? 'true' : 'false'}>
        ${items.map((notification, index) => this.#renderItem(notification, index, setSize, now, messages))}
      </div>
      ${store.hasMore
        ? this.renderLoadMore
          ? this.renderLoadMore(loadMore)
          : html`<button type="button" class="load-more" part="load-more" ?disabled=${store.isLoading} @click=${loadMore}>
              ${store.isLoading ? messages.loading : messages.loadMore}
            </button>`
        : nothing}
    `;
  }

  #renderItem(notification: AppNotification, index: number, setSize: number, now: number, messages: MessageCatalog): TemplateResult {
    const relativeTime = formatRelativeTime(notification.created_at, now, this.#locale);
    const unread = notification.read_at === null;
    const titleId = `${this.#ids}-item-${index}`;
    const context: ItemContext = {
      markAsRead: () => this.store.markAsRead(notification.id),
      remove: () => this.store.deleteNotification(notification.id),
      relativeTime,
      messages,
    };
    const content = this.renderItem
      ? this.renderItem(notification, context)
      : html`
          ${isBuiltInIcon(notification.icon)
            ? icon(notification.icon)
            : notification.icon_class
              ? html`<i class="custom-icon ${notification.icon_class}" part="custom-icon" aria-hidden="true"></i>`
              : icon('bell')}
          <span class="body">
            <span class="title" id=${titleId}>${unread ? html`<span class="sr-only">${messages.unread} </span>` : nothing}${notification.title}</span>
            ${notification.message ? html`<span class="message">${notification.message}</span>` : nothing}
            <time datetime=${notification.created_at} title=${formatAbsoluteTime(notification.created_at, this.#locale)}>${relativeTime}</time>
          </span>
        `;
    const onClick = (event: MouseEvent) => void this.#onItemClick(event, notification);
    return html`
      <article
        class="item ${unread ? 'unread' : 'read'}"
        part="item ${unread ? 'item-unread' : 'item-read'}"
        aria-posinset=${index + 1}
        aria-setsize=${setSize}
        aria-labelledby=${titleId}
        data-id=${notification.id}
      >
        ${notification.action_url
          ? html`<a class="main" part="item-link" href=${notification.action_url} @click=${onClick}>${content}</a>`
          : html`<button type="button" class="main" part="item-link" @click=${onClick}>${content}</button>`}
        <div class="actions" part="item-actions">
          ${notification.actions.map(
            (action) => html`<button
              type="button"
              class="action ${action.type ?? ''}"
              part="action"
              ?disabled=${action.isDisabled === true}
              @click=${() => this.#onAction(action, notification)}
            >
              ${isBuiltInIcon(action.icon) ? icon(action.icon) : nothing}${action.label}
            </button>`,
          )}
          ${unread
            ? html`<button type="button" class="icon-button" part="mark-read" aria-label=${messages.markRead} title=${messages.markRead} @click=${() => void this.store.markAsRead(notification.id)}>
                ${icon('check')}
              </button>`
            : nothing}
          <button type="button" class="icon-button" part="delete" aria-label=${messages.delete} title=${messages.delete} @click=${() => void this.store.deleteNotification(notification.id)}>
            ${icon('trash')}
          </button>
        </div>
      </article>
    `;
  }
}
