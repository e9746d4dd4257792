import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchChromium, runBrowserTests } from './helpers/chromium.js';
import { bellButton, csrfToken, items, signedInContext, waitForUnread } from './helpers/demo-page.js';
import type { SignedInContext } from './helpers/demo-page.js';
import { channelSubscriptionCount } from './helpers/realtime.js';
import { startStack } from './helpers/stack.js';
import type { DemoStack } from './helpers/stack.js';

/** Every Pusher frame the page's WebSocket receives, parsed. */
function recordFrames(page: Page): Array<{ event: string; data: string }> {
  const frames: Array<{ event: string; data: string }> = [];
  page.on('websocket', (socket) => {
    socket.on('framereceived', ({ payload }) => {
      try {
        const frame = JSON.parse(String(payload)) as { event: string; data: unknown };
        frames.push({ event: frame.event, data: typeof frame.data === 'string' ? frame.data : JSON.stringify(frame.data) });
      } catch {
        // Not a Pusher frame.
      }
    });
  });
  return frames;
}

describe.runIf(runBrowserTests)('demo page, live updates through the realtime daemon', () => {
  let browser: Browser;
  let stack: DemoStack;
  let user: SignedInContext;
  const others: SignedInContext[] = [];

  beforeAll(async () => {
    [browser, stack] = await Promise.all([launchChromium(), startStack()]);
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    await stack.seed(4, 1);
    user = await signedInContext(browser, stack.url);
  });
  afterEach(async () => {
    for (const context of [user, ...others.splice(0)]) {
      await context.context.close();
      expect(context.errors).toEqual([]);
    }
    // Every tab's connection is gone before the next test counts subscriptions.
    await expect.poll(() => channelSubscriptionCount(stack), { timeout: 5_000 }).toBe(0);
  });

  /** Opens the page with polling off and waits until its pusher-js connection holds the user's channel. */
  async function openLive(context: SignedInContext, subscribers: number, path = '/?polling=off') {
    // Frames are recorded from the page's creation on, so the subscription is seen too.
    const recording = new Promise<Array<{ event: string; data: string }>>((resolve) => context.context.once('page', (page) => resolve(recordFrames(page))));
    const page = await context.open(path);
    const frames = await recording;
    await expect.poll(() => channelSubscriptionCount(stack), { timeout: 10_000 }).toBe(subscribers);
    await expect.poll(() => frames.some((frame) => frame.event === 'pusher_internal:subscription_succeeded'), { timeout: 5_000 }).toBe(true);
    return { page, frames };
  }

  it('a notification sent from the form arrives through pusher-js within a second, without polling or reload', async () => {
    const { page, frames } = await openLive(user, 1);
    await waitForUnread(page, 3);
    const listRequests: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'GET' && request.url().includes('/notification/notifications')) listRequests.push(request.url());
    });
    await page.evaluate(() => ((window as unknown as { __samePage: boolean }).__samePage = true));

    await page.fill('#send-title-input', 'Deploy finished');
    await page.fill('#send-message', 'Version 2.1 is live.');
    const sent = page.waitForResponse((response) => response.url().endsWith('/demo/notifications') && response.status() === 201);
    const clickedAt = Date.now();
    await page.click('#send-form button[type="submit"]');
    const body = (await (await sent).json()) as { notification: { id: string } };
    const sentAt = Date.now();

    await expect.poll(() => user.events.find((event) => event.name === 'notification:received')?.detail?.id, { timeout: 1_000 }).toBe(body.notification.id);
    console.log(`[demo e2e] form click -> notification:received in the bell: ${Date.now() - clickedAt} ms (POST answered after ${sentAt - clickedAt} ms)`);
    await waitForUnread(page, 4, 1_000);
    await expect.poll(() => page.locator('#send-status').textContent()).toBe('Sent “Deploy finished”.');

    // It came over the WebSocket, not from a poll, and the page never reloaded.
    expect(frames.some((frame) => frame.event === 'notification.created' && frame.data.includes(body.notification.id))).toBe(true);
    expect(listRequests).toEqual([]);
    await expect(page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).resolves.toBe(true);
    await bellButton(page).click();
    await expect.poll(() => items(page).first().locator('.title').textContent()).toContain('Deploy finished');
    await expect.poll(() => items(page).first().locator('.message').textContent()).toBe('Version 2.1 is live.');
  });

  it('a notification sent by the server (HTTP call from elsewhere) appears live in the open page', async () => {
    const { page } = await openLive(user, 1);
    const response = await user.context.request.post('/demo/notifications', {
      headers: { 'X-CSRF-Token': await csrfToken(page), accept: 'application/json' },
      data: { title: 'Backup complete', message: '<b>not bold</b>', icon: 'info' },
    });
    expect(response.status()).toBe(201);
    await waitForUnread(page, 4, 1_000);
    await bellButton(page).click();
    // Message text is rendered as text, never as HTML.
    await expect.poll(() => items(page).first().locator('.message').textContent()).toBe('<b>not bold</b>');
    await expect(page.locator('notification-bell .message b').count()).resolves.toBe(0);
  });

  it('a mark-read in one tab shows in the second tab, in both directions', async () => {
    const first = await openLive(user, 1);
    // The second tab of the same browser gets events relayed by the first (one connection per browser).
    const second = await user.open('/?polling=off');
    await expect(channelSubscriptionCount(stack)).resolves.toBe(1);
    await waitForUnread(second, 3);

    await bellButton(first.page).click();
    const firstId = await first.page.locator('notification-bell article.item.unread').first().getAttribute('data-id');
    await first.page.locator(`notification-bell article[data-id="${firstId}"] [part="mark-read"]`).click();
    await waitForUnread(second, 2);
    await expect.poll(() => user.events).toContainEqual({ name: 'notification:marked-read', detail: { notificationId: firstId }, tab: 1 });

    await bellButton(second).click();
    const secondId = await second.locator('notification-bell article.item.unread').first().getAttribute('data-id');
    await second.locator(`notification-bell article[data-id="${secondId}"] [part="mark-read"]`).click();
    await waitForUnread(first.page, 1);
    await expect(first.page.locator(`notification-bell article[data-id="${secondId}"]`).getAttribute('class')).resolves.toContain(' read');
    await expect(stack.unreadCount()).resolves.toBe(1);
  });

  it('another browser (its own session and connection) sees a mark-read and a delete-all through the daemon', async () => {
    const { page } = await openLive(user, 1);
    const other = await signedInContext(browser, stack.url);
    others.push(other);
    const { page: otherPage } = await openLive(other, 2);

    await bellButton(otherPage).click();
    const id = await otherPage.locator('notification-bell article.item.unread').first().getAttribute('data-id');
    await otherPage.locator(`notification-bell article[data-id="${id}"] [part="mark-read"]`).click();
    await waitForUnread(page, 2);
    await expect.poll(() => user.events).toContainEqual({ name: 'notification:marked-read', detail: { notificationId: id }, tab: 0 });

    // "Delete all" in the other browser: the first one empties live (notification.all-deleted).
    await otherPage.click('#delete-all');
    await expect.poll(() => otherPage.locator('#send-status').textContent()).toBe('Deleted 4 notifications.');
    await waitForUnread(page, 0);
    await expect.poll(() => user.events.map((event) => event.name)).toContain('notification:all-deleted');
    await bellButton(page).click();
    await expect.poll(() => page.locator('notification-bell [part="empty"]').isVisible()).toBe(true);
    await expect(items(page).count()).resolves.toBe(0);
  });
});
