/*
 * The wire contract is `@org/notifications`' (its type-only `./contract`
 * subpath): the bell takes its types from there, so the two cannot drift
 * (`types.test.ts` fails the typecheck if they do). The runtime lists below
 * are the bell's own, checked against those types.
 */
import type {
  ActionType as ContractActionType,
  NotificationAction as ContractAction,
  NotificationIcon,
  NotificationLiveEventName,
  NotificationResource,
} from '@org/notifications/contract';

/** Built-in icon names; anything else is expressed with `icon_class`. */
export const ICON_NAMES = ['bell', 'post', 'user', 'message', 'alert', 'check', 'info'] as const satisfies readonly NotificationIcon[];
export type IconName = NotificationIcon;

export const ACTION_TYPES = ['success', 'danger', 'warning', 'info'] as const satisfies readonly ContractActionType[];
export type ActionType = ContractActionType;

/**
 * A button on a notification: it follows `url` or dispatches the custom DOM
 * event `event`. `icon` is a built-in name or an icon-font class list;
 * `color` is the original's spelling of `type`.
 */
export type NotificationAction = ContractAction;

/** One notification as the API returns and broadcasts it. */
export type AppNotification = NotificationResource;

/** Names of the live events on the private channel / SSE topic. */
export type LiveEventName = NotificationLiveEventName;

/** A live event as the store reads it: payloads are checked field by field, so `data` is untyped. */
export interface LiveEvent {
  event: LiveEventName;
  data: Record<string, unknown>;
}
