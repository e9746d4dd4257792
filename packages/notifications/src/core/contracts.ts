import type { Notifiable, Notification, NotificationChannel } from '../contract.js';
import type { NotificationContent } from '../resource.js';

// The manager's side of the notifiable contract; the contract itself is in ../contract/notifiable.ts, shared with channel packages.
export type { Notifiable, Notification, NotificationChannel } from '../contract.js';

/** Maps a channel name the registry does not know (e.g. `chat-alerts`) to a channel, or undefined. */
export type ChannelResolver = (name: string) => NotificationChannel | undefined;

/** A user-like notifiable: the built-in channels use `id` when no route is given. */
export interface UserNotifiable extends Notifiable {
  id?: string | number;
}

/** The optional parts of a notification the built-in `database` and `broadcast` channels read. */
export interface RenderableNotification extends Notification {
  /** Stored `type`; defaults to the class name. */
  readonly type?: string;
  /** Set by NotificationManager for each delivery (a UUID shared by all its channels). */
  readonly id?: string;
  toDatabase?(notifiable: Notifiable): NotificationContent;
  toArray?(notifiable: Notifiable): NotificationContent;
  toBroadcast?(notifiable: Notifiable): NotificationContent;
  /** Return false to skip one channel for one notifiable. */
  shouldSend?(notifiable: Notifiable, channel: string): boolean;
}
