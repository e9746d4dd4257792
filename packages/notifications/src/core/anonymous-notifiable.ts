import type { Notifiable, Notification } from './contracts.js';

/** What AnonymousNotifiable needs from the manager that created it. */
export interface NotificationSender {
  send(notifiables: object | readonly object[], notification: Notification): Promise<unknown>;
}

/**
 * An on-demand recipient with explicit routes per channel, for people who are not users:
 * `manager.route('chat', '#alerts').route('database', userId).notify(n)`.
 */
export class AnonymousNotifiable implements Notifiable {
  readonly routes = new Map<string, unknown>();
  readonly #sender: NotificationSender;

  constructor(sender: NotificationSender) {
    this.#sender = sender;
  }

  route(channel: string, target: unknown): this {
    this.routes.set(channel, target);
    return this;
  }

  routeNotificationFor(channel: string): unknown {
    return this.routes.get(channel);
  }

  async notify(notification: Notification): Promise<void> {
    await this.#sender.send(this, notification);
  }
}
