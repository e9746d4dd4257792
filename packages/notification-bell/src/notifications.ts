import { NotificationStore, isNotificationStore } from './store.js';

declare global {
  interface Window {
    notifications?: NotificationStore;
  }
}

/**
 * The page's one store. If another copy of this package (another bundle, the CDN build, another
 * version) already put a store on `window.notifications`, reuse it so both copies share state. The
 * check is the store's `Symbol.for` brand, not `instanceof`: each copy has its own class.
 */
export const notifications: NotificationStore =
  typeof window !== 'undefined' && isNotificationStore(window.notifications) ? window.notifications : new NotificationStore();

if (typeof window !== 'undefined') window.notifications ??= notifications;
