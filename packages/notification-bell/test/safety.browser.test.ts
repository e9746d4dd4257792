import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HUB_PATH, USER_ID, launchChromium, runBrowserTests, startServer } from './harness.js';
import type { TestServer } from './harness.js';
import { uiPage, waitForLoad } from './ui-helpers.js';

/*
 * No script from data. The API refuses unsafe URLs when a notification is
 * stored, so these come in the ways that bypass it: the page's own store
 * (`notifications.addNotification`), a live push (SSE), and rows written
 * straight into the database (an older server, another writer). Every
 * click and Enter on the item and its actions must run nothing: no
 * `window.__pwned`, no dialog, no navigation, no popup, and no `href` with
 * those schemes anywhere in the shadow DOM.
 */

const PAYLOAD = 'window.__pwned=1;alert(1)';
const UNSAFE_URLS = [
  `javascript:${PAYLOAD}`,
  `JaVaScRiPt:${PAYLOAD}`,
  `data:text/html,<script>opener.__pwned=1;parent.__pwned=1;alert(1)</script>`,
  'vbscript:msgbox(1)',
  ` javascript:${PAYLOAD}`,
  `java\tscript:${PAYLOAD}`,
  `\u0000javascript:${PAYLOAD}`,
];
const HTML_TEXT = '<img src=x onerror="window.__pwned=1;alert(1)">';

function unsafeRow(url: string, index: number) {
  return {
    id: `unsafe-${index}`,
    title: `${HTML_TEXT} title ${index}`,
    message: `${HTML_TEXT} message ${index}`,
    action_url: url,
    read_at: null,
    created_at: new Date(Date.UTC(2025, 0, 1, 12, index)).toISOString(),
    actions: [
      { name: 'same-tab', label: `Open ${index}`, url, event: 'safe-event' },
      { name: 'new-tab', label: `New tab ${index}`, url, openInNewTab: true },
    ],
  };
}

describe.runIf(runBrowserTests)('unsafe URLs and HTML in notifications run nothing', () => {
  let browser: Browser;
  let server: TestServer;
  let context: BrowserContext;
  let dialogs: string[];
  let popups: number;

  beforeAll(async () => {
    [browser, server] = await Promise.all([launchChromium(), startServer()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  beforeEach(async () => {
    dialogs = [];
    popups = 0;
    context = await browser.newContext({ viewport: { width: 1024, height: 900 }, locale: 'en-US' });
    context.on('page', () => {
      popups += 1;
    });
    await context.addInitScript(() => {
      const state = window as unknown as { __safeEvents: number };
      state.__safeEvents = 0;
      window.addEventListener('safe-event', () => {
        state.__safeEvents += 1;
      });
    });
  });
  afterEach(async () => {
    await context?.close();
  });

  async function openPage(live = false): Promise<Page> {
    server.html = uiPage({ bell: live ? `user-id="${USER_ID}" broadcasting='{"broadcaster":"sse-hub","hubUrl":"${HUB_PATH}"}' per-page="20"` : 'per-page="20"' });
    const page = await context.newPage();
    popups = 0; // the page itself is not a popup
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(server.url);
    await waitForLoad(page);
    return page;
  }

  /** Clicks and presses Enter on every item and action, then checks that nothing ran. */
  async function tryEverything(page: Page, expectedItems: number): Promise<void> {
    const start = page.url();
    await page.locator('notification-bell button.bell').click();
    const items = page.locator('notification-bell article.item');
    await expect.poll(() => items.count()).toBe(expectedItems);

    // No href with an unsafe scheme exists; unsafe items are buttons, not links.
    const hrefs = await page.evaluate(() => [...(document.querySelector('notification-bell')?.shadowRoot?.querySelectorAll('[href]') ?? [])].map((element) => element.getAttribute('href')));
    for (const href of hrefs) expect(new URL(href ?? '', location.href).protocol, String(href)).toMatch(/^https?:$/);
    expect(await page.locator('notification-bell a.main').count()).toBe(0);
    // HTML in titles and messages is text.
    expect(await page.locator('notification-bell img').count()).toBe(0);
    await expect.poll(() => page.locator('notification-bell .title').first().textContent()).toContain('<img src=x onerror=');
    await expect.poll(() => page.locator('notification-bell .message').first().textContent()).toContain('<img src=x onerror=');

    for (let index = 0; index < expectedItems; index += 1) {
      const item = items.nth(index);
      await item.locator('.main').click();
      await item.locator('.main').focus();
      await page.keyboard.press('Enter');
      for (const action of await item.locator('.action').all()) {
        await action.click();
        await action.focus();
        await page.keyboard.press('Enter');
      }
    }
    // Give any navigation or timer a moment to happen before checking that none did.
    await page.waitForTimeout(300);
    expect(page.url()).toBe(start);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(popups).toBe(0);
    // The actions' events still fire (two "same-tab" presses per item): only the URL is refused.
    expect(await page.evaluate(() => (window as unknown as { __safeEvents: number }).__safeEvents)).toBe(expectedItems * 2);
  }

  it('added through the page store (notifications.addNotification)', async () => {
    await server.seed([]);
    const page = await openPage();
    await page.evaluate((rows) => {
      for (const row of rows) (window as unknown as { notifications: { addNotification(raw: unknown): void } }).notifications.addNotification(row);
    }, UNSAFE_URLS.map(unsafeRow));
    await tryEverything(page, UNSAFE_URLS.length);
  });

  it('pushed live over the SSE hub', async () => {
    await server.seed([]);
    const page = await openPage(true);
    await expect.poll(() => server.hubClients).toBe(1);
    for (const [index, url] of UNSAFE_URLS.entries()) {
      // A real row (so marking it read succeeds), pushed with unsafe content as a rogue or older sender could.
      const stored = await server.create({ title: 'placeholder' }, { broadcast: false });
      server.push('notification.created', { ...unsafeRow(url, index), id: stored.id, unread_count: index + 1 });
    }
    await expect.poll(() => page.evaluate(() => (window as unknown as { notifications: { items: unknown[] } }).notifications.items.length)).toBe(UNSAFE_URLS.length);
    await tryEverything(page, UNSAFE_URLS.length);
  });

  it('stored past the API validation (rows written straight to the database)', async () => {
    // PostgreSQL text cannot hold NUL, so that one cannot come from the database.
    const storable = UNSAFE_URLS.filter((url) => !url.includes('\u0000'));
    await server.seed(
      storable.map((url, index) => {
        const { id: _id, read_at: _read, created_at: _created, ...row } = unsafeRow(url, index);
        return row;
      }),
      { unchecked: true },
    );
    const page = await openPage();
    await tryEverything(page, storable.length);
  });
});
