import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { MessageCatalog } from '../messages.js';
import { formatAbsoluteTime, formatRelativeTime } from '../relative-time.js';
import { safeUrlOrNull } from '../safe-url.js';
import type { AppNotification, NotificationAction } from '../types.js';
import { icon, isBuiltInIcon } from '../ui/icons.js';
import type { BuiltInIcon } from '../ui/icons.js';

/** What template overrides receive for one item. */
export interface ItemContext {
  markAsRead(): Promise<boolean>;
  remove(): Promise<boolean>;
  relativeTime: string;
  messages: MessageCatalog;
}

/** What an item needs from its feed. */
export interface ItemHost {
  readonly messages: MessageCatalog;
  readonly locale: string | undefined;
  readonly idPrefix: string;
  readonly renderItem: ((notification: AppNotification, context: ItemContext) => unknown) | undefined;
  /** What the item's link, actions and controls do (item-actions.ts). */
  readonly actions: {
    open(event: MouseEvent, notification: AppNotification): void;
    runAction(action: NotificationAction, notification: AppNotification): void;
    markAsRead(id: string): Promise<boolean>;
    markAsUnread(id: string): Promise<boolean>;
    archive(id: string): Promise<boolean>;
    remove(id: string): Promise<boolean>;
  };
}

/** A built-in icon name draws its SVG; anything else is an icon-font class list (see `icon-stylesheet`). */
function actionIcon(name: string | undefined): unknown {
  if (!name) return nothing;
  return isBuiltInIcon(name) ? icon(name) : html`<i class=${name} aria-hidden="true"></i>`;
}

/** An icon-only button named by its label (also its tooltip). */
export function control(part: string, label: string, glyph: BuiltInIcon, run: () => void): TemplateResult {
  return html`<button type="button" class="icon-button" part=${part} aria-label=${label} title=${label} @click=${run}>${icon(glyph)}</button>`;
}

/**
 * One notification: the main link (a button when there is no safe URL),
 * actions on their own row under the message, then the time and the item's
 * controls. Titles and messages are text, never HTML.
 */
export function renderItem(host: ItemHost, notification: AppNotification, index: number, setSize: number, now: number): TemplateResult {
  const { messages, locale, actions } = host;
  const { id } = notification;
  const relativeTime = formatRelativeTime(notification.created_at, now, locale);
  const unread = notification.read_at === null;
  const titleId = `${host.idPrefix}-i-${index}`;
  const content = host.renderItem
    ? host.renderItem(notification, { markAsRead: () => actions.markAsRead(id), remove: () => actions.remove(id), relativeTime, messages })
    : html`${isBuiltInIcon(notification.icon)
          ? icon(notification.icon)
          : notification.icon_class
            ? html`<i class="custom-icon ${notification.icon_class}" part="custom-icon" aria-hidden="true"></i>`
            : icon('bell')}
        <span class="body">
          <span class="title" id=${titleId}>${unread ? html`<span class="sr-only">${messages.unread} </span>` : nothing}${notification.title}</span>
          ${notification.message ? html`<span class="message">${notification.message}</span>` : nothing}
        </span>`;
  const url = safeUrlOrNull(notification.action_url);
  const open = (event: MouseEvent) => actions.open(event, notification);
  return html`
    <article
      class="item ${unread ? 'unread' : 'read'}"
      part="item ${unread ? 'item-unread' : 'item-read'}"
      aria-posinset=${index + 1}
      aria-setsize=${setSize}
      aria-labelledby=${titleId}
      data-id=${id}
    >
      ${url
        ? html`<a class="main" part="item-link" href=${url} @click=${open}>${content}</a>`
        : html`<button type="button" class="main" part="item-link" @click=${open}>${content}</button>`}
      ${notification.actions.length > 0
        ? html`<div class="actions" part="item-actions">
            ${notification.actions.map(
              (action) => html`<button
                type="button"
                class="action ${action.type ?? action.color ?? ''}"
                part="action"
                ?disabled=${action.isDisabled === true}
                @click=${() => actions.runAction(action, notification)}
              >
                ${actionIcon(action.icon)}${action.label}
              </button>`,
            )}
          </div>`
        : nothing}
      <div class="meta">
        <time datetime=${notification.created_at} title=${formatAbsoluteTime(notification.created_at, locale)}>${relativeTime}</time>
        <span class="controls" part="item-controls">
          ${unread
            ? // Wrapped in its own template: the button is replaced, not relabelled, so focus goes to the item's link.
              html`<span>${control('mark-read', messages.markRead, 'check', () => void actions.markAsRead(id))}</span>`
            : control('mark-unread', messages.markUnread, 'unread', () => void actions.markAsUnread(id))}
          ${control('archive', messages.archive, 'archive', () => void actions.archive(id))}
          ${control('delete', messages.delete, 'trash', () => void actions.remove(id))}
        </span>
      </div>
    </article>
  `;
}
