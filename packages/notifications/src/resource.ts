/** Icons the bell ships built in. */
export const NOTIFICATION_ICONS = ['bell', 'post', 'user', 'message', 'alert', 'check', 'info'] as const;
export type NotificationIcon = (typeof NOTIFICATION_ICONS)[number];

export const ACTION_TYPES = ['success', 'danger', 'warning', 'info'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/** A button on a notification, as the bell renders it. */
export interface NotificationAction {
  name: string;
  label: string;
  url?: string;
  event?: string;
  icon?: string;
  type?: ActionType;
  openInNewTab?: boolean;
  shouldClose?: boolean;
  isDisabled?: boolean;
  data?: Record<string, unknown>;
}

/** The JSON object the API returns and broadcasts (the bell's wire contract). */
export interface NotificationResource {
  id: string;
  type: string;
  title: string;
  message: string | null;
  action_url: string | null;
  icon: NotificationIcon | null;
  icon_class: string | null;
  actions: NotificationAction[];
  data: Record<string, unknown>;
  read_at: string | null;
  created_at: string;
}

/** What a notification renders for storage or broadcast (`toDatabase`, `toArray`, `toBroadcast`). */
export interface NotificationContent {
  /** Defaults to the notification's `type` property, then its class name. */
  type?: string;
  title: string;
  message?: string | null;
  action_url?: string | null;
  icon?: NotificationIcon | null;
  icon_class?: string | null;
  actions?: NotificationAction[];
  data?: Record<string, unknown>;
}
