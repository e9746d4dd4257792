import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, runBrowserTests, screenshotDir, startServer } from './harness.js';
import type { SeedRow, TestServer } from './harness.js';
import { settle, uiPage, waitForLoad } from './ui-helpers.js';

/*
 * The item layout holds whatever the content: text keeps most of the item's
 * width, nothing overlaps, height follows the text, nothing is wider than a
 * 320 px phone. Measured from the rendered boxes in dropdown and panel, light
 * and dark, at 320 and 1024 px; screenshots are kept as artifacts.
 */

const LONG_WORD = 'Supercalifragilistic'.repeat(15); // 300 characters, no break opportunity
const LONG_URL = `https://example.com/${'deeply/nested/path/'.repeat(8)}?query=${'x'.repeat(80)}&page=2`;
const action = (index: number, label: string) => ({ name: `a${index}`, label, event: `act-${index}` });

/** Seeded oldest first: the last row is the newest and is listed first. */
const ROWS: Array<SeedRow & { key: string }> = [
  { key: 'plain', title: 'Jane followed you', icon: 'user' },
  { key: 'one-action', title: 'Review requested on pull request #42', message: 'Can you take a look before the release?', actions: [action(1, 'Review')] },
  {
    key: 'two-actions',
    title: 'Access request from Sam',
    message: 'Sam asks for write access to the billing project.',
    actions: [
      { ...action(1, 'Approve'), type: 'success' },
      { ...action(2, 'Decline'), color: 'danger' },
    ],
  },
  {
    key: 'three-actions',
    title: 'Deploy of api-gateway failed on production',
    message: 'Step "migrate" exited with code 1 after 42 seconds.',
    actions: [
      { ...action(1, 'Retry deploy'), type: 'warning', icon: 'alert' },
      { ...action(2, 'View logs'), icon: 'info' },
      { ...action(3, 'Roll back to previous release'), type: 'danger' },
    ],
  },
  { key: 'long-word', title: LONG_WORD, message: `${LONG_WORD} and then some ordinary words after it.` },
  {
    key: 'long-url',
    title: 'Your export is ready',
    message: `Download it from ${LONG_URL} within 24 hours.`,
    actions: [{ ...action(1, 'Download'), icon: 'fa fa-download' }, action(2, 'Share'), action(3, 'Delete export')],
  },
];

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
interface ItemMeasure {
  key: string;
  item: Box;
  innerWidth: number;
  body: Box | null;
  link: Box;
  boxes: Array<{ name: string; box: Box }>;
  textLines: number;
  lineHeight: number;
  actionCount: number;
}

const overlaps = (a: Box, b: Box) => a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;

/** Every item's boxes, and how many lines its title and message need at the body's width (measured with canvas). */
function measureItems(page: Page, keys: Record<string, string>): Promise<ItemMeasure[]> {
  return page.evaluate((keyById) => {
    const root = document.querySelector('notification-bell')?.shadowRoot;
    const box = (element: Element) => {
      const { x, y, width, height } = element.getBoundingClientRect();
      return { x, y, width, height };
    };
    const canvas = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
    const linesOf = (element: Element | null, width: number) => {
      if (!element) return 0;
      const style = getComputedStyle(element);
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      return Math.max(1, Math.ceil(canvas.measureText(element.textContent ?? '').width / width));
    };
    return [...(root?.querySelectorAll<HTMLElement>('article.item') ?? [])].map((item) => {
      const body = item.querySelector('.body');
      const title = item.querySelector('.title');
      const message = item.querySelector('.message');
      const named: Array<[string, Element | null]> = [
        ['title', title],
        ['message', message],
        ['time', item.querySelector('time')],
        ['controls', item.querySelector('.controls')],
        ...[...item.querySelectorAll('.action')].map((element, index): [string, Element] => [`action${index}`, element]),
      ];
      const bodyWidth = body ? body.getBoundingClientRect().width : 1;
      return {
        key: keyById[item.dataset.id ?? ''] ?? '?',
        item: box(item),
        innerWidth: item.clientWidth,
        body: body ? box(body) : null,
        link: box(item.querySelector('.main') as Element),
        boxes: named.filter((entry): entry is [string, Element] => entry[1] !== null).map(([name, element]) => ({ name, box: box(element) })),
        textLines: linesOf(title, bodyWidth) + linesOf(message, bodyWidth),
        lineHeight: title ? parseFloat(getComputedStyle(title).lineHeight) : 20,
        actionCount: item.querySelectorAll('.action').length,
      };
    });
  }, keys);
}

describe.runIf(runBrowserTests)('item layout in headless Chromium', () => {
  let browser: Browser;
  let server: TestServer;
  let keyById: Record<string, string>;

  beforeAll(async () => {
    [browser, server] = await Promise.all([launchChromium(), startServer()]);
    const stored = await server.seed(ROWS);
    // Newest first: the stored rows come back in reverse seeding order.
    keyById = Object.fromEntries(stored.map((row, index) => [row.id, ROWS[ROWS.length - 1 - index]?.key ?? '?']));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const mode of ['dropdown', 'panel'] as const) {
    for (const theme of ['light', 'dark'] as const) {
      for (const width of [320, 1024]) {
        it(`${mode}, ${theme}, ${width} px: text keeps its width, nothing overlaps, heights follow the text, nothing overflows`, async () => {
          const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'en-US' });
          const page = await context.newPage();
          server.html = uiPage({ bell: `mode="${mode}" theme="${theme}" per-page="20"`, theme });
          await page.goto(server.url);
          await waitForLoad(page);
          await page.locator('notification-bell button.bell').click();
          await page.locator('notification-bell article.item').nth(ROWS.length - 1).waitFor();
          await settle(page);

          // An action's icon: a built-in name draws its SVG, anything else is an icon-font class list.
          const icons = await page.evaluate(() => {
            const root = document.querySelector('notification-bell')?.shadowRoot;
            const fontIcon = root?.querySelector('.action i');
            return { fontIcon: fontIcon ? `${fontIcon.className}|${fontIcon.getAttribute('aria-hidden')}` : null, svgs: root?.querySelectorAll('.action svg').length ?? 0 };
          });
          expect(icons).toEqual({ fontIcon: 'fa fa-download|true', svgs: 2 });

          const items = await measureItems(page, keyById);
          expect(items.map((item) => item.key).sort()).toEqual(ROWS.map((row) => row.key).sort());
          for (const item of items) {
            const where = `${mode}/${theme}/${width}/${item.key}`;
            // The text column keeps at least 75% of the item's width, however many actions there are.
            expect(item.body, where).not.toBeNull();
            expect((item.body as Box).width / item.innerWidth, where).toBeGreaterThanOrEqual(0.75);
            // The main link is the item, not a sliver: as wide as the item, at least as tall as its text.
            expect(item.link.width, where).toBeGreaterThanOrEqual(item.innerWidth - 1);
            // No two of title, message, time, each action and the controls overlap.
            for (const [index, a] of item.boxes.entries()) {
              expect(a.box.width * a.box.height, `${where}: ${a.name} has no size`).toBeGreaterThan(0);
              for (const b of item.boxes.slice(index + 1)) expect(overlaps(a.box, b.box), `${where}: ${a.name} overlaps ${b.name}`).toBe(false);
              // And each stays inside its item.
              expect(a.box.x, `${where}: ${a.name} starts left of its item`).toBeGreaterThanOrEqual(item.item.x - 0.5);
              expect(a.box.x + a.box.width, `${where}: ${a.name} ends right of its item`).toBeLessThanOrEqual(item.item.x + item.item.width + 0.5);
            }
            // Height follows the text: its lines, one meta row, and at most one row per action (a wrapped label takes two).
            const bound = (item.textLines + 1) * item.lineHeight + 24 + 40 + item.actionCount * 2 * item.lineHeight;
            expect(item.item.height, `${where}: ${item.item.height}px for ${item.textLines} lines and ${item.actionCount} actions`).toBeLessThanOrEqual(bound);
          }

          // Nothing is wider than the viewport: the page does not scroll sideways and the dialog is inside it.
          const overflow = await page.evaluate(() => {
            const panel = document.querySelector('notification-bell')?.shadowRoot?.querySelector('.panel')?.getBoundingClientRect();
            return { scrollWidth: document.documentElement.scrollWidth, left: panel?.left ?? -1, right: panel?.right ?? Infinity };
          });
          expect(overflow.scrollWidth).toBeLessThanOrEqual(width);
          expect(overflow.left).toBeGreaterThanOrEqual(0);
          expect(overflow.right).toBeLessThanOrEqual(width);
          for (const item of items) expect(item.item.x + item.item.width, item.key).toBeLessThanOrEqual(width);

          // Controls revealed (keyboard focus inside the three-actions item) for the screenshot.
          const threeActions = Object.keys(keyById).find((id) => keyById[id] === 'three-actions') as string;
          await page.locator(`notification-bell article.item[data-id="${threeActions}"] .main`).focus();
          await page.keyboard.press('Shift+Tab');
          await page.keyboard.press('Tab');
          await page.screenshot({ path: join(screenshotDir, `layout-${mode}-${theme}-${width}.png`) });
          if (width === 320) {
            for (const key of ['three-actions', 'long-word', 'long-url']) {
              const id = Object.keys(keyById).find((candidate) => keyById[candidate] === key) as string;
              await page.locator(`notification-bell article.item[data-id="${id}"]`).screenshot({ path: join(screenshotDir, `layout-item-${key}-${mode}-${theme}-320.png`) });
            }
          }
          await context.close();
        });
      }
    }
  }
});
