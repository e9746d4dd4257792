import { NotificationFeed } from './feed/notification-feed.js';
import { NotificationBell } from './notification-bell.js';

/**
 * Registers `base` under `tagName` unless that name is taken, so two copies
 * of the package (or another element of that name) do not throw. Returns the
 * constructor registered under that name.
 */
function defineOnce(tagName: string, base: CustomElementConstructor): CustomElementConstructor {
  const existing = customElements.get(tagName);
  if (existing) {
    if (existing !== base && !(existing.prototype instanceof base)) {
      console.warn(`[notification-bell] <${tagName}> is already defined by another library; pass another name to define().`);
    }
    return existing;
  }
  // A class can be registered only once, so extra names get a trivial subclass.
  const constructor = customElements.getName?.(base) != null ? class extends (base as typeof HTMLElement) {} : base;
  customElements.define(tagName, constructor);
  return constructor;
}

/**
 * Registers `<notification-bell>` (or `tagName`) and `<notification-feed>`
 * (or `feedTagName`). Never throws when a name is taken. Returns the bell's
 * registered constructor.
 */
export function define(tagName = 'notification-bell', feedTagName = 'notification-feed'): CustomElementConstructor {
  const bell = defineOnce(tagName, NotificationBell);
  defineOnce(feedTagName, NotificationFeed);
  return bell;
}
