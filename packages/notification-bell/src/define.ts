import { NotificationBell } from './notification-bell.js';

/**
 * Registers the element under `tagName` unless that name is taken, so two
 * copies of the package (or another `<notification-bell>`) do not throw.
 * Returns the constructor registered under that name.
 */
export function define(tagName = 'notification-bell'): CustomElementConstructor {
  const existing = customElements.get(tagName);
  if (existing) {
    if (existing !== NotificationBell && !(existing.prototype instanceof NotificationBell)) {
      console.warn(`[notification-bell] <${tagName}> is already defined by another library; pass another name to define().`);
    }
    return existing;
  }
  // A class can be registered only once, so extra names get a trivial subclass.
  const alreadyRegistered = customElements.getName?.(NotificationBell) != null;
  const constructor = alreadyRegistered ? class extends NotificationBell {} : NotificationBell;
  customElements.define(tagName, constructor);
  return constructor;
}
