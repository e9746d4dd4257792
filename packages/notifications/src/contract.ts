/*
 * The contract between the notifications API and its clients (the bell, channel packages such
 * as @org/chat-notifier), published alone as `@org/notifications/contract`: the wire types
 * below, and the runtime parts re-exported from ./contract/ (the route table, the URL rule, the
 * live event names and channel, the request headers, the notifiable contract and its brand).
 * Both sides import these; neither writes its own copy. The API handlers check their answers
 * against the types with `satisfies`, so the two cannot drift apart.
 *
 * It imports nothing outside this file and ./contract/ (no zod, no PGlite, no @org/protocol),
 * so a browser bundle pulls in only what it uses of it (contract/self-contained.test.ts checks).
 * The wire types stay in this entry module so that the built contract.d.ts holds them itself.
 */
// `export *`, not named re-exports: with these, a bundler that splits code puts each module in the
// chunk that uses it (named ones tie them all to wherever this file goes). Each module exports only
// what is public.
export * from './contract/routes.js';
export * from './contract/safe-url.js';
export * from './contract/live-events.js';
export * from './contract/headers.js';
export * from './contract/notifiable.js';

/** Icons the bell ships built in (the runtime list is `NOTIFICATION_ICONS`). */
export type NotificationIcon = 'bell' | 'post' | 'user' | 'message' | 'alert' | 'check' | 'info';

/** Colours of an action button (the runtime list is `ACTION_TYPES`). */
export type ActionType = 'success' | 'danger' | 'warning' | 'info';

/**
 * An action's icon: a built-in icon name, or a CSS class list for an icon font such as
 * `fa fa-check` (tokens of `[A-Za-z0-9_-]`, separated by single spaces, at most 255 characters).
 */
export type NotificationActionIcon = NotificationIcon | (string & {});

/** A button on a notification, as the bell renders it. */
export interface NotificationAction {
  name: string;
  label: string;
  /** Followed on click: an `http:`, `https:` or relative URL only. */
  url?: string;
  /** A DOM event the bell dispatches on click, instead of or besides following `url`. */
  event?: string;
  icon?: NotificationActionIcon;
  type?: ActionType;
  /** The original spelling of `type`; stored and returned as given. */
  color?: ActionType;
  openInNewTab?: boolean;
  shouldClose?: boolean;
  isDisabled?: boolean;
  data?: Record<string, unknown>;
}

/** One notification as the API returns and broadcasts it. */
export interface NotificationResource {
  id: string;
  type: string;
  title: string;
  message: string | null;
  /** Where the notification leads: an `http:`, `https:` or relative URL, or null. */
  action_url: string | null;
  icon: NotificationIcon | null;
  icon_class: string | null;
  actions: NotificationAction[];
  data: Record<string, unknown>;
  /** ISO 8601; null while unread. */
  read_at: string | null;
  /** ISO 8601; null unless archived. Archived notifications leave lists and the unread count. */
  archived_at: string | null;
  /** ISO 8601. */
  created_at: string;
}

/** `meta` of every response: the user's authoritative unread count (archived ones excluded). */
export interface UnreadCountMeta {
  unread_count: number;
}

/** `meta` of a page of notifications. */
export interface ListMeta extends UnreadCountMeta {
  /** 1-based. */
  page: number;
  limit: number;
  /** Notifications matching the filters over all pages. */
  total: number;
  /** `ceil(total / limit)`. */
  pages: number;
  has_next_page: boolean;
  /** Pass as `before` to get the page right after this one, unshifted by rows added or deleted meanwhile; null for an empty page. */
  next_cursor: string | null;
}

/** `GET /notification/notifications.json`. */
export interface ListResponse {
  notifications: NotificationResource[];
  meta: ListMeta;
}

/** `GET /notification/notifications/unread.json`: a list whose `meta.count` equals `meta.total`. */
export interface UnreadListResponse {
  notifications: NotificationResource[];
  meta: ListMeta & { count: number };
}

/** `GET /notification/notifications/{id}.json`. */
export interface ItemResponse {
  notification: NotificationResource;
  meta: UnreadCountMeta;
}

/** `PATCH …/{id}/read.json`, `…/{id}/unread.json`, `…/{id}/archive.json`, `…/{id}/unarchive.json`. */
export type MutationResponse = ItemResponse;

/** `PATCH /notification/notifications/mark-all-read.json`. */
export interface MarkAllReadResponse {
  marked: number;
  meta: UnreadCountMeta;
}

/** `DELETE /notification/notifications/{id}.json` (`deleted: 1`) and `DELETE /notification/notifications.json`. */
export interface DeleteResponse {
  deleted: number;
  meta: UnreadCountMeta;
}

/** `POST /broadcasting/auth`: `<key>:<hex hmac-sha256(socket_id:channel_name)>`. */
export interface ChannelAuthResponse {
  auth: string;
}

/** Codes of the API's error answers. */
export type ApiErrorCode =
  | 'INVALID_PARAMETER'
  | 'UNAUTHENTICATED'
  | 'CSRF_MISMATCH'
  | 'CHANNEL_FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'PAYLOAD_TOO_LARGE'
  | 'BROADCASTING_DISABLED'
  | 'INTERNAL_ERROR';

/** Every non-2xx answer. */
export interface ErrorResponse {
  error: string;
  code: ApiErrorCode;
}

/** `notification.created`: the notification, plus the unread count when the sender has a store. */
export interface NotificationCreatedEvent extends NotificationResource {
  unread_count?: number;
}

/** One notification changed; the data of marked-read, marked-unread, archived, unarchived and deleted. */
export interface NotificationChangedEvent {
  notification_id: string;
  unread_count: number;
}

export type NotificationMarkedReadEvent = NotificationChangedEvent;
export type NotificationMarkedUnreadEvent = NotificationChangedEvent;
export type NotificationArchivedEvent = NotificationChangedEvent;
export type NotificationUnarchivedEvent = NotificationChangedEvent;
export type NotificationDeletedEvent = NotificationChangedEvent;

export interface NotificationMarkedAllReadEvent {
  unread_count: number;
}

export interface NotificationAllDeletedEvent {
  deleted: number;
  unread_count: number;
}

/** Each live event on the user's private channel, with its data. */
export interface NotificationLiveEvents {
  'notification.created': NotificationCreatedEvent;
  'notification.marked-read': NotificationMarkedReadEvent;
  'notification.marked-unread': NotificationMarkedUnreadEvent;
  'notification.archived': NotificationArchivedEvent;
  'notification.unarchived': NotificationUnarchivedEvent;
  'notification.marked-all-read': NotificationMarkedAllReadEvent;
  'notification.deleted': NotificationDeletedEvent;
  'notification.all-deleted': NotificationAllDeletedEvent;
}

export type NotificationLiveEventName = keyof NotificationLiveEvents;

/** The data of live event `E`. */
export type NotificationLiveEventPayload<E extends NotificationLiveEventName> = NotificationLiveEvents[E];

/** Any live event as a tagged union, for a `switch (live.event)`. */
export type NotificationLiveEvent = { [E in NotificationLiveEventName]: { event: E; data: NotificationLiveEvents[E] } }[NotificationLiveEventName];
