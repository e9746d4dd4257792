// Two copies of the package on one page (an app's bundle and the CDN build, or two versions) must share
// the page's store. Each `vi.resetModules()` + `import()` below loads a fresh copy of every module, so
// the copies have distinct `NotificationStore` classes, as two bundles would.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryNotificationApi } from './api/memory-api.js';
import type * as Package from './index.js';

type Copy = typeof Package;

async function loadCopy(): Promise<Copy> {
  vi.resetModules();
  return import('./index.js');
}

const page = globalThis as { window?: unknown };

describe('the page store shared by copies of the package', () => {
  beforeEach(() => {
    // A page's window as far as the store goes: where `window.notifications` lives and DOM events go.
    page.window = new EventTarget();
  });
  afterEach(() => {
    delete page.window;
  });

  it('a second copy adopts the first copy’s store, though its class is another', async () => {
    const first = await loadCopy();
    const second = await loadCopy();

    expect(second.NotificationStore).not.toBe(first.NotificationStore);
    expect(first.notifications).not.toBeInstanceOf(second.NotificationStore);
    expect(second.notifications).toBe(first.notifications);
    expect((page.window as Window).notifications).toBe(first.notifications);
  });

  it('what one copy adds, a subscriber of the other sees, in one list and one count', async () => {
    const first = await loadCopy();
    first.notifications.configure({ api: createMemoryNotificationApi() });
    const counts: number[] = [];
    first.notifications.subscribe('unreadCount', (count) => counts.push(count));

    const second = await loadCopy();
    second.Notification.make().title('From the other copy').send();

    expect(first.notifications.items.map((item) => item.title)).toEqual(['From the other copy']);
    expect(counts).toEqual([1]);
    expect(second.notifications.unreadCount).toBe(1);
  });

  it('a copy tells stores of any copy from other values', async () => {
    const first = await loadCopy();
    const second = await loadCopy();
    expect(second.isNotificationStore(first.notifications)).toBe(true);
    for (const value of [undefined, null, {}, { perPage: 10, subscribe() {} }, 'notifications', new EventTarget()]) {
      expect(second.isNotificationStore(value)).toBe(false);
    }
  });

  it('something else at window.notifications is left alone: the copy keeps a store of its own', async () => {
    const foreign = { list: [] as unknown[] };
    (page.window as { notifications?: unknown }).notifications = foreign;
    const copy = await loadCopy();
    expect(copy.notifications).not.toBe(foreign);
    expect(copy.isNotificationStore(copy.notifications)).toBe(true);
    expect((page.window as { notifications?: unknown }).notifications).toBe(foreign);
  });
});
