// The store's public face (it lives in ./store/): what the element, the controllers and the package entry import.
export { NotificationStore, isNotificationStore } from './store/notification-store.js';
export type { NotificationErrorDetail, NotificationStoreOptions, StoreChannel, StoreChannels, StoreFailure, StoreOperation } from './store/notification-store.js';
export type { FeedFilter, FeedView } from './store/state.js';
