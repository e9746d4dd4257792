import type { Notifiable, Notification } from './contracts.js';
import type { ChatDeliveryResult } from './delivery.js';

/** Brand shared with @org/notifications' AnonymousNotifiable, so fakes can tell on-demand sends apart. */
export const ON_DEMAND = Symbol.for('@org/notifications.on-demand');

type Deliver = (notifiable: OnDemandNotifiable, notification: Notification) => Promise<ChatDeliveryResult[]>;

/**
 * A notifiable that is only a set of routes, e.g. `route('chat', '#alerts')`
 * for a channel nobody "owns". Chainable: `.route('chat-ops', '@jane')`.
 */
export class OnDemandNotifiable implements Notifiable {
  readonly [ON_DEMAND] = true;
  readonly routes = new Map<string, unknown>();
  readonly #deliver: Deliver | undefined;

  constructor(deliver?: Deliver) {
    this.#deliver = deliver;
  }

  route(channel: string, target: unknown): this {
    this.routes.set(channel, target);
    return this;
  }

  routeNotificationFor(channel: string): unknown {
    return this.routes.get(channel);
  }

  /** Sends through whoever created this notifiable (a ChatChannelRegistry or ChatFake); one result per instance. */
  async notify(notification: Notification): Promise<ChatDeliveryResult[]> {
    if (!this.#deliver) throw new TypeError('This on-demand notifiable was created without a sender; pass it to a notification system instead');
    return this.#deliver(this, notification);
  }
}

/** True for on-demand notifiables from this package or from @org/notifications. */
export function isOnDemandNotifiable(notifiable: unknown): boolean {
  if (typeof notifiable !== 'object' || notifiable === null) return false;
  return (
    (notifiable as Record<symbol, unknown>)[ON_DEMAND] === true ||
    (notifiable as object).constructor?.name === 'AnonymousNotifiable'
  );
}
