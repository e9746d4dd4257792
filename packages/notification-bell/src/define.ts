import { NotificationFeed } from './feed/notification-feed.js';
import { NotificationBell } from './notification-bell.js';

type ElementKind = 'bell' | 'feed';

/**
 * Which of this package's elements a registered constructor is. Like the store's brand, `Symbol.for`
 * makes it readable by every copy of the package on the page, so a second copy recognises the
 * first one's `<notification-bell>` (another class) as the same element, not another library's.
 */
const ELEMENT_KIND = Symbol.for('@org/notification-bell/element-kind');

/**
 * Registers `base` under `tagName` unless that name is taken, so two copies
 * of the package (or another element of that name) do not throw. Returns the
 * constructor registered under that name.
 */
function defineOnce(tagName: string, base: CustomElementConstructor, kind: ElementKind): CustomElementConstructor {
  const existing = customElements.get(tagName);
  if (existing) {
    const ours = existing === base || existing.prototype instanceof base || (existing as { [ELEMENT_KIND]?: unknown })[ELEMENT_KIND] === kind;
    if (!ours) {
      console.warn(`[notification-bell] <${tagName}> is already defined by another library; pass another name to define().`);
    }
    return existing;
  }
  // A class can be registered only once, so extra names get a trivial subclass.
  const constructor = customElements.getName?.(base) != null ? class extends (base as typeof HTMLElement) {} : base;
  customElements.define(tagName, constructor);
  Object.defineProperty(constructor, ELEMENT_KIND, { value: kind });
  return constructor;
}

/**
 * Registers `<notification-bell>` (or `tagName`) and `<notification-feed>`
 * (or `feedTagName`). Never throws when a name is taken. Returns the bell's
 * registered constructor.
 */
export function define(tagName = 'notification-bell', feedTagName = 'notification-feed'): CustomElementConstructor {
  const bell = defineOnce(tagName, NotificationBell, 'bell');
  defineOnce(feedTagName, NotificationFeed, 'feed');
  return bell;
}
