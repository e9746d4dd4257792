import { NotificationStore } from './store.js';

declare global {
  interface Window {
    notifications?: NotificationStore;
  }
}

/**
 * The page's one store. If another copy of this package already put a store
 * on `window.notifications`, reuse it so both copies share state.
 */
export const notifications: NotificationStore =
  typeof window !== 'undefined' && window.notifications instanceof NotificationStore
    ? window.notifications
    : new NotificationStore();

if (typeof window !== 'undefined') window.notifications ??= notifications;
