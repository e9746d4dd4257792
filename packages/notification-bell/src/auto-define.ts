// Side-effect entry (`@org/notification-bell/define`): registers <notification-bell>.
// It exports only what a page using the tag needs; everything else is in the main entry.
import { define } from './define.js';

define();

export { define } from './define.js';
export { NotificationBell } from './notification-bell.js';
export { notifications } from './notifications.js';
export { Notification } from './builder.js';
