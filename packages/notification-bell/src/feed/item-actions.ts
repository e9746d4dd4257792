import { failureMessage } from '../messages.js';
import { safeUrlOrNull } from '../safe-url.js';
import type { StoreFailure } from '../store.js';
import type { AppNotification, NotificationAction } from '../types.js';
import type { FeedContext } from './feed-context.js';

const NAVIGATION_WAIT_MS = 1000;

/**
 * What the user does to items and the list: open an item (marking it read
 * first), its actions, mark read/unread, archive, delete, "delete all" with
 * its confirm step, and the alert for a failed change. The store applies each
 * change at once and takes it back if the server refuses; the refusal is this
 * alert (`failed`), announced.
 */
export class ItemActions {
  /** The failure shown as an alert; a new key per failure, so the same sentence is announced again. */
  alert: { text: string; key: number } | undefined;
  #alerts = 0;
  confirmingDeleteAll = false;

  constructor(private readonly feed: FeedContext) {}

  /** A failed mutation: an alert (a failed load shows as the error state or stale notice instead). */
  failed({ operation, error }: StoreFailure): void {
    // A failed load shows as the error state or the stale notice; 401 as the signed-out state.
    if (operation === 'load' || error.status === 401) return;
    const text = failureMessage(this.feed.messages, operation);
    if (text) this.alert = { text, key: ++this.#alerts };
    this.feed.host.requestUpdate();
  }

  readonly dismissAlert = () => {
    this.alert = undefined;
    this.feed.host.requestUpdate();
  };

  markAsRead(id: string): Promise<boolean> {
    return this.feed.store.markAsRead(id);
  }

  markAsUnread(id: string): Promise<boolean> {
    return this.feed.store.markAsUnread(id);
  }

  archive(id: string): Promise<boolean> {
    return this.feed.store.archive(id);
  }

  remove(id: string): Promise<boolean> {
    return this.feed.store.deleteNotification(id);
  }

  readonly markAllAsRead = () => void this.feed.store.markAllAsRead();

  /**
   * A click on an item's main link: marks it read first (if asked to), then
   * follows its URL (only safe ones are links at all), waiting at most a
   * second so a slow API never blocks navigation. Modified clicks (new tab)
   * are left to the browser.
   */
  open(event: MouseEvent, notification: AppNotification): void {
    if (!this.feed.host.resolvedOptions.markReadOnClick || notification.read_at !== null) return;
    const url = safeUrlOrNull(notification.action_url);
    const plain = event.button === 0 && !event.ctrlKey && !event.metaKey && !event.shiftKey && !event.altKey;
    const marked = this.markAsRead(notification.id);
    if (!url || !plain) return;
    event.preventDefault();
    void Promise.race([marked, new Promise((resolve) => setTimeout(resolve, NAVIGATION_WAIT_MS))]).then(() => window.location.assign(url));
  }

  /** An item's action: its `event`, then its `url` only if safe, then closes the bell if `shouldClose`. */
  runAction(action: NotificationAction, notification: AppNotification): void {
    if (action.isDisabled) return;
    if (action.event) window.dispatchEvent(new CustomEvent(action.event, { detail: { ...action.data, notificationId: notification.id, action: action.name } }));
    const url = safeUrlOrNull(action.url);
    if (url) {
      if (action.openInNewTab) window.open(url, '_blank', 'noopener');
      else window.location.assign(url);
    }
    if (action.shouldClose) this.feed.host.hide?.(true);
  }

  /** "Delete all" asks for a second press (its label says so, and it is announced); leaving the button cancels. */
  readonly onDeleteAll = () => {
    this.confirmingDeleteAll = !this.confirmingDeleteAll;
    if (this.confirmingDeleteAll) this.feed.announcer.announce(this.feed.messages.deleteAllPrompt);
    else void this.feed.store.deleteAll();
    this.feed.host.requestUpdate();
  };

  readonly cancelDeleteAll = () => {
    if (!this.confirmingDeleteAll) return;
    this.confirmingDeleteAll = false;
    this.feed.host.requestUpdate();
  };
}
