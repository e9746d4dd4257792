import { html, nothing } from 'lit';
import type { PropertyDeclarations, PropertyValues, TemplateResult } from 'lit';
import { ClockController } from './controllers/clock-controller.js';
import type { FeedPanel } from './feed/feed-loader.js';
import { bellLabel, formatBadge } from './messages.js';
import type { BellOptions } from './options.js';
import { bellPath, svgIcon } from './ui/bell-icon.js';
import { NotificationElement } from './ui/notification-element.js';
import { baseStyles, bellStyles } from './ui/styles.js';

/** Space kept between a dropdown and the viewport's edges. */
const EDGE_PX = 8;

/**
 * `<notification-bell>`: a bell button with an unread badge that opens a
 * dropdown (non-modal dialog) or a side panel (modal dialog) holding the
 * feed of the page's `notifications` store. Whether it is open is this
 * element's own state (`open`, `show()`, `hide()`, `toggle()`).
 * Not registered on import; call `define()`.
 */
export class NotificationBell extends NotificationElement {
  // The feed's own styles come with its view, loaded on first open (feed-loader.ts).
  static override styles = [baseStyles, bellStyles];
  static override shadowRootOptions: ShadowRootInit = { ...NotificationElement.shadowRootOptions, delegatesFocus: true };
  static override properties: PropertyDeclarations = {
    mode: { reflect: true },
    position: { reflect: true },
    open: { type: Boolean, reflect: true },
    renderBellIcon: { attribute: false },
  };

  declare mode: BellOptions['mode'];
  declare position: BellOptions['position'];
  /** Whether the dropdown or panel is showing. */
  declare open: boolean;
  declare renderBellIcon: ((unreadCount: number) => unknown) | undefined;

  readonly #clock = new ClockController(this);
  constructor() {
    super();
    this.mode = 'dropdown';
    this.position = 'right';
    this.open = false;
  }

  get #panel(): HTMLElement | null {
    return this.renderRoot.querySelector<HTMLElement>('.panel');
  }

  /** Opens the list and moves focus to its first item (or its heading). */
  show(): void {
    this.open = true;
  }

  /** Closes the list; focus goes back to the bell unless `returnFocus` is false. */
  hide(returnFocus = true): void {
    if (!this.open) return;
    this.open = false;
    if (returnFocus) this.renderRoot.querySelector<HTMLElement>('.bell')?.focus();
  }

  toggle(): void {
    if (this.open) this.hide();
    else this.show();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('resize', this.#fit);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('resize', this.#fit);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    if (changed.has('open')) this.#clock.run(this.open);
    // The list's code loads on first open (usually already prefetched by #prefetch); the dialog
    // controller that comes with it moves focus in as soon as the list has rendered.
    if (this.open && !this.feed.view) this.loadFeed();
  }

  /** The pointer or focus came to the bell: the user may open it, so fetch the list's code now. */
  readonly #prefetch = () => {
    if (!this.feed.view) this.loadFeed();
  };

  /** Focus and Escape handling of the open dialog come with the feed's view, which they need. */
  protected override feedLoaded({ DialogController }: FeedPanel): void {
    new DialogController(this, {
      panel: () => this.#panel,
      modal: () => this.resolvedOptions.mode === 'panel',
      initialFocus: () => this.feed.view?.initialFocus() ?? null,
    });
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    if (changed.has('open') || changed.has('mode') || this.#fitted !== this.feed.view) this.#fit();
    this.#fitted = this.feed.view;
  }

  /** The view the dropdown was last fitted with: fitted again when the list first renders in it. */
  #fitted: unknown;

  /** Keeps the dropdown inside the viewport (on a 320 px phone a right-aligned 360 px box would not fit). */
  readonly #fit = () => {
    const panel = this.#panel;
    if (!panel || !this.open) return;
    panel.style.translate = '';
    if (this.resolvedOptions.mode === 'panel') return;
    const { left, right } = panel.getBoundingClientRect();
    const shift = left < EDGE_PX ? EDGE_PX - left : right > innerWidth - EDGE_PX ? innerWidth - EDGE_PX - right : 0;
    if (shift) panel.style.translate = `${shift}px`;
  };

  protected override render(): TemplateResult {
    const messages = this.feedMessages;
    const locale = this.feedLocale;
    const count = this.store.unreadCount;
    const open = this.open;
    const panelMode = this.resolvedOptions.mode === 'panel';
    const panelId = `${this.feed.idPrefix}-panel`;
    const view = this.feed.view;
    return html`
      ${this.renderIconStylesheet()}
      <button
        type="button"
        class="bell"
        part="bell"
        aria-haspopup="dialog"
        aria-expanded=${open ? 'true' : 'false'}
        aria-controls=${panelId}
        aria-label=${bellLabel(messages, count, locale)}
        @click=${() => this.toggle()}
        @pointerenter=${this.#prefetch}
        @focus=${this.#prefetch}
      >
        <slot name="bell-icon">${this.renderBellIcon ? this.renderBellIcon(count) : svgIcon(bellPath)}</slot>
        ${count > 0 ? html`<span class="badge" part="badge" aria-hidden="true">${formatBadge(count, locale)}</span>` : nothing}
      </button>
      ${this.feed.announcer.render()}
      ${panelMode ? html`<div class="backdrop" part="backdrop" aria-hidden="true" ?hidden=${!open} @click=${() => this.hide(true)}></div>` : nothing}
      <div
        id=${panelId}
        class="panel"
        part="panel"
        role="dialog"
        aria-labelledby=${this.feed.titleId}
        aria-modal=${panelMode ? 'true' : nothing}
        tabindex="-1"
        ?hidden=${!open}
      >
        ${view ? view.renderHeader(panelMode ? () => this.hide(true) : undefined) : nothing}
        ${open && view ? view.renderBody() : nothing}
      </div>
    `;
  }
}
