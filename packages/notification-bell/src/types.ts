/** Built-in icon names; anything else is expressed with `icon_class`. */
export const ICON_NAMES = ['bell', 'post', 'user', 'message', 'alert', 'check', 'info'] as const;
export type IconName = (typeof ICON_NAMES)[number];

export const ACTION_TYPES = ['success', 'danger', 'warning', 'info'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/** A button on a notification: it follows `url` or dispatches the custom DOM event `event`. */
export interface NotificationAction {
  name: string;
  label: string;
  url?: string;
  event?: string;
  icon?: string;
  /** `color` is the original's spelling of `type`; both are accepted. */
  type?: ActionType;
  color?: ActionType;
  openInNewTab?: boolean;
  shouldClose?: boolean;
  isDisabled?: boolean;
  data?: Record<string, unknown>;
}

/** The wire shape shared with `@org/notifications`. */
export interface AppNotification {
  id: string;
  type: string;
  title: string;
  message: string | null;
  action_url: string | null;
  icon: IconName | null;
  icon_class: string | null;
  actions: NotificationAction[];
  data: Record<string, unknown>;
  read_at: string | null;
  /** Set when archived; archived notifications are not listed. */
  archived_at: string | null;
  created_at: string;
}

/** Names of the live events on the private channel / SSE topic. */
export type LiveEventName =
  | 'notification.created'
  | 'notification.marked-read'
  | 'notification.marked-unread'
  | 'notification.archived'
  | 'notification.unarchived'
  | 'notification.marked-all-read'
  | 'notification.deleted'
  | 'notification.all-deleted';

export interface LiveEvent {
  event: LiveEventName;
  data: Record<string, unknown>;
}
