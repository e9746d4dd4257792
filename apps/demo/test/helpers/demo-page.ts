import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';

export const RECORDED_EVENTS = [
  'notification:marked-read',
  'notification:all-marked-read',
  'notification:received',
  'notification:deleted',
  'notification:all-deleted',
  'notification:error',
] as const;

export interface RecordedEvent {
  name: string;
  detail: Record<string, unknown> | null;
  /** Which tab saw it (the page's index in its context). */
  tab: number;
}

export interface SignedInContext {
  context: BrowserContext;
  events: RecordedEvent[];
  /** Uncaught page errors and console errors of every tab; a clean run has none. */
  errors: string[];
  /** Opens `path` and waits until the bell has its first server answer. */
  open(path?: string): Promise<Page>;
}

/**
 * A browser context signed in as the demo user (the login form's POST sets the
 * session cookie), recording every `notification:*` window event of its tabs.
 */
export async function signedInContext(browser: Browser, baseUrl: string, viewport = { width: 1100, height: 760 }): Promise<SignedInContext> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport, locale: 'en-US' });
  const events: RecordedEvent[] = [];
  const errors: string[] = [];
  context.on('page', (page) => {
    page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
    page.on('response', (response) => {
      if (response.status() >= 400) errors.push(`HTTP ${response.status()} ${response.request().method()} ${response.url()}`);
    });
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console: ${message.text()}`);
    });
  });
  await context.exposeBinding('__recordEvent', ({ page }, name: string, detail: Record<string, unknown> | null) => {
    events.push({ name, detail, tab: context.pages().indexOf(page) });
  });
  await context.addInitScript((names: readonly string[]) => {
    for (const name of names) {
      window.addEventListener(name, (event) => {
        const detail = (event as CustomEvent<unknown>).detail;
        const plain = detail && typeof detail === 'object' ? { ...(detail as Record<string, unknown>), error: undefined } : null;
        void (window as unknown as { __recordEvent(n: string, d: unknown): Promise<void> }).__recordEvent(name, JSON.parse(JSON.stringify(plain)));
      });
    }
  }, RECORDED_EVENTS);
  const login = await context.request.post('/login', { maxRedirects: 0 });
  if (login.status() !== 303) throw new Error(`login answered ${login.status()}`);

  return {
    context,
    events,
    errors,
    async open(path = '/') {
      const page = await context.newPage();
      await page.goto(path);
      await page.waitForFunction(() => {
        const bell = document.querySelector('notification-bell') as (HTMLElement & { store?: { hasLoaded: boolean } }) | null;
        return bell?.store?.hasLoaded === true;
      });
      return page;
    },
  };
}

export const bellButton = (page: Page): Locator => page.locator('notification-bell button.bell');
export const panel = (page: Page): Locator => page.locator('notification-bell .panel');
export const items = (page: Page): Locator => page.locator('notification-bell article.item');
export const badge = (page: Page): Locator => page.locator('notification-bell [part="badge"]');

/** Resolves once the bell's accessible name says `count` unread (0 = no count in the name). */
export async function waitForUnread(page: Page, count: number, timeout = 5_000): Promise<void> {
  const name = count === 0 ? 'Notifications' : `Notifications, ${count} unread`;
  await page.locator(`notification-bell button.bell[aria-label="${name}"]`).waitFor({ timeout });
}

/** The element focused inside the bell's shadow root, as `tag.class` ('' when focus is elsewhere). */
export function focusedInBell(page: Page): Promise<string> {
  return page.evaluate(() => {
    const host = document.querySelector('notification-bell');
    const active = host?.shadowRoot?.activeElement;
    return document.activeElement === host && active ? `${active.tagName.toLowerCase()}.${active.getAttribute('class') ?? ''}` : '';
  });
}

/** The CSRF token the page was rendered with. */
export function csrfToken(page: Page): Promise<string> {
  return page.locator('meta[name="csrfToken"]').getAttribute('content').then((value) => value ?? '');
}
