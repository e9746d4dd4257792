import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { ClockController } from '../controllers/clock-controller.js';
import { NotificationElement } from '../ui/notification-element.js';
import { baseStyles, inlineFeedStyles } from '../ui/styles.js';

/**
 * `<notification-feed>`: the bell's list as an inline element, for a
 * full-page inbox. It shows the same store as the bell (the page's
 * `notifications` by default), so the two stay in sync, and shares the
 * bell's connection when both are on the page. Registered by `define()`.
 */
export class NotificationFeed extends NotificationElement {
  // The feed's own styles come with its view (feed-loader.ts).
  static override styles = [baseStyles, inlineFeedStyles];

  readonly #clock = new ClockController(this);

  override connectedCallback(): void {
    super.connectedCallback();
    this.#clock.run(true);
    // An inline feed shows its list at once: its view's chunk loads now.
    this.loadFeed();
  }

  protected override render(): TemplateResult {
    const view = this.feed.view;
    return html`${this.renderIconStylesheet()}${this.feed.announcer.render()}${view ? html`${view.renderHeader()}${view.renderBody()}` : nothing}`;
  }
}
