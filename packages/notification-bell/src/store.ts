// The store lives in ./store/; this path stays for existing imports.
export { NotificationStore } from './store/notification-store.js';
export type { NotificationErrorDetail, NotificationStoreOptions, StoreChannel, StoreChannels, StoreFailure, StoreOperation } from './store/notification-store.js';
export type { FeedFilter, FeedView } from './store/state.js';
