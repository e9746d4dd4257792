// The feed's view, a chunk of its own (see feed-loader.ts): what an element needs only once its list
// shows. `<notification-feed>` loads it at once; the bell on first open (prefetched on hover/focus).
export { FeedController } from './feed-controller.js';
export { feedStyles } from './feed-styles.js';
export { DialogController } from '../controllers/dialog-controller.js';
