import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runBrowserTests, useBrowserSuite } from './harness.js';
import type { SeedRow } from './harness.js';
import { focusDescription, settle, uiPage, waitForLoad } from './ui-helpers.js';

/*
 * Keyboard only (page.keyboard): where focus goes after every action. Focus
 * must stay in the bell (document.activeElement is the host) on the
 * documented target, and never fall to <body>:
 * - opening: the first item's main link;
 * - mark as read: the same item's main link;
 * - delete / archive: the next item's main link, else the previous one, else the heading;
 * - mark all as read: the first item's main link (the heading when the list is empty);
 * - Escape, from anywhere inside: closes, focus on the bell.
 */

describe.runIf(runBrowserTests)('keyboard-only use of <notification-bell>', () => {
  const suite = useBrowserSuite();
  /** Seeded rows, newest (listed first) first. */
  let ids: string[];


  async function seed(rows: SeedRow[]): Promise<void> {
    ids = (await suite.server.seed(rows)).map((row) => row.id);
  }

  async function open(attributes = ''): Promise<Page> {
    suite.server.html = uiPage({ bell: attributes, before: '<button>Before</button>' });
    const page = await suite.context.newPage();
    await page.goto(suite.server.url);
    await waitForLoad(page);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect.poll(() => focusDescription(page)).toBe('notification-bell > bell');
    await page.keyboard.press('Enter');
    await settle(page);
    return page;
  }

  /** Presses Tab (or Shift+Tab) until focus matches, at most 20 times. */
  async function tabTo(page: Page, target: string, key: 'Tab' | 'Shift+Tab' = 'Tab'): Promise<void> {
    for (let press = 0; press < 20; press += 1) {
      if ((await focusDescription(page)) === target) return;
      await page.keyboard.press(key);
    }
    expect(await focusDescription(page), `never reached ${target} with ${key}`).toBe(target);
  }

  const itemIds = (page: Page) => page.locator('notification-bell article.item').evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset.id));
  const isOpen = (page: Page) => page.locator('notification-bell .panel').isVisible();
  const itemClass = (page: Page, id: string) => page.locator(`notification-bell article.item[data-id="${id}"]`).getAttribute('class');

  it('Enter opens on the first item; mark read keeps focus on the item; delete moves to the next item, so Enter twice deletes one', async () => {
    await seed(Array.from({ length: 5 }, () => ({})));
    const page = await open();
    await expect.poll(() => isOpen(page)).toBe(true);
    await expect.poll(() => focusDescription(page)).toBe(`notification-bell > item-link@${ids[0]}`);

    // Mark as read: the control disappears; focus stays on the same item's main link.
    await tabTo(page, `notification-bell > mark-read@${ids[0]}`);
    await page.keyboard.press('Enter');
    await expect.poll(() => itemClass(page, ids[0] as string)).toContain(' read');
    await expect.poll(() => focusDescription(page)).toBe(`notification-bell > item-link@${ids[0]}`);

    // Delete: focus goes to the next item's main link...
    await tabTo(page, `notification-bell > delete@${ids[0]}`);
    await page.keyboard.press('Enter');
    await expect.poll(() => itemIds(page)).toEqual(ids.slice(1));
    await expect.poll(() => focusDescription(page)).toBe(`notification-bell > item-link@${ids[1]}`);
    // ...so a second Enter opens that item (marks it read), it does not delete it.
    await page.keyboard.press('Enter');
    await expect.poll(() => itemClass(page, ids[1] as string)).toContain(' read');
    expect(await itemIds(page)).toEqual(ids.slice(1));
    expect(await focusDescription(page)).toBe(`notification-bell > item-link@${ids[1]}`);
    await expect.poll(async () => (await suite.server.rows()).length).toBe(4);

    // Deleting the last item moves focus to the previous one.
    await page.keyboard.press('End');
    await expect.poll(() => focusDescription(page)).toBe(`notification-bell > item-link@${ids[4]}`);
    await tabTo(page, `notification-bell > delete@${ids[4]}`);
    await page.keyboard.press('Enter');
    await expect.poll(() => focusDescription(page)).toBe(`notification-bell > item-link@${ids[3]}`);
    await expect.poll(() => itemIds(page)).toEqual(ids.slice(1, 4));
  });

  it('with a slow API, Delete pressed while the mark as read is still in flight deletes at once, and on the server', async () => {
    await seed(Array.from({ length: 3 }, () => ({})));
    const page = await open();
    await expect.poll(() => focusDescription(page)).toBe(`notification-bell > item-link@${ids[0]}`);
    // Each change takes 2 s to answer: the delete is pressed long before the mark is answered (a CI run
    // once saw that delete dropped, the item stayed).
    suite.server.mutationDelay = 2_000;
    await tabTo(page, `notification-bell > mark-read@${ids[0]}`);
    await page.keyboard.press('Enter');
    await expect.poll(() => itemClass(page, ids[0] as string)).toContain(' read');
    await tabTo(page, `notification-bell > delete@${ids[0]}`);
    await page.keyboard.press('Enter');
    await expect.poll(() => itemIds(page)).toEqual(ids.slice(1));
    await expect.poll(() => focusDescription(page)).toBe(`notification-bell > item-link@${ids[1]}`);
    await expect.poll(async () => (await suite.server.rows()).map((row) => row.id), { timeout: 12_000 }).toEqual(ids.slice(1));
    // Sent one after the other, in the order pressed.
    const mutations = suite.server.requests.filter((request) => request.method !== 'GET').map((request) => `${request.method} ${request.path}`);
    expect(mutations).toEqual([`PATCH /notification/notifications/${ids[0]}/read.json`, `DELETE /notification/notifications/${ids[0]}.json`]);
    expect(await itemIds(page)).toEqual(ids.slice(1));
  });

  it('mark all as read moves focus to the first item; deleting every item leaves focus on the heading', async () => {
    await seed(Array.from({ length: 3 }, () => ({})));
    const page = await open();
    await expect.poll(() => focusDescription(page)).toBe(`notification-bell > item-link@${ids[0]}`);
    await tabTo(page, 'notification-bell > mark-all-read', 'Shift+Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('notification-bell article.unread').count()).toBe(0);
    await expect.poll(() => focusDescription(page)).toBe(`notification-bell > item-link@${ids[0]}`);

    for (const [index, id] of ids.entries()) {
      await tabTo(page, `notification-bell > delete@${id}`);
      await page.keyboard.press('Enter');
      const next = ids[index + 1];
      await expect.poll(() => focusDescription(page)).toBe(next ? `notification-bell > item-link@${next}` : 'notification-bell > title');
    }
    await expect.poll(() => page.locator('notification-bell [part="empty"]').isVisible()).toBe(true);
    // Escape still closes from the heading.
    await page.keyboard.press('Escape');
    await expect.poll(() => isOpen(page)).toBe(false);
    await expect.poll(() => focusDescription(page)).toBe('notification-bell > bell');
  });

  it('Escape closes from an item, from an action button and from the header, and focuses the bell', async () => {
    await seed([{ title: 'With actions', actions: [{ name: 'ok', label: 'Acknowledge', event: 'acknowledge' }] }, {}]);
    const page = await open();
    const reopen = async () => {
      await page.keyboard.press('Enter');
      await expect.poll(() => isOpen(page)).toBe(true);
    };
    // The newest row is listed first; the seeded first row (with actions) is second.
    const withActions = ids[1] as string;

    await expect.poll(() => focusDescription(page)).toBe(`notification-bell > item-link@${ids[0]}`);
    await page.keyboard.press('Escape');
    await expect.poll(() => isOpen(page)).toBe(false);
    await expect.poll(() => focusDescription(page)).toBe('notification-bell > bell');

    await reopen();
    await tabTo(page, `notification-bell > action@${withActions}`);
    await page.keyboard.press('Escape');
    await expect.poll(() => isOpen(page)).toBe(false);
    await expect.poll(() => focusDescription(page)).toBe('notification-bell > bell');

    await reopen();
    await tabTo(page, 'notification-bell > mark-all-read', 'Shift+Tab');
    await page.keyboard.press('Escape');
    await expect.poll(() => isOpen(page)).toBe(false);
    await expect.poll(() => focusDescription(page)).toBe('notification-bell > bell');

    // After mark read removed the focused control, Escape still works (the listener is on the shadow root).
    await reopen();
    await tabTo(page, `notification-bell > mark-read@${ids[0]}`);
    await page.keyboard.press('Enter');
    await expect.poll(() => focusDescription(page)).toBe(`notification-bell > item-link@${ids[0]}`);
    await page.keyboard.press('Escape');
    await expect.poll(() => isOpen(page)).toBe(false);
    await expect.poll(() => focusDescription(page)).toBe('notification-bell > bell');
  });

  it('arrow keys, Home and End move between items', async () => {
    await seed(Array.from({ length: 4 }, () => ({})));
    const page = await open();
    await expect.poll(() => focusDescription(page)).toBe(`notification-bell > item-link@${ids[0]}`);
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focusDescription(page)).toBe(`notification-bell > item-link@${ids[1]}`);
    await page.keyboard.press('End');
    await expect.poll(() => focusDescription(page)).toBe(`notification-bell > item-link@${ids[3]}`);
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => focusDescription(page)).toBe(`notification-bell > item-link@${ids[2]}`);
    await page.keyboard.press('Home');
    await expect.poll(() => focusDescription(page)).toBe(`notification-bell > item-link@${ids[0]}`);
  });

  it('focus rings are drawn and fully inside the scrolling list, for every control in it', async () => {
    await seed(Array.from({ length: 12 }, (_, index) => ({ actions: index % 3 === 0 ? [{ name: 'go', label: 'Go', event: 'go' }] : [] })));
    const page = await open('per-page="10"');
    await expect.poll(() => focusDescription(page)).toBe(`notification-bell > item-link@${ids[0]}`);
    const seen = new Set<string>();
    for (let press = 0; press < 60 && !seen.has('notification-bell > load-more'); press += 1) {
      const ring = await page.evaluate(() => {
        const root = document.querySelector('notification-bell')?.shadowRoot as ShadowRoot;
        const active = root.activeElement as HTMLElement;
        const scroller = root.querySelector('.scroller') as HTMLElement;
        if (!scroller.contains(active)) return null;
        // The item link draws its ring on the ::after that spans the item.
        let style = getComputedStyle(active);
        let box = active.getBoundingClientRect();
        if (style.outlineStyle === 'none') {
          style = getComputedStyle(active, '::after');
          box = (active.closest('.item') as HTMLElement).getBoundingClientRect();
        }
        const grow = parseFloat(style.outlineOffset) + parseFloat(style.outlineWidth);
        const clip = scroller.getBoundingClientRect();
        return {
          drawn: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
          inside: box.left - grow >= clip.left - 0.5 && box.right + grow <= clip.right + 0.5 && box.top - grow >= clip.top - 0.5 && box.bottom + grow <= clip.bottom + 0.5,
        };
      });
      const where = await focusDescription(page);
      seen.add(where.replace(/@.*/, ''));
      if (ring) {
        expect(ring.drawn, `no ring on ${where}`).toBe(true);
        expect(ring.inside, `ring of ${where} is clipped by the list`).toBe(true);
      }
      await page.keyboard.press('Tab');
    }
    expect([...seen]).toEqual(expect.arrayContaining(['notification-bell > item-link', 'notification-bell > action', 'notification-bell > mark-read', 'notification-bell > archive', 'notification-bell > delete', 'notification-bell > load-more']));
  });

  it('panel mode traps Tab and Shift+Tab inside the panel; Escape returns to the bell', async () => {
    await seed(Array.from({ length: 2 }, () => ({ actions: [{ name: 'go', label: 'Go', event: 'go' }] })));
    const page = await open('mode="panel"');
    await expect.poll(() => focusDescription(page)).toBe(`notification-bell > item-link@${ids[0]}`);
    for (const key of ['Tab', 'Shift+Tab'] as const) {
      const seen = new Set<string>();
      for (let press = 0; press < 16; press += 1) {
        await page.keyboard.press(key);
        const inside = await page.evaluate(() => {
          const host = document.querySelector('notification-bell');
          const active = host?.shadowRoot?.activeElement;
          return document.activeElement === host && active !== null && active !== undefined && host?.shadowRoot?.querySelector('.panel')?.contains(active) === true;
        });
        expect(inside, `${key} #${press + 1} left the panel (${await focusDescription(page)})`).toBe(true);
        seen.add(await focusDescription(page));
      }
      // The close button, mark all, each item's link, action and controls: all reached, in a cycle.
      expect(seen.size, key).toBeGreaterThanOrEqual(7);
    }
    await page.keyboard.press('Escape');
    await expect.poll(() => isOpen(page)).toBe(false);
    await expect.poll(() => focusDescription(page)).toBe('notification-bell > bell');
  });
});
