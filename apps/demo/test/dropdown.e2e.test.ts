import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchChromium, runBrowserTests } from './helpers/chromium.js';
import { badge, bellButton, focusedInBell, items, panel, signedInContext, waitForUnread } from './helpers/demo-page.js';
import type { SignedInContext } from './helpers/demo-page.js';
import { startStack } from './helpers/stack.js';
import type { DemoStack } from './helpers/stack.js';

describe.runIf(runBrowserTests)('demo page, dropdown mode, in headless Chromium', () => {
  let browser: Browser;
  let stack: DemoStack;
  let user: SignedInContext;

  beforeAll(async () => {
    [browser, stack] = await Promise.all([launchChromium(), startStack()]);
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    // 14 samples, the 2 oldest read: 12 unread, 3 pages of 5.
    await stack.seed(14);
    user = await signedInContext(browser, stack.url);
  });
  afterEach(async () => {
    await user?.context.close();
    expect(user?.errors).toEqual([]);
  });

  it('shows the unread count in the badge and in the bell button name', async () => {
    const page = await user.open('/?polling=off');
    await expect.poll(() => badge(page).textContent()).toBe('12');
    await expect(bellButton(page).getAttribute('aria-label')).resolves.toBe('Notifications, 12 unread');
    await expect(page.getByRole('button', { name: 'Notifications, 12 unread' }).count()).resolves.toBe(1);
  });

  it('opens the dropdown as a non-modal dialog with the first page of items', async () => {
    const page = await user.open('/?polling=off');
    await expect(bellButton(page).getAttribute('aria-expanded')).resolves.toBe('false');
    await bellButton(page).click();
    await expect(bellButton(page).getAttribute('aria-expanded')).resolves.toBe('true');
    await expect(panel(page).isVisible()).resolves.toBe(true);
    await expect(panel(page).getAttribute('role')).resolves.toBe('dialog');
    await expect(panel(page).getAttribute('aria-modal')).resolves.toBeNull();
    // The list's code loads on first open: wait for it to render.
    await expect.poll(() => items(page).count()).toBe(5);
    // Newest first: the last sample created is on top.
    await expect.poll(() => items(page).first().locator('.title').textContent()).toContain('(2)');
  });

  it('clicking an item sends the PATCH, drops the count, fires marked-read and follows its link', async () => {
    const page = await user.open('/?polling=off');
    await bellButton(page).click();
    const first = items(page).first();
    const id = await first.getAttribute('data-id');
    const href = await first.locator('a.main').getAttribute('href');
    expect(href).toMatch(/^\/inbox\//);
    const patch = page.waitForRequest((request) => request.method() === 'PATCH' && request.url().endsWith(`/notification/notifications/${id}/read.json`));
    const navigation = page.waitForURL(`**${href}`);
    await first.locator('a.main').click();
    const request = await patch;
    expect(request.headers()['x-csrf-token']).toBeTruthy();
    await navigation;
    await expect.poll(() => page.locator('h1').textContent()).toBe('You followed a notification');
    await expect.poll(() => user.events).toContainEqual({ name: 'notification:marked-read', detail: { notificationId: id }, tab: 0 });
    await expect(stack.unreadCount()).resolves.toBe(11);
    // Back on the demo page, the server's count is the one shown.
    await page.goto('/?polling=off');
    await waitForUnread(page, 11);
  });

  it('marks all read: the badge goes away, the event fires and the server agrees', async () => {
    const page = await user.open('/?polling=off');
    await bellButton(page).click();
    const patch = page.waitForRequest((request) => request.method() === 'PATCH' && request.url().endsWith('/notification/notifications/mark-all-read.json'));
    await page.locator('notification-bell [part="mark-all-read"]').click();
    await patch;
    await waitForUnread(page, 0);
    await expect(badge(page).count()).resolves.toBe(0);
    await expect(page.locator('notification-bell article.item.unread').count()).resolves.toBe(0);
    await expect.poll(() => user.events.map((event) => event.name)).toContain('notification:all-marked-read');
    await expect.poll(() => stack.unreadCount()).toBe(0);
  });

  it('loads more pages until there are none left', async () => {
    const page = await user.open('/?polling=off');
    await bellButton(page).click();
    const loadMore = page.locator('notification-bell [part="load-more"]');
    await loadMore.click();
    await expect.poll(() => items(page).count()).toBe(10);
    await loadMore.click();
    await expect.poll(() => items(page).count()).toBe(14);
    await expect(loadMore.count()).resolves.toBe(0);
    // The two oldest samples were seeded as read.
    await expect(page.locator('notification-bell article.item.read').count()).resolves.toBe(2);
  });

  it('deletes an item: DELETE sent, item gone, count drops, event fired', async () => {
    const page = await user.open('/?polling=off');
    await bellButton(page).click();
    const first = items(page).first();
    const id = await first.getAttribute('data-id');
    const request = page.waitForRequest((r) => r.method() === 'DELETE' && r.url().endsWith(`/notification/notifications/${id}.json`));
    await first.locator('[part="delete"]').click();
    await request;
    await expect.poll(() => page.locator(`notification-bell article[data-id="${id}"]`).count()).toBe(0);
    await waitForUnread(page, 11);
    await expect.poll(() => user.events).toContainEqual({ name: 'notification:deleted', detail: { notificationId: id }, tab: 0 });
    await expect(stack.unreadCount()).resolves.toBe(11);
  });

  it("an action button with an event dispatches it with the action's data (the demo shows it)", async () => {
    await stack.seed(3, 0);
    const page = await user.open('/?polling=off');
    await bellButton(page).click();
    const request = page.locator('notification-bell article.item', { hasText: 'Charles asks for access' });
    await request.hover();
    await request.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => page.locator('#send-status').textContent()).toMatch(/^Approved request 7 \(from notification [0-9a-f-]{36}\)\.$/);
  });

    it('is usable with the keyboard alone: Tab to the bell, Enter, arrows, Enter follows the item', async () => {
    const page = await user.open('/?polling=off');
    // From the top of the page, Tab until the bell button has focus.
    let presses = 0;
    while ((await focusedInBell(page)) !== 'button.bell') {
      await page.keyboard.press('Tab');
      presses += 1;
      expect(presses).toBeLessThan(10);
    }
    await page.keyboard.press('Enter');
    // The list's code loads on first open, so focus moves in once it has rendered.
    await expect.poll(() => panel(page).isVisible()).toBe(true);
    await expect.poll(() => focusedInBell(page)).not.toBe('button.bell');
    // Tab reaches the first item, whose actions show while it has focus.
    while (!(await focusedInBell(page)).startsWith('a.main')) {
      await page.keyboard.press('Tab');
      presses += 1;
      expect(presses).toBeLessThan(20);
    }
    await expect(items(page).first().locator('[part="delete"]').isVisible()).resolves.toBe(true);
    await page.keyboard.press('ArrowDown');
    const second = items(page).nth(1);
    const secondHref = await second.locator('a.main').getAttribute('href');
    await expect
      .poll(() => page.evaluate(() => document.querySelector('notification-bell')?.shadowRoot?.activeElement?.closest('article')?.getAttribute('data-id') ?? null))
      .toBe(await second.getAttribute('data-id'));
    // Escape closes and returns to the bell; Enter reopens; Enter on an item follows it.
    await page.keyboard.press('Escape');
    await expect(panel(page).isHidden()).resolves.toBe(true);
    await expect(focusedInBell(page)).resolves.toBe('button.bell');
    await page.keyboard.press('Enter');
    while (!(await focusedInBell(page)).startsWith('a.main')) {
      await page.keyboard.press('Tab');
      presses += 1;
      expect(presses).toBeLessThan(40);
    }
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForURL(`**${secondHref}`);
    await expect(stack.unreadCount()).resolves.toBe(11);
  });
});
