import { html } from 'lit';
import type { TemplateResult } from 'lit';
import { ClockController } from '../controllers/clock-controller.js';
import { NotificationElement } from '../ui/notification-element.js';
import { baseStyles, feedStyles, inlineFeedStyles } from '../ui/styles.js';

/**
 * `<notification-feed>`: the bell's list as an inline element, for a
 * full-page inbox. It shows the same store as the bell (the page's
 * `notifications` by default), so the two stay in sync, and shares the
 * bell's connection when both are on the page. Registered by `define()`.
 */
export class NotificationFeed extends NotificationElement {
  static override styles = [baseStyles, feedStyles, inlineFeedStyles];

  readonly #clock = new ClockController(this);

  override connectedCallback(): void {
    super.connectedCallback();
    this.#clock.run(true);
  }

  protected override render(): TemplateResult {
    return html`${this.renderIconStylesheet()}${this.feed.announcer.render()}${this.feed.renderHeader()}${this.feed.renderBody()}`;
  }
}
