import type { NotificationContent } from '../resource.js';

/**
 * Anything that can be notified: a user model, or an on-demand AnonymousNotifiable.
 * Structural only, so channel packages declare their own copy instead of importing this one.
 */
export interface Notifiable {
  /** Generic route lookup, e.g. AnonymousNotifiable from route('chat', '#alerts'). */
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
