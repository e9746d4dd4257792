// Side-effect entry (`@org/notification-bell/define`): registers <notification-bell>.
import { define } from './define.js';

define();

export * from './index.js';
