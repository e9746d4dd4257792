/*
 * What a notifiable, a notification and a channel are to each other: the contract between the
 * notification manager and the channels packages add (e.g. @org/chat-notifier), structural only.
 */

/** Anything that can be notified: a user model, or an on-demand recipient. */
export interface Notifiable {
  /** Generic route lookup, e.g. an on-demand recipient made by route('chat', '#alerts'). */
  routeNotificationFor?(channel: string, notification: object): unknown;
}

/** A notification: via() names the channels; toX(notifiable) renders for channel X. */
export interface Notification {
  via(notifiable: Notifiable): readonly string[];
}

/** A delivery channel registered under one or more names. `channel` is the exact name via() used. */
export interface NotificationChannel {
  send(notifiable: Notifiable, notification: Notification, channel: string): Promise<void>;
}

/**
 * The brand of an on-demand recipient (a set of routes, nobody's model). A registered symbol,
 * so copies of this module (ESM and CommonJS builds, two installed versions) share it, and
 * minified code keeps it where a class name would be mangled.
 */
export const ON_DEMAND_NOTIFIABLE: unique symbol = /* @__PURE__ */ Symbol.for('@org/notifications.on-demand');

/** True for on-demand recipients (`OnDemandRecipient` and its subclasses), wherever they were made. */
export function isOnDemandNotifiable(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { [ON_DEMAND_NOTIFIABLE]?: unknown })[ON_DEMAND_NOTIFIABLE] === true;
}

/**
 * A recipient that is only routes per channel, for people who are not users:
 * `route('chat', '#alerts').route('database', userId)`. Subclasses add how to send to it
 * (`notify`): @org/notifications' `AnonymousNotifiable`, @org/chat-notifier's `OnDemandNotifiable`.
 */
export abstract class OnDemandRecipient implements Notifiable {
  readonly [ON_DEMAND_NOTIFIABLE] = true;
  readonly routes = new Map<string, unknown>();

  /** Adds (or replaces) the route for `channel`; chainable. */
  route(channel: string, target: unknown): this {
    this.routes.set(channel, target);
    return this;
  }

  routeNotificationFor(channel: string): unknown {
    return this.routes.get(channel);
  }
}
