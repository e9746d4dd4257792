import { OnDemandRecipient } from '../contract.js';
import type { Notification } from './contracts.js';

/** What AnonymousNotifiable needs from the manager that created it. */
export interface NotificationSender {
  send(notifiables: object | readonly object[], notification: Notification): Promise<unknown>;
}

/**
 * An on-demand recipient with explicit routes per channel, for people who are not users:
 * `manager.route('chat', '#alerts').route('database', userId).notify(n)`. It carries the
 * contract's on-demand brand, so channel packages (e.g. @org/chat-notifier) recognise it.
 */
export class AnonymousNotifiable extends OnDemandRecipient {
  readonly #sender: NotificationSender;

  constructor(sender: NotificationSender) {
    super();
    this.#sender = sender;
  }

  async notify(notification: Notification): Promise<void> {
    await this.#sender.send(this, notification);
  }
}
