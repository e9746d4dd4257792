import { NotificationBellError } from './errors.js';
import { isSafeUrl, safeUrlOrNull } from './safe-url.js';
import { ACTION_TYPES, ICON_NAMES } from './types.js';
import type { ActionType, AppNotification, IconName, NotificationAction } from './types.js';

// Hand-written (no schema library): this runs on every poll and push, and keeps the bundle small.

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function actionType(value: unknown): ActionType | undefined {
  return (ACTION_TYPES as readonly unknown[]).includes(value) ? (value as ActionType) : undefined;
}

function normalizeAction(raw: unknown): NotificationAction | undefined {
  if (!isRecord(raw) || typeof raw.name !== 'string' || typeof raw.label !== 'string') return undefined;
  const action: NotificationAction = { name: raw.name, label: raw.label };
  // Data never becomes a script link: anything but http(s) or relative is dropped (the action keeps its event).
  if (isSafeUrl(raw.url)) action.url = raw.url;
  if (typeof raw.event === 'string') action.event = raw.event;
  if (typeof raw.icon === 'string') action.icon = raw.icon;
  // `color` is the original bell's name for `type`; either styles the button.
  const type = actionType(raw.type) ?? actionType(raw.color);
  if (type) action.type = type;
  const color = actionType(raw.color);
  if (color) action.color = color;
  if (typeof raw.openInNewTab === 'boolean') action.openInNewTab = raw.openInNewTab;
  if (typeof raw.shouldClose === 'boolean') action.shouldClose = raw.shouldClose;
  if (typeof raw.isDisabled === 'boolean') action.isDisabled = raw.isDisabled;
  if (isRecord(raw.data)) action.data = raw.data;
  return action;
}

/**
 * Turns anything that claims to be a notification (API row, push payload,
 * local `addNotification` argument) into the exact wire shape, filling defaults.
 * Throws INVALID_NOTIFICATION naming the field when `id`/`title` are unusable.
 */
export function normalizeNotification(raw: unknown): AppNotification {
  if (!isRecord(raw)) {
    throw new NotificationBellError('INVALID_NOTIFICATION', 'A notification must be an object with at least "id" and "title".');
  }
  const id = typeof raw.id === 'number' ? String(raw.id) : raw.id;
  if (typeof id !== 'string' || id === '') {
    throw new NotificationBellError('INVALID_NOTIFICATION', 'Notification "id" must be a non-empty string.');
  }
  if (typeof raw.title !== 'string') {
    throw new NotificationBellError('INVALID_NOTIFICATION', `Notification "${id}": "title" must be a string.`);
  }
  const icon = (ICON_NAMES as readonly unknown[]).includes(raw.icon) ? (raw.icon as IconName) : null;
  const createdAt = typeof raw.created_at === 'string' && !Number.isNaN(Date.parse(raw.created_at)) ? raw.created_at : new Date().toISOString();
  return {
    id,
    type: typeof raw.type === 'string' ? raw.type : 'default',
    title: raw.title,
    message: optionalString(raw.message),
    action_url: safeUrlOrNull(raw.action_url),
    icon,
    icon_class: optionalString(raw.icon_class),
    actions: Array.isArray(raw.actions) ? raw.actions.map(normalizeAction).filter((a): a is NotificationAction => a !== undefined) : [],
    data: isRecord(raw.data) ? raw.data : {},
    read_at: optionalString(raw.read_at),
    archived_at: optionalString(raw.archived_at),
    created_at: createdAt,
  };
}

export function readUnreadCount(meta: unknown): number | undefined {
  if (!isRecord(meta)) return undefined;
  const value = meta.unread_count ?? meta.count;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

export { isRecord };
