import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type * as BellLib from '../src/index.js';
import type { AppNotification } from '../src/types.js';
import { CSRF_TOKEN, hubTopic, launchChromium, runBrowserTests, screenshotDir, startServer, testPage, USER_ID } from './harness.js';
import type { PageOptions, SeedRow, TestServer } from './harness.js';

const RECORDED_EVENTS = [
  'notification:marked-read',
  'notification:all-marked-read',
  'notification:received',
  'notification:deleted',
  'notification:error',
  'approve-request',
];

interface Recorded {
  name: string;
  detail: unknown;
}

describe.runIf(runBrowserTests)('<notification-bell> in headless Chromium', () => {
  let browser: Browser;
  let server: TestServer;
  let context: BrowserContext;
  let events: Recorded[];

  beforeAll(async () => {
    [browser, server] = await Promise.all([launchChromium(), startServer()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  beforeEach(async () => {
    events = [];
    context = await browser.newContext({ viewport: { width: 1024, height: 700 }, locale: 'en-US' });
    await context.exposeBinding('__record', (_source, name: string, detail: unknown) => {
      events.push({ name, detail });
    });
    await context.addInitScript((names: string[]) => {
      for (const name of names) {
        window.addEventListener(name, (event) => {
          const detail = (event as CustomEvent).detail as Record<string, unknown> | null;
          // The error object itself does not survive serialisation; keep its fields.
          const safe = detail && typeof detail === 'object' ? { ...detail, error: undefined } : detail;
          void (window as unknown as { __record(n: string, d: unknown): Promise<void> }).__record(name, JSON.parse(JSON.stringify(safe ?? null)));
        });
      }
    }, RECORDED_EVENTS);
  });
  afterEach(async () => {
    await context?.close();
  });

  /** `count` rows titled `Notification 1`..`Notification <count>`; the last is the newest. */
  function seed(count: number, extra: (index: number) => SeedRow = () => ({})): SeedRow[] {
    return Array.from({ length: count }, (_, index) => ({ key: String(index + 1), ...extra(index) }));
  }
  /** The stored (UUID) id of the seeded row with this title. */
  function idOf(rows: readonly AppNotification[], title: string): string {
    const row = rows.find((candidate) => candidate.title === title);
    if (!row) throw new Error(`no seeded row titled ${JSON.stringify(title)}`);
    return row.id;
  }
  const item = (page: Page, id: string) => page.locator(`notification-bell article[data-id="${id}"]`);
  /** The bell's live connection to the test server's SSE hub, on the signed-in user's topic. */
  const HUB_ATTRIBUTES = `enable-polling="false" user-id="${USER_ID}" broadcasting='{"broadcaster":"sse-hub","hubUrl":"/hub"}'`;

  async function load(options: PageOptions = {}, path = '/'): Promise<Page> {
    server.html = testPage({ attributes: 'enable-polling="false"', ...options });
    const page = await context.newPage();
    await page.goto(`${server.url}${path}`);
    await page.waitForFunction(() => {
      const bell = document.querySelector('notification-bell') as (HTMLElement & { store?: { hasLoaded: boolean } }) | null;
      return bell?.store?.hasLoaded === true;
    });
    return page;
  }

  const bellButton = (page: Page) => page.locator('notification-bell button.bell');
  const panel = (page: Page) => page.locator('notification-bell .panel');
  const items = (page: Page) => page.locator('notification-bell article.item');
  /** The data-id of the item holding focus in the bell, if any. */
  const focusedItemId = (page: Page) =>
    page.evaluate(() => document.querySelector('notification-bell')?.shadowRoot?.activeElement?.closest('article')?.getAttribute('data-id') ?? null);
  /** Which element of the bell's shadow root has focus ('' when focus is outside the bell). */
  const focusedInBell = (page: Page) =>
    page.evaluate(() => {
      const host = document.querySelector('notification-bell');
      const active = host?.shadowRoot?.activeElement;
      return document.activeElement === host && active ? `${active.tagName.toLowerCase()}.${active.className}` : '';
    });

  it('shows the count in the badge (capped at 99+) and the real count in the accessible name', async () => {
    await server.seed(seed(3));
    let page = await load();
    await expect.poll(() => bellButton(page).getAttribute('aria-label')).toBe('Notifications, 3 unread');
    await expect.poll(() => page.locator('notification-bell [part="badge"]').textContent()).toBe('3');
    await expect.poll(() => page.getByRole('button', { name: 'Notifications, 3 unread' }).count()).toBe(1);
    await expect.poll(() => bellButton(page).getAttribute('aria-haspopup')).toBe('dialog');
    await page.close();

    await server.seed(seed(150));
    page = await load();
    await expect.poll(() => page.locator('notification-bell [part="badge"]').textContent()).toBe('99+');
    await expect.poll(() => page.locator('notification-bell [part="badge"]').getAttribute('aria-hidden')).toBe('true');
    await expect.poll(() => bellButton(page).getAttribute('aria-label')).toBe('Notifications, 150 unread');
  });

  it('uses unread-count until the server answers, then the server count', async () => {
    await server.seed(seed(2));
    server.html = testPage({ attributes: 'enable-polling="false" unread-count="42"' });
    const page = await context.newPage();
    await page.route('**/notification/notifications.json*', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue();
    });
    await page.goto(server.url);
    await expect(page.locator('notification-bell button.bell[aria-label="Notifications, 42 unread"]').waitFor()).resolves.toBeUndefined();
    await page.locator('notification-bell button.bell[aria-label="Notifications, 2 unread"]').waitFor();
  });

  it('opens and closes a non-modal dropdown; Escape closes it and returns focus to the bell', async () => {
    const newest = idOf(await server.seed(seed(3, (index) => ({ title: `Item ${index + 1}`, message: index === 0 ? '<img src=x onerror="window.__xss=1">' : null }))), 'Item 3');
    const page = await load();
    await expect.poll(() => bellButton(page).getAttribute('aria-expanded')).toBe('false');
    const controls = await bellButton(page).getAttribute('aria-controls');
    await bellButton(page).click();
    await expect.poll(() => bellButton(page).getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => panel(page).isVisible()).toBe(true);
    await expect.poll(() => panel(page).getAttribute('id')).toBe(controls);
    await expect.poll(() => panel(page).getAttribute('role')).toBe('dialog');
    await expect.poll(() => panel(page).getAttribute('aria-modal')).toBeNull();
    await expect.poll(() => items(page).count()).toBe(3);
    // Focus moved into the dialog, to the first (newest) item.
    await expect.poll(() => focusedInBell(page)).toBe('button.main');
    await expect.poll(() => focusedItemId(page)).toBe(newest);
    // Messages are text, never HTML.
    await expect.poll(() => page.locator('notification-bell .message').first().textContent()).toBe('<img src=x onerror="window.__xss=1">');
    await expect(page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).resolves.toBeUndefined();
    await expect.poll(() => page.locator('notification-bell .feed').getAttribute('role')).toBe('feed');
    await expect.poll(() => page.locator('notification-bell [aria-live]').count()).toBe(1);

    await page.keyboard.press('Escape');
    await expect.poll(() => panel(page).isHidden()).toBe(true);
    await expect.poll(() => bellButton(page).getAttribute('aria-expanded')).toBe('false');
    await expect.poll(() => focusedInBell(page)).toBe('button.bell');

    // Clicking outside closes it too.
    await bellButton(page).click();
    await page.mouse.click(200, 400);
    await expect.poll(() => panel(page).isHidden()).toBe(true);
  });

  it('panel mode is a modal dialog with a backdrop and a focus trap', async () => {
    await server.seed(seed(2));
    const page = await load({ attributes: 'enable-polling="false" mode="panel"' });
    await bellButton(page).click();
    await expect.poll(() => panel(page).getAttribute('aria-modal')).toBe('true');
    await expect.poll(() => page.locator('notification-bell .backdrop').isVisible()).toBe(true);
    const seen = new Set<string>();
    for (let press = 0; press < 12; press += 1) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const root = document.querySelector('notification-bell')?.shadowRoot;
        const active = root?.activeElement;
        return active && root?.querySelector('.panel')?.contains(active) ? active.outerHTML.slice(0, 60) : 'ESCAPED';
      });
      expect(focused).not.toBe('ESCAPED');
      seen.add(focused);
    }
    expect(seen.size).toBeGreaterThan(3);
    await page.keyboard.press('Shift+Tab');
    await expect.poll(() => focusedInBell(page)).not.toBe('');
    // The backdrop closes the panel and focus returns to the bell.
    await page.mouse.click(50, 350);
    await expect.poll(() => panel(page).isHidden()).toBe(true);
    await expect.poll(() => focusedInBell(page)).toBe('button.bell');
  });

  it('clicking an item marks it read (PATCH with CSRF), fires marked-read, then follows action_url', async () => {
    const id = idOf(await server.seed(seed(3, (index) => ({ action_url: `/target/${index + 1}` }))), 'Notification 3');
    const page = await load();
    await bellButton(page).click();
    await item(page, id).locator('a.main').click();
    await page.waitForURL('**/target/3');
    const patch = server.requests.find((request) => request.method === 'PATCH');
    expect(patch).toMatchObject({ path: `/notification/notifications/${id}/read.json`, csrf: CSRF_TOKEN });
    await expect.poll(() => server.unreadCount()).toBe(2);
    await expect.poll(async () => (await server.rows()).find((row) => row.id === id)?.read_at).toEqual(expect.any(String));
    expect(events).toContainEqual({ name: 'notification:marked-read', detail: { notificationId: id } });
  });

  it('marks read without navigating when the item has no URL, and the count drops', async () => {
    const id = idOf(await server.seed(seed(3)), 'Notification 2');
    const page = await load();
    await bellButton(page).click();
    await item(page, id).locator('button.main').click();
    await page.locator('notification-bell button.bell[aria-label="Notifications, 2 unread"]').waitFor();
    await expect.poll(() => item(page, id).getAttribute('class')).toContain('read');
    await expect.poll(() => server.unreadCount()).toBe(2);
    expect(page.url()).toBe(`${server.url}/`);
  });

  it('rolls back a failed mark-read and emits notification:error', async () => {
    const id = idOf(await server.seed(seed(3)), 'Notification 2');
    server.failNext('PATCH', new RegExp(`/${id}/read\\.json$`), 500, 'INTERNAL');
    const page = await load();
    await bellButton(page).click();
    await item(page, id).locator('[part="mark-read"]').click();
    await expect.poll(() => events.find((event) => event.name === 'notification:error')?.detail).toMatchObject({ operation: 'markAsRead', notificationId: id, code: 'HTTP_ERROR' });
    await expect.poll(() => bellButton(page).getAttribute('aria-label')).toBe('Notifications, 3 unread');
    await expect.poll(() => item(page, id).getAttribute('class')).toContain('unread');
    expect(server.failures).toEqual([]);
    await expect(server.unreadCount()).resolves.toBe(3);
    expect(events.some((event) => event.name === 'notification:marked-read')).toBe(false);
  });

  it('marks all read', async () => {
    await server.seed(seed(4));
    const page = await load();
    await bellButton(page).click();
    await page.locator('notification-bell [part="mark-all-read"]').click();
    await page.locator('notification-bell button.bell[aria-label="Notifications"]').waitFor();
    await expect.poll(() => page.locator('notification-bell article.unread').count()).toBe(0);
    await expect.poll(() => page.locator('notification-bell [part="badge"]').count()).toBe(0);
    expect(server.requests.some((request) => request.method === 'PATCH' && request.path.endsWith('mark-all-read.json'))).toBe(true);
    await expect.poll(() => server.unreadCount()).toBe(0);
    await expect.poll(() => events.map((event) => event.name)).toContain('notification:all-marked-read');
  });

  it('loads more pages and announces how many were loaded', async () => {
    await server.seed(seed(25));
    const page = await load({ attributes: 'enable-polling="false" per-page="10"' });
    await bellButton(page).click();
    await expect.poll(() => items(page).count()).toBe(10);
    await expect.poll(() => items(page).first().getAttribute('aria-setsize')).toBe('-1');
    await page.locator('notification-bell [part="load-more"]').click();
    await expect.poll(() => items(page).count()).toBe(20);
    await expect.poll(() => page.locator('notification-bell [role="status"]').textContent()).toBe('Loaded 10 more notifications');
    await page.locator('notification-bell [part="load-more"]').click();
    await expect.poll(() => items(page).count()).toBe(25);
    await expect.poll(() => page.locator('notification-bell [part="load-more"]').count()).toBe(0);
    await expect.poll(() => items(page).last().getAttribute('aria-setsize')).toBe('25');
  });

  it('deletes an item', async () => {
    const id = idOf(await server.seed(seed(3)), 'Notification 1');
    const page = await load();
    await bellButton(page).click();
    await item(page, id).locator('[part="delete"]').click();
    await expect.poll(() => items(page).count()).toBe(2);
    await expect.poll(() => bellButton(page).getAttribute('aria-label')).toBe('Notifications, 2 unread');
    await expect.poll(async () => (await server.rows()).map((row) => row.id)).not.toContain(id);
    await expect(server.rows()).resolves.toHaveLength(2);
    await expect.poll(() => events).toContainEqual({ name: 'notification:deleted', detail: { notificationId: id } });
  });

  it('shows the empty state, and the error state with a working retry', async () => {
    await server.seed([]);
    let page = await load();
    await bellButton(page).click();
    await expect.poll(() => page.locator('notification-bell [part="empty"]').textContent()).toContain('You have no notifications');
    await page.close();

    await server.seed(seed(1));
    // Fails the first load. Opening the panel shows that error rather than retrying by itself
    // (the feed only loads on open when nothing has been tried yet), so Retry makes the next request.
    server.failNext('GET', /notifications\.json$/, 500);
    server.html = testPage({ attributes: 'enable-polling="false"' });
    page = await context.newPage();
    await page.goto(server.url);
    await bellButton(page).click();
    await page.locator('notification-bell [part="error"]').waitFor();
    await expect.poll(() => page.locator('notification-bell [part="error"]').textContent()).toContain('could not be loaded');
    expect(server.failures).toEqual([]);
    await page.locator('notification-bell [part="retry"]').click();
    await expect.poll(() => items(page).count()).toBe(1);
  });

  it('deduplicates an item that arrives by push, by poll and by a local add', async () => {
    await server.seed(seed(2));
    const page = await load({ attributes: HUB_ATTRIBUTES });
    await expect.poll(() => server.hubClients).toBe(1);
    // Stored and broadcast by the API's own channel, then pushed again by hand.
    const row = await server.create({ title: 'Twice' });
    server.push('notification.created', { ...row, unread_count: 3 });
    await page.evaluate(async (id) => {
      const lib = (window as unknown as { NotificationBellLib: typeof BellLib }).NotificationBellLib;
      lib.notifications.addNotification({ id, title: 'Twice, locally' });
      await lib.notifications.refresh();
    }, row.id);
    await bellButton(page).click();
    await expect.poll(() => item(page, row.id).count()).toBe(1);
    await expect.poll(() => items(page).count()).toBe(3);
    await expect.poll(() => bellButton(page).getAttribute('aria-label')).toBe('Notifications, 3 unread');
  });

  it('announces an SSE arrival once in the polite status region, not through the list', async () => {
    await server.seed(seed(1));
    const page = await load({ attributes: HUB_ATTRIBUTES });
    await expect.poll(() => server.hubClients).toBe(1);
    expect(server.requests.some((request) => request.path === `/hub?topic=${encodeURIComponent(hubTopic(USER_ID))}`)).toBe(true);
    // An item already in the first page load is not news: wait for that load before the push.
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { NotificationBellLib: typeof BellLib }).NotificationBellLib.notifications.items.length))
      .toBe(1);
    const status = page.locator('notification-bell [role="status"]');
    await expect.poll(() => status.textContent()).toBe('');
    const live = await server.create({ title: 'Deploy finished', action_url: '/target/live' });
    await expect.poll(() => status.textContent()).toBe('1 new notification');
    await expect.poll(() => status.getAttribute('aria-live')).toBe('polite');
    await expect.poll(() => bellButton(page).getAttribute('aria-label')).toBe('Notifications, 2 unread');
    await expect.poll(() => events.filter((event) => event.name === 'notification:received').length).toBe(1);
    // The status text is set once; the list itself is not a live region.
    await page.waitForTimeout(1500);
    await expect.poll(() => status.textContent()).toBe('1 new notification');
    await bellButton(page).click();
    await expect.poll(() => page.locator('notification-bell .feed').getAttribute('aria-live')).toBeNull();
    await expect.poll(() => items(page).first().getAttribute('data-id')).toBe(live.id);
  });

  it('resyncs page 1 and the count when the SSE connection reconnects', async () => {
    await server.seed(seed(1));
    const page = await load({ attributes: HUB_ATTRIBUTES });
    await expect.poll(() => server.hubClients).toBe(1);
    // Something changes while we are disconnected: the event is missed, so only a resync can show it.
    const missed = await server.create({ title: 'Missed while offline' }, { broadcast: false });
    server.dropHubClients();
    await expect.poll(() => bellButton(page).getAttribute('aria-label'), { timeout: 10_000 }).toBe('Notifications, 2 unread');
    await expect.poll(() => server.hubClients).toBe(1);
    await bellButton(page).click();
    await expect.poll(() => items(page).first().getAttribute('data-id')).toBe(missed.id);
  });

  it('dispatches an action event with the action data, and closes when shouldClose', async () => {
    const [request] = await server.seed([
      {
        title: 'Access request',
        actions: [
          { name: 'approve', label: 'Approve', event: 'approve-request', type: 'success', shouldClose: true, data: { requestId: 99 } },
          { name: 'later', label: 'Later', isDisabled: true },
        ],
      },
    ]);
    const page = await load();
    await bellButton(page).click();
    await expect.poll(() => page.locator('notification-bell [part="action"]').nth(1).isDisabled()).toBe(true);
    await page.locator('notification-bell [part="action"]', { hasText: 'Approve' }).click();
    await expect.poll(() => events.find((event) => event.name === 'approve-request')?.detail).toEqual({ requestId: 99, notificationId: request?.id, action: 'approve' });
    await expect.poll(() => panel(page).isHidden()).toBe(true);
  });

  it('follows theme="dark", theme="light" and the auto sources live', async () => {
    await server.seed(seed(1));
    const resolved = (page: Page) => page.locator('notification-bell').getAttribute('data-resolved-theme');
    const panelBackground = (page: Page) => page.locator('notification-bell .panel').evaluate((element) => getComputedStyle(element).backgroundColor);

    let page = await load({ attributes: 'enable-polling="false" theme="dark"' });
    await bellButton(page).click();
    await expect(resolved(page)).resolves.toBe('dark');
    await expect(panelBackground(page)).resolves.toBe('rgb(13, 17, 23)');
    await page.close();

    page = await load({ attributes: 'enable-polling="false" theme="light"', htmlClass: 'dark' });
    await expect(resolved(page)).resolves.toBe('light');
    await page.close();

    // Auto: prefers-color-scheme, then html.dark, then a data-theme ancestor wins.
    page = await load();
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => resolved(page)).toBe('light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => resolved(page)).toBe('dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.evaluate(() => document.documentElement.classList.add('dark'));
    await expect.poll(() => resolved(page)).toBe('dark');
    await page.close();

    page = await load({ wrapperTheme: 'light', htmlClass: 'dark' });
    await expect(resolved(page)).resolves.toBe('light');
    await page.evaluate(() => document.querySelector('[data-theme]')?.setAttribute('data-theme', 'dark'));
    await expect.poll(() => resolved(page)).toBe('dark');
  });

  it('works by keyboard alone: Tab to the bell, Enter, arrows through items, actions revealed on focus', async () => {
    const stored = await server.seed(seed(3, (index) => ({ action_url: `/target/${index + 1}`, actions: [{ name: 'view', label: 'View', url: `/target/view-${index + 1}` }] })));
    const [third, second] = [idOf(stored, 'Notification 3'), idOf(stored, 'Notification 2')];
    const page = await load({ before: '<button>Before</button>' });
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect.poll(() => focusedInBell(page)).toBe('button.bell');
    await page.keyboard.press('Enter');
    await expect.poll(() => panel(page).isVisible()).toBe(true);
    // Opening focuses the first item; the arrows move between items.
    await expect.poll(() => focusedItemId(page)).toBe(third);
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focusedItemId(page)).toBe(second);
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => focusedItemId(page)).toBe(third);
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focusedItemId(page)).toBe(second);
    // Tabbing onto an action makes the (hover-revealed) actions visible.
    await page.keyboard.press('Tab');
    const actionsOpacity = await item(page, second).locator('.actions').evaluate((element) => getComputedStyle(element).opacity);
    expect(actionsOpacity).toBe('1');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/target/2');
    await expect.poll(async () => (await server.rows()).find((row) => row.id === second)?.read_at).toEqual(expect.any(String));
  });

  it('keeps two tabs in sync: a mark-read in one shows in the other, with one live connection', async () => {
    const id = idOf(await server.seed(seed(3)), 'Notification 2');
    const first = await load({ attributes: HUB_ATTRIBUTES });
    const second = await load({ attributes: HUB_ATTRIBUTES }, '/page2');
    // Web Locks: only the leader tab holds the SSE connection.
    await expect.poll(() => server.hubClients).toBe(1);
    await first.waitForTimeout(300);
    expect(server.hubClients).toBe(1);
    await bellButton(first).click();
    await item(first, id).locator('[part="mark-read"]').click();
    await second.locator('notification-bell button.bell[aria-label="Notifications, 2 unread"]').waitFor();
    await bellButton(second).click();
    await expect.poll(() => item(second, id).getAttribute('class')).toContain(' read');
    // A live arrival reaches both tabs through the one connection.
    await server.create({ title: 'To both tabs' });
    await first.locator('notification-bell button.bell[aria-label="Notifications, 3 unread"]').waitFor();
    await second.locator('notification-bell button.bell[aria-label="Notifications, 3 unread"]').waitFor();
    // Closing the leader hands the connection to the other tab.
    await first.close();
    await expect.poll(() => server.hubClients, { timeout: 10_000 }).toBe(1);
  });

  it('reports an invalid option by name and keeps working with the default', async () => {
    await server.seed(seed(1));
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    server.html = testPage({ attributes: 'enable-polling="false" mode="sidebar" per-page="abc"' });
    await page.goto(server.url);
    await bellButton(page).click();
    await expect.poll(() => panel(page).isVisible()).toBe(true);
    expect(consoleErrors.some((text) => text.includes(`option "mode": expected 'dropdown' or 'panel' (got "sidebar")`))).toBe(true);
    expect(consoleErrors.some((text) => text.includes('option "per-page"'))).toBe(true);
    await expect.poll(() => events.filter((event) => event.name === 'notification:error').length).toBeGreaterThanOrEqual(2);
  });

  it('has no serious or critical axe violations in dropdown and panel, light and dark (screenshots saved)', async () => {
    await server.seed(
      seed(4, (index) => ({
        title: ['New comment on your post', 'Jane followed you', 'Build failed', 'Invoice paid'][index] ?? 'x',
        message: index % 2 === 0 ? 'Open it to see the details.' : null,
        icon: (['message', 'user', 'alert', 'check'] as const)[index] ?? 'bell',
        action_url: index < 2 ? `/target/${index}` : null,
        read_at: index === 3 ? '2025-01-02T00:00:00Z' : null,
        actions: index === 2 ? [{ name: 'retry', label: 'Retry build', event: 'retry', type: 'danger' }] : [],
      })),
    );
    for (const mode of ['dropdown', 'panel'] as const) {
      for (const theme of ['light', 'dark'] as const) {
        const page = await load({ attributes: `enable-polling="false" mode="${mode}" theme="${theme}"`, htmlClass: theme === 'dark' ? 'dark' : '' });
        await bellButton(page).click();
        await page.addScriptTag({ url: '/axe.js' });
        const violations = await page.evaluate(async () => {
          const axe = (window as unknown as { axe: { run(context?: unknown, options?: unknown): Promise<{ violations: Array<{ id: string; impact: string | null; nodes: unknown[] }> }> } }).axe;
          const result = await axe.run(document, { resultTypes: ['violations'] });
          return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, nodes: violation.nodes.length }));
        });
        // Printed so a run's log records the whole axe result, not only that nothing severe was found.
        console.log(`[notification-bell] axe ${mode}/${theme}: ${violations.length} violation(s) ${JSON.stringify(violations)}`);
        const severe = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
        expect(severe, `${mode}/${theme}: ${JSON.stringify(violations)}`).toEqual([]);
        // The dialog's header is not a page landmark: the host page (here inside its own <header>) keeps one banner.
        expect(violations.filter((violation) => violation.id.startsWith('landmark-')), `${mode}/${theme}`).toEqual([]);
        await page.screenshot({ path: join(screenshotDir, `${mode}-${theme}.png`) });
        await page.close();
      }
    }
  });
});
