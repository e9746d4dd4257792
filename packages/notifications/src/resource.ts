import type { ActionType, NotificationAction, NotificationIcon } from './contract.js';

export type { ActionType, NotificationAction, NotificationIcon, NotificationResource } from './contract.js';

/** Icons the bell ships built in. */
export const NOTIFICATION_ICONS = ['bell', 'post', 'user', 'message', 'alert', 'check', 'info'] as const satisfies readonly NotificationIcon[];

/** Colours of an action button (`type`, or its alias `color`). */
export const ACTION_TYPES = ['success', 'danger', 'warning', 'info'] as const satisfies readonly ActionType[];

/** What a notification renders for storage or broadcast (`toDatabase`, `toArray`, `toBroadcast`). */
export interface NotificationContent {
  /** Defaults to the notification's `type` property, then its class name. */
  type?: string;
  title: string;
  message?: string | null;
  /** An `http:`, `https:` or relative URL; anything else is refused with INVALID_NOTIFICATION. */
  action_url?: string | null;
  icon?: NotificationIcon | null;
  icon_class?: string | null;
  actions?: NotificationAction[];
  data?: Record<string, unknown>;
}
