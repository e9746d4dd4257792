import { randomUUID } from 'node:crypto';
import { DeliveryError } from '../errors.js';
import type { DeliveryFailure } from '../errors.js';
import { AnonymousNotifiable } from './anonymous-notifiable.js';
import { ChannelRegistry } from './channel-registry.js';
import type { ChannelResolver, Notifiable, Notification, NotificationChannel, RenderableNotification } from './contracts.js';

export interface NotificationManagerOptions {
  /** Channels by name, e.g. `{ database: createDatabaseChannel({ store }) }`. */
  channels?: Record<string, NotificationChannel>;
  /** Tried in order for names not registered exactly (e.g. `chat-*`). */
  resolvers?: readonly ChannelResolver[];
}

/** One (notifiable, channel) pair that was delivered or skipped. */
export interface Delivery {
  notifiable: Notifiable;
  channel: string;
  /** The per-delivery id every channel saw as `notification.id`. */
  id: string;
  status: 'sent' | 'skipped';
}

/**
 * Sends notifications to notifiables over the channels their via() names.
 * Channels run in via() order for each notifiable (so `database` can store before `broadcast`
 * announces), every pair is attempted, and failures are thrown together as a DeliveryError.
 */
export class NotificationManager {
  readonly channels = new ChannelRegistry();

  constructor(options: NotificationManagerOptions = {}) {
    for (const [name, channel] of Object.entries(options.channels ?? {})) this.channels.register(name, channel);
    for (const resolver of options.resolvers ?? []) this.channels.addResolver(resolver);
  }

  /** Registers a channel under a name (call again to register more names). */
  extend(name: string, channel: NotificationChannel): this {
    this.channels.register(name, channel);
    return this;
  }

  /** Adds a resolver for channel names not registered exactly. */
  resolveChannel(resolver: ChannelResolver): this {
    this.channels.addResolver(resolver);
    return this;
  }

  /**
   * Sends to one notifiable or a list. Any object is accepted (a user model with an `id` is
   * enough for the built-in channels); `routeNotificationFor` is used when present.
   */
  async send(notifiables: object | readonly object[], notification: Notification): Promise<Delivery[]> {
    const list = (Array.isArray(notifiables) ? notifiables : [notifiables]) as readonly Notifiable[];
    const deliveries: Delivery[] = [];
    const failures: DeliveryFailure[] = [];
    for (const notifiable of list) {
      const id = randomUUID();
      // Each recipient gets its own view with its own id; methods and fields still come from the original.
      const view = Object.create(notification, { id: { value: id, enumerable: true } }) as RenderableNotification;
      let names: readonly string[];
      try {
        names = view.via(notifiable);
      } catch (error) {
        failures.push({ notifiable, channel: '(via)', error });
        continue;
      }
      for (const name of new Set(names)) {
        try {
          if (view.shouldSend && view.shouldSend(notifiable, name) === false) {
            deliveries.push({ notifiable, channel: name, id, status: 'skipped' });
            continue;
          }
          await this.channels.get(name).send(notifiable, view, name);
          deliveries.push({ notifiable, channel: name, id, status: 'sent' });
        } catch (error) {
          failures.push({ notifiable, channel: name, error });
        }
      }
    }
    if (failures.length > 0) throw new DeliveryError(failures);
    return deliveries;
  }

  /** Same as send(), for one notifiable. */
  notify(notifiable: object, notification: Notification): Promise<Delivery[]> {
    return this.send(notifiable, notification);
  }

  /** Starts an on-demand notification: `manager.route('database', userId).notify(n)`. */
  route(channel: string, target: unknown): AnonymousNotifiable {
    return new AnonymousNotifiable(this).route(channel, target);
  }
}
