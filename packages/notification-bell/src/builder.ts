import { notifications } from './notifications.js';
import type { NotificationStore } from './store.js';
import type { AppNotification, IconName, NotificationAction } from './types.js';

let sequence = 0;

function localId(): string {
  sequence += 1;
  const random = globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${sequence}`;
  return `local-${random}`;
}

/**
 * Fluent builder for page-local notifications:
 * `Notification.make().title('Saved').message('Your draft is safe').send()`.
 * Named like the original's builder; it shadows the DOM `Notification` only where imported.
 */
export class Notification {
  #fields: Partial<AppNotification> & { actions: NotificationAction[] } = { actions: [] };

  static make(): Notification {
    return new Notification();
  }

  id(id: string): this {
    this.#fields.id = id;
    return this;
  }

  type(type: string): this {
    this.#fields.type = type;
    return this;
  }

  title(title: string): this {
    this.#fields.title = title;
    return this;
  }

  message(message: string): this {
    this.#fields.message = message;
    return this;
  }

  actionUrl(url: string): this {
    this.#fields.action_url = url;
    return this;
  }

  icon(icon: IconName): this {
    this.#fields.icon = icon;
    return this;
  }

  iconClass(className: string): this {
    this.#fields.icon_class = className;
    return this;
  }

  action(action: NotificationAction): this {
    this.#fields.actions.push(action);
    return this;
  }

  data(data: Record<string, unknown>): this {
    this.#fields.data = data;
    return this;
  }

  /** The notification object as it will be stored. */
  toJSON(): Partial<AppNotification> {
    return { ...this.#fields, actions: [...this.#fields.actions] };
  }

  /** Adds it to the store (the page's `notifications` unless given) and returns the stored item. */
  send(store: NotificationStore = notifications): AppNotification {
    return store.addNotification({
      id: this.#fields.id ?? localId(),
      created_at: new Date().toISOString(),
      read_at: null,
      ...this.toJSON(),
    });
  }
}
