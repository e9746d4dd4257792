/**
 * Helpers shared by the UI browser tests (layout, keyboard, safety, inbox):
 * pages with a bell and/or an inline feed, and reading focus through the shadow root.
 */
import type { Page } from 'playwright-core';
import { CSRF_TOKEN } from './harness.js';

export interface UiPageOptions {
  /** Attributes of the bell; `null` leaves the bell out. */
  bell?: string | null;
  /** Attributes of an inline `<notification-feed>` in the page's main column; `undefined` leaves it out. */
  feed?: string;
  /** `dark` sets `html.dark` (the page's own dark background). */
  theme?: 'light' | 'dark';
  /** Markup before the bell in the header, e.g. a focusable element. */
  before?: string;
}

export function uiPage({ bell = '', feed, theme = 'light', before = '' }: UiPageOptions = {}): string {
  return `<!doctype html>
<html lang="en" class="${theme === 'dark' ? 'dark' : ''}">
<head>
<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="csrfToken" content="${CSRF_TOKEN}">
<title>Bell UI test page</title>
<style>body { font-family: sans-serif; margin: 0; } header.app { display: flex; justify-content: flex-end; align-items: center; gap: 8px; padding: 8px 16px; }
main { padding: 0 16px 16px; } html.dark body { background: #010409; color: #f0f6fc; }</style>
<script type="module" src="/bell.js"></script>
</head>
<body><header class="app">${before}${bell === null ? '' : `<notification-bell enable-polling="false" ${bell}></notification-bell>`}</header>
<main><h1>Inbox</h1>${feed === undefined ? '<p>Page content.</p>' : `<notification-feed enable-polling="false" ${feed}></notification-feed>`}</main></body></html>`;
}

/** Waits until the page's store has loaded its first page. */
export async function waitForLoad(page: Page): Promise<void> {
  await page.waitForFunction(() => (window as unknown as { notifications?: { hasLoaded: boolean } }).notifications?.hasLoaded === true);
}

/**
 * Where focus is, as `host > element` with the element's part or class and the
 * item's id: e.g. `notification-bell > item-link@<id>`, `notification-bell > bell`,
 * or `BODY` when focus fell out of everything.
 */
export function focusDescription(page: Page): Promise<string> {
  return page.evaluate(() => {
    const host = document.activeElement;
    if (!host || host === document.body) return 'BODY';
    const inner = host.shadowRoot?.activeElement;
    if (!inner) return host.tagName.toLowerCase();
    const name = inner.getAttribute('part') ?? inner.className ?? inner.tagName.toLowerCase();
    const item = inner.closest<HTMLElement>('article.item')?.dataset.id;
    return `${host.tagName.toLowerCase()} > ${name}${item ? `@${item}` : ''}`;
  });
}

/** Waits for the bell's panel to finish animating in (the side panel slides), so boxes are where they stay. */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const panel = document.querySelector('notification-bell')?.shadowRoot?.querySelector('.panel');
    await Promise.all((panel?.getAnimations() ?? []).map((animation) => animation.finished));
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
