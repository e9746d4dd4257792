import { OnDemandRecipient } from '@org/notifications/contract';
import type { Notification } from '@org/notifications/contract';
import type { ChatDeliveryResult } from './delivery.js';

/**
 * `ON_DEMAND` is @org/notifications' brand of on-demand recipients (`ON_DEMAND_NOTIFIABLE`), set by
 * this package's `OnDemandNotifiable` and by @org/notifications' `AnonymousNotifiable` alike;
 * `isOnDemandNotifiable` tells them by that brand, never by a class name.
 */
export { ON_DEMAND_NOTIFIABLE as ON_DEMAND, isOnDemandNotifiable } from '@org/notifications/contract';

type Deliver = (notifiable: OnDemandNotifiable, notification: Notification) => Promise<ChatDeliveryResult[]>;

/**
 * A notifiable that is only a set of routes, e.g. `route('chat', '#alerts')`
 * for a channel nobody "owns". Chainable: `.route('chat-ops', '@jane')`.
 */
export class OnDemandNotifiable extends OnDemandRecipient {
  readonly #deliver: Deliver | undefined;

  constructor(deliver?: Deliver) {
    super();
    this.#deliver = deliver;
  }

  /** Sends through whoever created this notifiable (a ChatChannelRegistry or ChatFake); one result per instance. */
  async notify(notification: Notification): Promise<ChatDeliveryResult[]> {
    if (!this.#deliver) throw new TypeError('This on-demand notifiable was created without a sender; pass it to a notification system instead');
    return this.#deliver(this, notification);
  }
}
