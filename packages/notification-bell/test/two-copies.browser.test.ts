// Two separately built copies of the package on one page, as when an app's bundle and the CDN build
// (or two versions) both load: each has its own classes (and its own lit), and they share the page's
// one store, so a notification sent through the second copy shows in the first copy's bell.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as BellLib from '../src/index.js';
import { startApiServer } from './api-server.js';
import type { TestServer } from './api-server.js';
import { bundleBell, bundleForBrowser, launchChromium, packageRoot, runBrowserTests, testPage } from './harness.js';

type Copies = { NotificationBellLib: typeof BellLib; SecondCopy: typeof BellLib };

/** The package entry bundled on its own, registering its elements as the CDN build does, exposed as `window.SecondCopy`. */
function bundleSecondCopy(): Promise<string> {
  return bundleForBrowser({
    stdin: { contents: "import * as copy from './src/index.ts';\ncopy.define();\nwindow.SecondCopy = copy;\n", resolveDir: packageRoot, loader: 'ts' },
  });
}

describe.runIf(runBrowserTests)('two copies of the package on one page', () => {
  let browser: Browser;
  let server: TestServer;

  beforeAll(async () => {
    const [first, second] = await Promise.all([bundleBell(), bundleSecondCopy()]);
    [browser, server] = await Promise.all([
      launchChromium(),
      startApiServer({ files: { '/bell.js': ['text/javascript', first], '/second-copy.js': ['text/javascript', second] } }),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('share the page store (the second copy adopts it; what it sends shows in the first copy’s bell) and the elements', async () => {
    await server.seed([{ key: '1' }, { key: '2' }]);
    // Module scripts run in document order: the first copy makes the store, the second finds it.
    server.html = testPage().replace('</head>', '<script type="module" src="/second-copy.js"></script>\n</head>');
    const page = await browser.newPage();
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    try {
      await page.goto(server.url);
      const badge = page.locator('notification-bell [part="badge"]');
      await expect.poll(() => badge.textContent()).toBe('2');

      const copies = await page.evaluate(() => {
        const { NotificationBellLib: first, SecondCopy: second } = window as unknown as Copies;
        return {
          distinctClasses: first.NotificationStore !== second.NotificationStore,
          firstIsInstanceOfSecond: first.notifications instanceof second.NotificationStore,
          sameStore: first.notifications === second.notifications,
        };
      });
      expect(copies).toEqual({ distinctClasses: true, firstIsInstanceOfSecond: false, sameStore: true });

      await page.evaluate(() => (window as unknown as Copies).SecondCopy.Notification.make().title('From the second copy').send());
      await expect.poll(() => badge.textContent()).toBe('3');
      // The second copy's define() knows the first copy's elements for its own (no "another library" warning).
      expect(warnings.filter((text) => text.includes('[notification-bell]'))).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
