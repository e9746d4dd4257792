// Side-effect entry (`@org/notification-bell/define`): registers <notification-bell> and <notification-feed>.
// It exports only what a page using the tags needs; everything else is in the main entry.
import { define } from './define.js';

define();

export { define } from './define.js';
export { NotificationBell } from './notification-bell.js';
export { NotificationFeed } from './feed/notification-feed.js';
export { notifications } from './notifications.js';
export { Notification } from './builder.js';
