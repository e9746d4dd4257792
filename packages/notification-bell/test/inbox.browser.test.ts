import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HUB_PATH, USER_ID, runBrowserTests, screenshotDir, useBrowserSuite } from './harness.js';
import type { SeedRow } from './harness.js';
import { focusDescription, settle, uiPage, waitForLoad } from './ui-helpers.js';

/*
 * The inbox features, by keyboard and pointer, against the real API:
 * Unread/All tabs, mark as unread, archive, delete all (with its confirm
 * step), visible and announced failures, the "N new notifications" pill, and
 * a bell and an inline <notification-feed> on one page staying in sync.
 */

const LIVE = `user-id="${USER_ID}" broadcasting='{"broadcaster":"sse-hub","hubUrl":"${HUB_PATH}"}'`;

describe.runIf(runBrowserTests)('the inbox: tabs, archive, delete all, failures, new-items pill, bell + feed', () => {
  const suite = useBrowserSuite();
  /** Seeded rows, newest (listed first) first. */
  let ids: string[];


  async function seed(rows: SeedRow[]): Promise<void> {
    ids = (await suite.server.seed(rows)).map((row) => row.id);
  }

  async function load(options: Parameters<typeof uiPage>[0]): Promise<Page> {
    suite.server.html = uiPage(options);
    const page = await suite.context.newPage();
    await page.goto(suite.server.url);
    await waitForLoad(page);
    return page;
  }

  async function openBell(page: Page): Promise<void> {
    await page.locator('notification-bell button.bell').click();
    await settle(page);
  }

  /** Presses `key` until focus matches, at most 20 times. */
  async function pressUntil(page: Page, target: string, key: string): Promise<void> {
    for (let press = 0; press < 20; press += 1) {
      if ((await focusDescription(page)) === target) return;
      await page.keyboard.press(key);
    }
    expect(await focusDescription(page), `never reached ${target} with ${key}`).toBe(target);
  }

  const bell = (page: Page) => page.locator('notification-bell');
  const feed = (page: Page) => page.locator('notification-feed');
  const itemIds = (host: Locator) => host.locator('article.item').evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset.id));
  const item = (host: Locator, id: string) => host.locator(`article.item[data-id="${id}"]`);
  const selectedTab = (host: Locator) => host.locator('[role="tab"][aria-selected="true"]').textContent().then((text) => text?.trim());
  const status = (host: Locator) => host.locator('[role="status"]').textContent();
  const serverRow = async (id: string) => (await suite.server.rows()).find((row) => row.id === id);

  it('Unread / All tabs: a tablist with arrows that wrap; a read item leaves the Unread list at once (keyboard)', async () => {
    // Oldest first: two read, three unread.
    await seed([{ read_at: '2025-01-01T13:00:00Z' }, {}, { read_at: '2025-01-01T13:00:00Z' }, {}, {}]);
    const unread = [ids[0], ids[1], ids[3]] as string[];
    const page = await load({ bell: '' });
    await openBell(page);
    const host = bell(page);
    await expect.poll(() => selectedTab(host)).toBe('All');
    await expect.poll(() => itemIds(host)).toEqual(ids);

    // The tablist: roles, selection, the panel it controls, one tab stop.
    const tabs = await host.locator('[role="tab"]').evaluateAll((elements) =>
      elements.map((tab) => ({
        selected: tab.getAttribute('aria-selected'),
        tabindex: tab.getAttribute('tabindex'),
        controls: tab.getAttribute('aria-controls'),
        panelLabelledBy: tab.getRootNode() instanceof ShadowRoot ? (tab.getRootNode() as ShadowRoot).getElementById(tab.getAttribute('aria-controls') ?? '')?.getAttribute('aria-labelledby') : null,
        id: tab.id,
        inTablist: tab.parentElement?.getAttribute('role') === 'tablist',
      })),
    );
    expect(tabs).toHaveLength(2);
    expect(tabs.map((tab) => tab.selected)).toEqual(['true', 'false']);
    expect(tabs.map((tab) => tab.tabindex)).toEqual(['0', '-1']);
    expect(tabs.every((tab) => tab.inTablist && tab.controls && tab.panelLabelledBy === tabs[0]?.id)).toBe(true);

    await pressUntil(page, 'notification-bell > tab', 'Shift+Tab');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => selectedTab(host)).toBe('Unread');
    await expect.poll(() => itemIds(host)).toEqual(unread);
    await expect.poll(() => page.evaluate(() => document.querySelector('notification-bell')?.shadowRoot?.activeElement?.textContent?.trim())).toBe('Unread');
    // Wraps both ways.
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => selectedTab(host)).toBe('All');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => selectedTab(host)).toBe('Unread');
    await expect.poll(() => host.getAttribute('filter')).toBe('unread');

    // Mark the first unread item read: it leaves this list; focus moves to the next item's link.
    await pressUntil(page, `notification-bell > mark-read@${unread[0]}`, 'Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => itemIds(host)).toEqual(unread.slice(1));
    await expect.poll(() => focusDescription(page)).toBe(`notification-bell > item-link@${unread[1]}`);
    await expect.poll(async () => (await serverRow(unread[0] as string))?.read_at).not.toBeNull();

    // Pointer: back to All, where it is listed as read.
    await host.locator('[role="tab"]', { hasText: 'All' }).click();
    await expect.poll(() => itemIds(host)).toEqual(ids);
    await expect.poll(() => item(host, unread[0] as string).getAttribute('class')).toContain(' read');
  });

  it('an Unread list the user emptied by reading fetches the next unread items instead of saying "all caught up" (review R8)', async () => {
    await seed(Array.from({ length: 8 }, () => ({})));
    const page = await load({ bell: 'per-page="3"' });
    await openBell(page);
    const host = bell(page);
    await host.locator('[role="tab"]', { hasText: 'Unread' }).click();
    await expect.poll(() => itemIds(host)).toEqual(ids.slice(0, 3));
    for (const id of ids.slice(0, 3)) await item(host, id!).locator('[part~="mark-read"]').click();
    // The next unread ones come in; the empty state never stays.
    await expect.poll(() => itemIds(host).then((shown) => shown.length)).toBeGreaterThan(0);
    expect((await itemIds(host)).every((id) => id !== undefined && ids.slice(3).includes(id))).toBe(true);
    await expect(host.locator('[part="empty"]').count()).resolves.toBe(0);
  });

  it('mark as unread and archive per item (pointer), with the count following', async () => {
    await seed([{ read_at: '2025-01-01T13:00:00Z', title: 'Read one' }, { title: 'Unread one' }]);
    const [unreadId, readId] = ids as [string, string];
    const page = await load({ bell: '' });
    await openBell(page);
    const host = bell(page);
    await expect.poll(() => host.locator('button.bell').getAttribute('aria-label')).toBe('Notifications, 1 unread');

    await item(host, readId).hover();
    await item(host, readId).locator('[part="mark-unread"]').click();
    await expect.poll(() => item(host, readId).getAttribute('class')).toContain('unread');
    await expect.poll(() => host.locator('button.bell').getAttribute('aria-label')).toBe('Notifications, 2 unread');
    await expect.poll(async () => (await serverRow(readId))?.read_at).toBeNull();

    await item(host, unreadId).hover();
    await item(host, unreadId).locator('[part="archive"]').click();
    await expect.poll(() => itemIds(host)).toEqual([readId]);
    await expect.poll(() => host.locator('button.bell').getAttribute('aria-label')).toBe('Notifications, 1 unread');
    await expect.poll(async () => (await serverRow(unreadId))?.archived_at ?? null).not.toBeNull();
    await page.screenshot({ path: join(screenshotDir, 'inbox-after-archive.png') });
  });

  it('delete all asks for a second press, announced; leaving the button cancels; then focus goes to the heading (keyboard)', async () => {
    await seed([{}, {}, {}]);
    const page = await load({ bell: '' });
    await openBell(page);
    const host = bell(page);
    const deleteAll = host.locator('[part="delete-all"]');

    await pressUntil(page, 'notification-bell > delete-all', 'Shift+Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => deleteAll.textContent().then((text) => text?.trim())).toBe('Confirm: delete all');
    await expect.poll(() => status(host)).toBe('Press again to delete all notifications.');
    await page.screenshot({ path: join(screenshotDir, 'inbox-delete-all-confirm.png') });
    expect(await itemIds(host)).toHaveLength(3);
    // Tabbing away cancels.
    await page.keyboard.press('Tab');
    await expect.poll(() => deleteAll.textContent().then((text) => text?.trim())).toBe('Delete all');
    await page.keyboard.press('Shift+Tab');
    await expect.poll(() => focusDescription(page)).toBe('notification-bell > delete-all');
    // One press is not enough; two are.
    await page.keyboard.press('Enter');
    expect(await itemIds(host)).toHaveLength(3);
    await page.keyboard.press('Enter');
    await expect.poll(() => itemIds(host)).toEqual([]);
    await expect.poll(() => host.locator('[part="empty"]').isVisible()).toBe(true);
    await expect.poll(() => focusDescription(page)).toBe('notification-bell > title');
    await expect.poll(async () => (await suite.server.rows()).length).toBe(0);
  });

  it('a failed delete is undone and says so in a dismissible alert (role=alert); the alert is announced again for the next failure', async () => {
    await seed([{}, {}]);
    const page = await load({ bell: '' });
    await openBell(page);
    const host = bell(page);
    const alert = host.locator('[part="alert"]');
    for (let attempt = 0; attempt < 2; attempt += 1) {
      suite.server.failNext('DELETE', /\/notification\/notifications\/[^/]+\.json$/, 500, 'INTERNAL');
      await item(host, ids[0] as string).hover();
      await item(host, ids[0] as string).locator('[part="delete"]').click();
      await expect.poll(() => alert.textContent().then((text) => text?.trim())).toBe("Couldn't delete the notification. Try again.");
      await expect.poll(() => alert.getAttribute('role')).toBe('alert');
      await expect.poll(() => itemIds(host)).toEqual(ids);
    }
    await page.screenshot({ path: join(screenshotDir, 'inbox-failed-delete-alert.png') });
    await alert.locator('[part="dismiss"]').click();
    await expect.poll(() => alert.count()).toBe(0);
    // The store's own failure channel named the operation.
    expect(await serverRow(ids[0] as string)).toBeDefined();
  });

  it('a refresh that fails after the list loaded shows a stale notice with Retry (announced) and keeps the list', async () => {
    await seed([{}, {}]);
    const page = await load({ bell: '' });
    await openBell(page);
    const host = bell(page);
    for (let count = 0; count < 4; count += 1) suite.server.failNext('GET', /^\/notification\/notifications/, 503, 'UNAVAILABLE');
    await page.evaluate(() => (window as unknown as { notifications: { refresh(): Promise<void> } }).notifications.refresh());
    const stale = host.locator('[part="stale"]');
    await expect.poll(() => stale.isVisible()).toBe(true);
    await expect.poll(() => stale.textContent()).toContain("Couldn't refresh. The list may be out of date.");
    await expect.poll(() => status(host)).toBe("Couldn't refresh. The list may be out of date.");
    expect(await itemIds(host)).toEqual(ids);
    expect(await host.locator('[part="error"]').count()).toBe(0);
    await page.screenshot({ path: join(screenshotDir, 'inbox-stale.png') });
    suite.server.failures.splice(0);
    await stale.locator('[part="retry"]').click();
    await expect.poll(() => stale.count()).toBe(0);
    expect(await itemIds(host)).toEqual(ids);
  });

  it('a 401 shows the signed-out message, not the generic error', async () => {
    await seed([{}]);
    const page = await load({ bell: '' });
    await openBell(page);
    const host = bell(page);
    suite.server.signedIn = false;
    await page.evaluate(() => (window as unknown as { notifications: { refresh(): Promise<void> } }).notifications.refresh());
    const signedOut = host.locator('[part="signed-out"]');
    await expect.poll(() => signedOut.textContent()).toBe("You're signed out. Sign in again to see your notifications.");
    await expect.poll(() => signedOut.getAttribute('role')).toBe('alert');
    expect(await host.locator('[part="error"], [part="stale"]').count()).toBe(0);
    // Nothing offered that can only fail while signed out.
    expect(await host.locator('[part="mark-all-read"], [part="delete-all"], article.item').count()).toBe(0);
    await page.screenshot({ path: join(screenshotDir, 'inbox-signed-out.png') });
  });

  it('items arriving while the list is scrolled wait behind an announced pill; what the user reads does not move; the pill reveals them', async () => {
    await seed(Array.from({ length: 15 }, () => ({ message: 'Something happened that takes a line or two to describe.' })));
    const page = await load({ bell: `${LIVE} per-page="20"` });
    await expect.poll(() => suite.server.hubClients).toBe(1);
    await openBell(page);
    const host = bell(page);
    await expect.poll(() => itemIds(host)).toHaveLength(15);

    const firstVisible = () =>
      page.evaluate(() => {
        const root = document.querySelector('notification-bell')?.shadowRoot;
        const scroller = root?.querySelector('.scroller') as HTMLElement;
        const top = scroller.getBoundingClientRect().top;
        const visible = [...root!.querySelectorAll<HTMLElement>('article.item')].find((element) => element.getBoundingClientRect().bottom > top + 1);
        return { id: visible?.dataset.id, top: visible?.getBoundingClientRect().top };
      });
    await page.locator('notification-bell .scroller').evaluate((element) => element.scrollBy(0, 300));
    const before = await firstVisible();
    expect(before.id).not.toBe(ids[0]);

    const arrived = await suite.server.create({ title: 'Fresh arrival' });
    const pill = host.locator('[part="new-items"]');
    await expect.poll(() => pill.textContent().then((text) => text?.trim())).toBe('1 new notification');
    await expect.poll(() => status(host)).toBe('1 new notification');
    // Held back: not in the list yet, and the item being read did not move.
    expect(await itemIds(host)).not.toContain(arrived.id);
    expect(await firstVisible()).toEqual(before);
    await page.screenshot({ path: join(screenshotDir, 'inbox-new-items-pill.png') });

    // Keyboard: from the item being read, Home goes to the top, revealing the held items; focus on the newest.
    await page.locator(`notification-bell article.item[data-id="${before.id}"] .main`).focus();
    await page.keyboard.press('Home');
    await expect.poll(() => itemIds(host).then((list) => list[0])).toBe(arrived.id);
    await expect.poll(() => pill.count()).toBe(0);
    await expect.poll(() => page.locator('notification-bell .scroller').evaluate((element) => element.scrollTop)).toBe(0);
    await expect.poll(() => focusDescription(page)).toBe(`notification-bell > item-link@${arrived.id}`);

    // Pointer: another arrival while scrolled; scrolling back to the top shows it without the pill too.
    await page.locator('notification-bell .scroller').evaluate((element) => element.scrollBy(0, 300));
    const second = await suite.server.create({ title: 'Second arrival' });
    await expect.poll(() => pill.isVisible()).toBe(true);
    await pill.click();
    await expect.poll(() => itemIds(host).then((list) => list[0])).toBe(second.id);
    await expect.poll(() => page.locator('notification-bell .scroller').evaluate((element) => element.scrollTop)).toBe(0);
    await expect.poll(() => focusDescription(page)).toBe(`notification-bell > item-link@${second.id}`);
    // The pill is in the tab order too (first in the list), and Enter on it reveals.
    await page.locator('notification-bell .scroller').evaluate((element) => element.scrollBy(0, 300));
    const fourth = await suite.server.create({ title: 'Fourth arrival' });
    await expect.poll(() => pill.isVisible()).toBe(true);
    await pill.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => itemIds(host).then((list) => list[0])).toBe(fourth.id);
    await expect.poll(() => focusDescription(page)).toBe(`notification-bell > item-link@${fourth.id}`);
    await page.locator('notification-bell .scroller').evaluate((element) => element.scrollBy(0, 300));
    const third = await suite.server.create({ title: 'Third arrival' });
    await expect.poll(() => pill.isVisible()).toBe(true);
    await page.locator('notification-bell .scroller').evaluate((element) => element.scrollTo(0, 0));
    await expect.poll(() => itemIds(host).then((list) => list[0])).toBe(third.id);
    await expect.poll(() => pill.count()).toBe(0);
  });

  it('a bell and an inline <notification-feed> share the store: a change in one shows in the other, with one connection', async () => {
    await seed([{ title: 'First' }, { title: 'Second' }, { title: 'Third' }]);
    const page = await load({ bell: LIVE, feed: LIVE });
    await expect.poll(() => suite.server.hubClients).toBe(1);
    const inline = feed(page);
    const host = bell(page);
    await expect.poll(() => itemIds(inline)).toEqual(ids);

    // Mark read in the feed: the bell's count and its item follow.
    await item(inline, ids[0] as string).hover();
    await item(inline, ids[0] as string).locator('[part="mark-read"]').click();
    await expect.poll(() => host.locator('button.bell').getAttribute('aria-label')).toBe('Notifications, 2 unread');
    await openBell(page);
    await expect.poll(() => item(host, ids[0] as string).getAttribute('class')).toContain(' read');

    // Delete in the bell: gone from the feed.
    await item(host, ids[1] as string).hover();
    await item(host, ids[1] as string).locator('[part="delete"]').click();
    await expect.poll(() => itemIds(inline)).toEqual([ids[0], ids[2]]);
    // Each element has its own tab: the feed shows Unread while the bell stays on All.
    await inline.locator('[role="tab"]', { hasText: 'Unread' }).click();
    await expect.poll(() => itemIds(inline)).toEqual([ids[2]]);
    expect(await selectedTab(host)).toBe('All');

    // A live arrival reaches both, and is announced once for the page.
    const arrived = await suite.server.create({ title: 'Live to both' });
    await expect.poll(() => itemIds(inline).then((list) => list[0])).toBe(arrived.id);
    // (The click in the feed closed the dropdown, as any click outside it does.)
    await openBell(page);
    await expect.poll(() => itemIds(host).then((list) => list[0])).toBe(arrived.id);
    // Exactly one status region on the page says it (the first element connected speaks for the store).
    await expect.poll(async () => [await status(host), await status(inline)].filter((text) => text === '1 new notification').length).toBe(1);
    await page.waitForTimeout(1200); // past the announcer's debounce: the other one stays silent
    expect([await status(host), await status(inline)].sort()).toEqual(['', '1 new notification']);
    // One connection for the page's store.
    expect(suite.server.hubClients).toBe(1);
    expect(suite.server.requests.filter((request) => request.path.startsWith(HUB_PATH))).toHaveLength(1);
  });

  it('follows broadcasting.userId when user-id is absent, and reconnects when a connection option changes', async () => {
    await seed([{}]);
    const page = await load({ bell: `broadcasting='{"broadcaster":"sse-hub","hubUrl":"${HUB_PATH}","userId":"${USER_ID}"}'` });
    await expect.poll(() => suite.server.hubClients).toBe(1);
    expect(suite.server.requests.some((request) => request.path === `${HUB_PATH}?topic=${encodeURIComponent(`/users/${USER_ID}/notifications`)}`)).toBe(true);
    const arrived = await suite.server.create({ title: 'Live without user-id' });
    await expect.poll(() => page.evaluate(() => (window as unknown as { notifications: { items: Array<{ id: string }> } }).notifications.items[0]?.id)).toBe(arrived.id);

    // Another page size: the shared connection is rebuilt: the store takes the new size and page 1 is fetched again.
    suite.server.requests.splice(0);
    await page.evaluate(() => {
      (document.querySelector('notification-bell') as HTMLElement & { perPage: number }).perPage = 7;
    });
    await expect.poll(() => page.evaluate(() => (window as unknown as { notifications: { perPage: number } }).notifications.perPage)).toBe(7);
    await expect.poll(() => suite.server.requests.some((request) => request.method === 'GET' && request.path.startsWith('/notification/notifications.json?page=1'))).toBe(true);
    // A render that changes no connection option does not reconnect.
    const listRequests = () => suite.server.requests.filter((request) => request.path.startsWith('/notification/notifications.json')).length;
    await expect.poll(() => suite.server.hubClients).toBe(1);
    // The live connection's open resyncs after the first load (a refresh queued behind the one in flight): let it land.
    await expect
      .poll(async () => {
        const count = listRequests();
        await page.waitForTimeout(300);
        return listRequests() === count;
      })
      .toBe(true);
    const before = listRequests();
    await page.locator('notification-bell button.bell').click();
    await page.locator('notification-bell button.bell').click();
    await page.waitForTimeout(300);
    expect(listRequests()).toBe(before);
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`the inline feed passes axe (${theme}); screenshot`, async () => {
      await seed([
        { title: 'Deploy finished', message: 'api-gateway is live on production.', icon: 'check', read_at: '2025-01-01T13:00:00Z' },
        { title: 'Access request from Sam', message: 'Write access to billing.', actions: [{ name: 'ok', label: 'Approve', event: 'ok', type: 'success', icon: 'check' }, { name: 'no', label: 'Decline', event: 'no', color: 'danger' }] },
        { title: 'New comment on your post', message: 'Looks good to me!', icon: 'message', action_url: '/target/1' },
      ]);
      const page = await load({ bell: null, feed: `theme="${theme}"`, theme });
      await expect.poll(() => itemIds(feed(page))).toHaveLength(3);
      await page.addScriptTag({ url: '/axe.js' });
      const violations = await page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run(context?: unknown, options?: unknown): Promise<{ violations: Array<{ id: string; impact: string | null; nodes: unknown[] }> }> } }).axe;
        const result = await axe.run(document, { resultTypes: ['violations'] });
        return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, nodes: violation.nodes.length }));
      });
      console.log(`[notification-bell] axe inline feed/${theme}: ${violations.length} violation(s) ${JSON.stringify(violations)}`);
      expect(violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')).toEqual([]);
      await page.screenshot({ path: join(screenshotDir, `inbox-feed-${theme}.png`) });
    });
  }
});
