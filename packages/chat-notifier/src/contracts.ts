/*
 * Minimal structural copies of @org/notifications' types. This package must
 * not import @org/notifications, so it declares what it relies on.
 */

/** Anything that can be notified (a user model, or an on-demand notifiable). */
export interface Notifiable {
  routeNotificationFor?(channel: string, notification: object): unknown;
}

/** A notification: via() names the channels; toX(notifiable) renders for channel X. */
export interface Notification {
  via(notifiable: Notifiable): readonly string[];
}

/** A delivery channel registered under one or more names; `channel` is the name via() used. */
export interface NotificationChannel {
  send(notifiable: Notifiable, notification: Notification, channel: string): Promise<void>;
}
