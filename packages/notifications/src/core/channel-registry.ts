import { NotificationsError } from '../errors.js';
import type { ChannelResolver, NotificationChannel } from './contracts.js';

/** Finds the channel for a name: exact registrations first, then resolvers in the order added. */
export class ChannelRegistry {
  readonly #channels = new Map<string, NotificationChannel>();
  readonly #resolvers: ChannelResolver[] = [];

  register(name: string, channel: NotificationChannel): this {
    if (name.length === 0) throw new NotificationsError('INVALID_OPTION', 'Channel name must be a non-empty string');
    if (typeof channel?.send !== 'function') {
      throw new NotificationsError('INVALID_OPTION', `Channel "${name}" must be an object with a send(notifiable, notification, channel) method`);
    }
    this.#channels.set(name, channel);
    return this;
  }

  addResolver(resolver: ChannelResolver): this {
    this.#resolvers.push(resolver);
    return this;
  }

  has(name: string): boolean {
    return this.find(name) !== undefined;
  }

  find(name: string): NotificationChannel | undefined {
    const exact = this.#channels.get(name);
    if (exact) return exact;
    for (const resolve of this.#resolvers) {
      const channel = resolve(name);
      if (channel) return channel;
    }
    return undefined;
  }

  get(name: string): NotificationChannel {
    const channel = this.find(name);
    if (!channel) throw new NotificationsError('CHANNEL_NOT_FOUND', `No notification channel is registered for "${name}"`);
    return channel;
  }
}
