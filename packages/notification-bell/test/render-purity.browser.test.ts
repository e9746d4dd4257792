import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runBrowserTests, useBrowserSuite } from './harness.js';
import { settle, uiPage, waitForLoad } from './ui-helpers.js';

/*
 * A feed's render is a function of state: rendering it again with the same
 * state writes nothing into the store and starts no request. Loads, focus moves
 * and bookkeeping happen in event handlers and update hooks, never in render.
 */

/** The store's calls that change it or fetch, counted while `run` renders; and its state before and after. */
const RENDER_TWICE = async ({ tag, state }: { tag: string; state: 'listed' | 'emptied' }) => {
  const host = document.querySelector(tag) as HTMLElement & {
    store: Record<string, unknown> & { view(filter: string): Record<string, unknown> };
    feed: { view: { renderHeader(): unknown; renderBody(): unknown } };
  };
  const store = host.store;
  const snapshot = () =>
    JSON.stringify({
      all: store.view('all'),
      unread: store.view('unread'),
      unreadCount: store.unreadCount,
      syncError: store.syncError,
      signedOut: store.signedOut,
    });
  if (state === 'emptied') {
    // What the user sees after emptying the shown page while more exist: no rows, more to fetch.
    const view = store.view.bind(store);
    store.view = (filter: string) => ({ ...view(filter), items: [], hasMore: true, isLoading: false, hasLoaded: true, error: null });
  }
  const calls: string[] = [];
  for (const name of ['refresh', 'loadMore', 'markAsRead', 'markAsUnread', 'archive', 'deleteNotification', 'markAllAsRead', 'deleteAll', 'addNotification', 'applyLiveEvent']) {
    const original = store[name] as (...args: unknown[]) => unknown;
    store[name] = (...args: unknown[]) => {
      calls.push(name);
      return original.apply(store, args);
    };
  }
  const events: string[] = [];
  const record = (event: Event) => events.push(event.type);
  const types = ['notification-bell:change', 'notifications:change', 'change', 'load', 'focus', 'focusin'];
  for (const type of types) {
    window.addEventListener(type, record, true);
    host.addEventListener(type, record, true);
  }
  const before = snapshot();
  const focusBefore = host.shadowRoot?.activeElement ?? null;
  host.feed.view.renderHeader();
  host.feed.view.renderBody();
  host.feed.view.renderHeader();
  host.feed.view.renderBody();
  // Anything render queued (a microtask, a timer) has its turn before the check.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return { calls, events, same: snapshot() === before, focusKept: (host.shadowRoot?.activeElement ?? null) === focusBefore };
};

describe.runIf(runBrowserTests)('render is free of side effects', () => {
  const suite = useBrowserSuite();

  async function load(withFeed: boolean): Promise<Page> {
    suite.server.html = uiPage(withFeed ? { bell: '', feed: '' } : { bell: '' });
    const page = await suite.context.newPage();
    await page.goto(suite.server.url);
    await waitForLoad(page);
    return page;
  }

  for (const state of ['listed', 'emptied'] as const) {
    it(`rendering an inline feed twice with the same state (${state}) changes nothing in the store and calls nothing`, async () => {
      await suite.server.seed([{}, {}, { read_at: '2025-01-01T13:00:00Z' }]);
      const page = await load(true);
      await expect.poll(() => page.locator('notification-feed article.item').count()).toBe(3);
      await settle(page);
      const result = await page.evaluate(RENDER_TWICE, { tag: 'notification-feed', state });
      expect(result).toEqual({ calls: [], events: [], same: true, focusKept: true });
    });
  }

  it('rendering the open bell twice with the same state changes nothing in the store and calls nothing', async () => {
    await suite.server.seed([{}, {}]);
    const page = await load(false);
    await page.locator('notification-bell button.bell').click();
    await expect.poll(() => page.locator('notification-bell article.item').count()).toBe(2);
    await settle(page);
    const result = await page.evaluate(RENDER_TWICE, { tag: 'notification-bell', state: 'emptied' as const });
    expect(result).toEqual({ calls: [], events: [], same: true, focusKept: true });
  });
});
