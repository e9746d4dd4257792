// The test page's bundle: the side-effect entry, plus the exports on window for assertions.
import * as bell from '../src/auto-define.js';

(window as unknown as { NotificationBellLib: typeof bell }).NotificationBellLib = bell;
