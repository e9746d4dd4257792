import type { Broadcaster } from '../broadcast/broadcaster.js';
import { createBroadcastChannel } from '../channels/broadcast-channel.js';
import { createDatabaseChannel } from '../channels/database-channel.js';
import type { NotificationStorage } from '../store/notification-storage.js';
import type { ChannelResolver, NotificationChannel } from './contracts.js';
import { NotificationManager } from './notification-manager.js';

export interface CreateNotificationManagerOptions {
  /** Registers the `database` channel. */
  store?: NotificationStorage;
  /** Registers the `broadcast` channel. */
  broadcaster?: Broadcaster;
  channelFor?: (userId: string) => string;
  /** More channels by name (e.g. `chat`). */
  channels?: Record<string, NotificationChannel>;
  resolvers?: readonly ChannelResolver[];
}

/** A manager with the built-in `database` and `broadcast` channels wired to one store and broadcaster. */
export function createNotificationManager(options: CreateNotificationManagerOptions = {}): NotificationManager {
  const builtIn: Record<string, NotificationChannel> = {};
  if (options.store) builtIn.database = createDatabaseChannel({ store: options.store });
  if (options.broadcaster) {
    builtIn.broadcast = createBroadcastChannel({
      broadcaster: options.broadcaster,
      ...(options.store ? { store: options.store } : {}),
      ...(options.channelFor ? { channelFor: options.channelFor } : {}),
    });
  }
  return new NotificationManager({
    channels: { ...builtIn, ...options.channels },
    ...(options.resolvers ? { resolvers: options.resolvers } : {}),
  });
}
