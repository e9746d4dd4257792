// Notification system core
export { NotificationManager } from './core/notification-manager.js';
export type { Delivery, NotificationManagerOptions } from './core/notification-manager.js';
export { createNotificationManager } from './core/create-notification-manager.js';
export type { CreateNotificationManagerOptions } from './core/create-notification-manager.js';
export { AnonymousNotifiable } from './core/anonymous-notifiable.js';
export { ChannelRegistry } from './core/channel-registry.js';
export type { ChannelResolver, Notifiable, Notification, NotificationChannel, RenderableNotification, UserNotifiable } from './core/contracts.js';
export { ON_DEMAND_NOTIFIABLE, OnDemandRecipient, isOnDemandNotifiable } from './contract.js';
export { resolveUserId } from './core/resolve-recipient.js';

// Built-in channels
export { createDatabaseChannel } from './channels/database-channel.js';
export { createBroadcastChannel } from './channels/broadcast-channel.js';
export type { BroadcastChannelOptions } from './channels/broadcast-channel.js';

// Broadcasting
export type { Broadcaster } from './broadcast/broadcaster.js';
export { NOTIFICATION_EVENTS, NOTIFICATION_EVENT_NAMES, defaultChannelFor, isNotificationLiveEventName } from './contract.js';
export { createPusherBroadcaster } from './broadcast/pusher-broadcaster.js';
export type { PusherBroadcasterOptions } from './broadcast/pusher-broadcaster.js';
export { createMemoryBroadcaster } from './broadcast/memory-broadcaster.js';
export type { MemoryBroadcaster, RecordedEvent } from './broadcast/memory-broadcaster.js';

// Storage
export type { ArchivedFilter, ChangeResult, ListQuery, ListResult, MarkReadResult, NewNotification, NotificationStorage, ReadStatus } from './store/notification-storage.js';
export { createSqlStore, isNotificationId } from './store/sql-store.js';
export type { SqlStoreOptions } from './store/sql-store.js';
export { createPgliteStore } from './store/create-pglite-store.js';
export type { PgliteStoreOptions } from './store/create-pglite-store.js';
export { createPostgresStore } from './store/create-postgres-store.js';
export type { PostgresStoreOptions } from './store/create-postgres-store.js';
export type { SqlClient } from './sql/sql-client.js';
export { pgliteClient } from './sql/pglite-client.js';
export { pgClient } from './sql/pg-client.js';
export type { PgPoolLike } from './sql/pg-client.js';
export { migrate, migrations } from './sql/migrations.js';
export type { Migration } from './sql/migrations.js';

// HTTP API
export { createNotificationsApi } from './api/create-notifications-api.js';
export type { ApiUser, NotificationsApiOptions } from './api/create-notifications-api.js';
export type { CsrfOptions } from './api/csrf.js';
export { MAX_PAGE } from './api/query-params.js';

// The runtime contract (also published alone as `@org/notifications/contract`) and errors
export { ACTION_TYPES, NOTIFICATION_ICONS } from './resource.js';
export type { NotificationContent } from './resource.js';
export type * from './contract.js';
export { ACTION_ICON_PATTERN, CONTENT_LIMITS } from './content-schema.js';
export { CSRF_TOKEN_HEADER, NOTIFICATION_ROUTES, SAFE_URL_RULE, SOCKET_ID_HEADER, buildPath, isSafeUrl } from './contract.js';
export { ARCHIVE_ROUTE, CHANNEL_AUTH_ROUTE, DELETE_ALL_ROUTE, DELETE_ROUTE, GET_ROUTE, LIST_ROUTE, MARK_ALL_READ_ROUTE, MARK_READ_ROUTE, MARK_UNREAD_ROUTE, UNARCHIVE_ROUTE, UNREAD_ROUTE } from './contract.js';
export type { NotificationRouteName, Route, RouteMethod, RouteParamName, RouteParams } from './contract.js';
export { DeliveryError, NotificationsError } from './errors.js';
export type { DeliveryFailure, NotificationsErrorCode } from './errors.js';
