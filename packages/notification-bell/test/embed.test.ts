/*
 * The README's two ways to embed the bell, run as written in headless Chromium
 * against the package's real built files (dist/, built by `turbo run build`
 * before `test`), served by a plain file server with NO import map:
 *   - plain page: the README's <script type="module" src="https://unpkg.com/..."> with the CDN
 *     origin pointed at the local file server;
 *   - bundler: the README's import line, bundled with esbuild as a user's bundler would, from a
 *     project whose node_modules holds the package as published (package.json + dist).
 * The notifications API is the shared harness's real one, reached through the file server
 * (same origin as the page, as in an application).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser, Page, WebSocket } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_CHUNK, BROWSER_DIR, BROWSER_FILE, BROWSER_PUSHER_FILE } from '../tsup.config.js';
import { CSRF_TOKEN, launchChromium, packageRoot, runBrowserTests, startServer } from './harness.js';
import type { TestServer } from './harness.js';
import { startStaticServer } from './static-server.js';
import type { StaticServer } from './static-server.js';

const README = readFileSync(join(packageRoot, 'README.md'), 'utf8');
const PACKAGE = '@org/notification-bell';
/** Where the file server plays the CDN: `https://unpkg.com/<package>/dist/...` → `<server>/cdn/<package>/dist/...`. */
const CDN_PREFIX = `/cdn/${PACKAGE}/`;

/** The fenced block after `<!-- embed-test: <name> ... -->` in the README. */
function readmeSnippet(name: string): string {
  const marker = README.indexOf(`<!-- embed-test: ${name} `);
  expect(marker, `README marker "embed-test: ${name}"`).toBeGreaterThanOrEqual(0);
  const block = /```\w*\n([\s\S]*?)```/.exec(README.slice(marker));
  expect(block, `fenced block after README marker "${name}"`).not.toBeNull();
  return block?.[1] ?? '';
}

/** The README's CDN URLs (any version pin), served from the local file server instead. */
const fromLocalCdn = (snippet: string, server: StaticServer): string =>
  snippet.replace(new RegExp(`https://unpkg\\.com/${PACKAGE}(?:@[^/]+)?/`, 'g'), `${server.url}${CDN_PREFIX}`);

/** The README's `broadcasting` JSON, with its host pointed at a local port. */
function withLocalWsHost(element: string, port: number): string {
  const match = /broadcasting='([^']*)'/.exec(element);
  expect(match, 'broadcasting attribute in the README snippet').not.toBeNull();
  const config = { ...(JSON.parse(match?.[1] ?? '{}') as Record<string, unknown>), wsHost: '127.0.0.1', wsPort: port };
  return element.replace(match?.[0] ?? '', `broadcasting='${JSON.stringify(config)}'`);
}

const page = (body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Embed test</title><link rel="icon" href="data:,"></head>
<body><header>${body.replace(/content="YOUR-CSRF-TOKEN"/, `content="${CSRF_TOKEN}"`)}</header><main><h1>Page</h1></main></body></html>`;

/** A loopback port nobody listens on (bound, then released). */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** A user's project: the README's entry module, bundled by esbuild against the package as published. */
async function bundleLikeAnApp(entry: string, outDir: string): Promise<void> {
  const project = mkdtempSync(join(tmpdir(), 'bell-embed-app-'));
  try {
    const installed = join(project, 'node_modules', ...PACKAGE.split('/'));
    mkdirSync(installed, { recursive: true });
    const { files } = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { files: string[] };
    for (const file of [...files, 'package.json']) cpSync(join(packageRoot, file), join(installed, file), { recursive: true });
    // The app's own dependencies: lit (the package's dependency) and the optional peer pusher-js.
    for (const dependency of ['lit', 'pusher-js']) symlinkSync(join(packageRoot, 'node_modules', dependency), join(project, 'node_modules', dependency), 'dir');
    writeFileSync(join(project, 'main.js'), entry);
    await build({
      absWorkingDir: project,
      entryPoints: ['main.js'],
      bundle: true,
      format: 'esm',
      splitting: true,
      platform: 'browser',
      outdir: outDir,
      // Only this project's node_modules, not the workspace's hoisted ones.
      nodePaths: [],
      logLevel: 'silent',
    });
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

interface Observed {
  consoleErrors: string[];
  pageErrors: string[];
  websockets: WebSocket[];
}

function observe(target: Page): Observed {
  const observed: Observed = { consoleErrors: [], pageErrors: [], websockets: [] };
  target.on('console', (message) => {
    if (message.type() === 'error') observed.consoleErrors.push(message.text());
  });
  target.on('pageerror', (error) => observed.pageErrors.push(String(error)));
  target.on('websocket', (socket) => observed.websockets.push(socket));
  return observed;
}

describe.runIf(runBrowserTests)('embedding the built package as the README shows (Chromium, no import map)', () => {
  let browser: Browser;
  let api: TestServer;
  let files: StaticServer;
  let appDir: string;
  let livePort: number;

  beforeAll(async () => {
    expect(existsSync(join(packageRoot, BROWSER_DIR, BROWSER_FILE)), `${BROWSER_DIR}/${BROWSER_FILE} is missing: run the package build first`).toBe(true);
    appDir = mkdtempSync(join(tmpdir(), 'bell-embed-out-'));
    [browser, api] = await Promise.all([launchChromium(), startServer(), bundleLikeAnApp(readmeSnippet('bundler'), appDir)]);
    files = await startStaticServer({
      directories: { [`${CDN_PREFIX}dist/`]: join(packageRoot, 'dist'), '/app/': appDir },
      proxy: { prefix: '/notification/', target: api.url },
    });
    livePort = await deadPort();
    const plain = fromLocalCdn(readmeSnippet('plain-page'), files);
    const element = plainElement().trim();
    const liveElement = withLocalWsHost(readmeSnippet('plain-page-live').trim(), livePort);
    const bundled = `<meta name="csrfToken" content="YOUR-CSRF-TOKEN"><script type="module" src="/app/main.js"></script>`;
    Object.assign(files.pages, {
      '/plain': page(plain),
      '/plain-live': page(plain.replace(element, liveElement)),
      '/bundled': page(`${bundled}${element}`),
      '/bundled-live': page(`${bundled}${liveElement}`),
      // What the README used to show: the package entry straight from a plain page.
      '/package-entry': page(`<script type="module" src="${CDN_PREFIX}dist/define.js"></script>${element}`),
    });
    for (const path of ['/plain-live', '/bundled-live']) expect(files.pages[path]).toContain('broadcasting=');
  });
  afterAll(async () => {
    await browser?.close();
    await files?.close();
    await api?.close();
    if (appDir) rmSync(appDir, { recursive: true, force: true });
  });

  /** The plain-page snippet's markup without its script and meta tags: the element as the README writes it. */
  const plainElement = () => readmeSnippet('plain-page').replace(/<script[^>]*><\/script>\s*/, '').replace(/<meta[^>]*>\s*/, '');

  /** Opens `path` and checks what every embed must do: registered, a bell, a page of notifications from the API. */
  async function openAndCheck(path: string): Promise<{ page: Page; observed: Observed; cdnBeforeOpening: string[] }> {
    await api.seed([{ title: 'Deploy finished' }, { title: 'New comment on your post' }, { title: 'Old news', read_at: '2025-01-01T00:00:00.000Z' }]);
    files.requests.length = 0;
    const context = await browser.newContext({ locale: 'en-US' });
    const target = await context.newPage();
    const observed = observe(target);
    await target.goto(`${files.url}${path}`);

    await expect.poll(() => target.evaluate(() => [customElements.get('notification-bell') !== undefined, customElements.get('notification-feed') !== undefined])).toEqual([true, true]);
    // Two unread of three: the count came from the API.
    const bell = target.getByRole('button', { name: 'Notifications, 2 unread' });
    await bell.waitFor();
    const cdnBeforeOpening = files.requests.filter((request) => request.path.startsWith(CDN_PREFIX)).map((request) => request.path);
    await bell.click();
    for (const title of ['Deploy finished', 'New comment on your post', 'Old news']) await target.locator('notification-bell').getByText(title).waitFor();
    expect(files.requests.some((request) => request.path.startsWith('/notification/notifications.json') && request.status === 200)).toBe(true);

    // An unresolvable bare import shows up as a page error (uncaught TypeError); look in both.
    expect([...observed.pageErrors, ...observed.consoleErrors].filter((text) => /Failed to resolve module specifier/i.test(text))).toEqual([]);
    expect(observed.pageErrors).toEqual([]);
    expect(files.requests.filter((request) => request.status >= 400)).toEqual([]);
    return { page: target, observed, cdnBeforeOpening };
  }

  /** The page connected with pusher-js, to a port nobody listens on: the lazily loaded code ran. */
  async function expectPusherConnection(observed: Observed, port: number): Promise<void> {
    await expect.poll(() => observed.websockets.map((socket) => socket.url())).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`^ws://127\\.0\\.0\\.1:${port}/app/app-key\\?`))]));
    expect([...observed.pageErrors, ...observed.consoleErrors].filter((text) => /BROADCASTER_UNAVAILABLE|Failed to resolve module specifier/.test(text))).toEqual([]);
  }

  const served = (path: string) => files.requests.filter((request) => request.path === path).map((request) => request.status);

  it('plain page: the README <script type="module" src> registers the elements and renders the bell from one file; opening loads the feed chunk by its relative URL and renders the items, focused; pusher-js is not fetched', async () => {
    const { page: target, observed, cdnBeforeOpening } = await openAndCheck('/plain');
    const [panelChunk] = readdirSync(join(packageRoot, BROWSER_DIR)).filter((file) => BROWSER_CHUNK.panel.test(file));
    expect(panelChunk).toBeDefined();
    // A closed bell: the main file only.
    expect(cdnBeforeOpening).toEqual([`${CDN_PREFIX}dist/browser/${BROWSER_FILE}`]);
    // Opened (openAndCheck saw the three items): the feed's chunk, beside the main file, and nothing else.
    expect(files.requests.filter((request) => request.path.startsWith(CDN_PREFIX)).map((request) => request.path)).toEqual([
      `${CDN_PREFIX}dist/browser/${BROWSER_FILE}`,
      `${CDN_PREFIX}dist/browser/${panelChunk}`,
    ]);
    expect(served(`${CDN_PREFIX}dist/browser/${panelChunk}`)).toEqual([200]);
    await expect.poll(() => target.locator('notification-bell .item').count()).toBe(3);
    // Focus moved in once the chunk had loaded: to the first item's link.
    await expect
      .poll(() =>
        target.evaluate(() => {
          const root = document.querySelector('notification-bell')?.shadowRoot;
          return root?.activeElement !== null && root?.activeElement === root?.querySelector('.item .main');
        }),
      )
      .toBe(true);
    expect(observed.consoleErrors).toEqual([]);
    await target.context().close();
  });

  it('plain page, ws-channels: notification-bell-pusher.js is fetched beside the main file and pusher-js connects', async () => {
    const { page: target, observed } = await openAndCheck('/plain-live');
    await expectPusherConnection(observed, livePort);
    expect(served(`${CDN_PREFIX}dist/browser/${BROWSER_PUSHER_FILE}`)).toEqual([200]);
    await target.context().close();
  });

  it('bundler: the README import, bundled by esbuild, registers the elements, renders the bell and loads notifications', async () => {
    const { page: target, observed } = await openAndCheck('/bundled');
    expect(served('/app/main.js')).toEqual([200]);
    expect(files.requests.some((request) => /^\/app\/pusher-.*\.js$/.test(request.path))).toBe(false);
    expect(observed.consoleErrors).toEqual([]);
    await target.context().close();
  });

  it('bundler, ws-channels: the bundler split pusher-js into a chunk that loads and connects', async () => {
    const { page: target, observed } = await openAndCheck('/bundled-live');
    await expectPusherConnection(observed, livePort);
    expect(files.requests.filter((request) => /^\/app\/pusher-.*\.js$/.test(request.path)).map((request) => request.status)).toEqual([200]);
    await target.context().close();
  });

  it('the package entry from a plain page fails as the issue reported (the check above would catch it)', async () => {
    const context = await browser.newContext();
    const target = await context.newPage();
    const observed = observe(target);
    await target.goto(`${files.url}/package-entry`);
    // Chromium reports it as an uncaught TypeError (a page error), not a console message.
    await expect.poll(() => [...observed.pageErrors, ...observed.consoleErrors].join('\n')).toMatch(/Failed to resolve module specifier "lit"/);
    expect(await target.evaluate(() => customElements.get('notification-bell'))).toBeUndefined();
    await context.close();
  });

  it('both builds give the browser the same style rules (the self-contained build minifies css`` templates)', async () => {
    const rules = async (path: string) => {
      const context = await browser.newContext();
      const target = await context.newPage();
      await target.goto(`${files.url}${path}`);
      await target.waitForFunction(() => customElements.get('notification-bell') !== undefined);
      // Open: the feed's styles come with its chunk.
      await target.evaluate(() => document.querySelector('notification-bell')?.setAttribute('open', ''));
      await target.waitForFunction(() => document.querySelector('notification-bell')?.shadowRoot?.querySelector('.header') != null);
      const parsed = await target.evaluate(async () => {
        const bell = document.querySelector('notification-bell') as (HTMLElement & { updateComplete?: Promise<unknown> }) | null;
        await bell?.updateComplete;
        const root = bell?.shadowRoot;
        const sheets = root ? [...root.adoptedStyleSheets, ...[...root.querySelectorAll('style')].flatMap((style) => (style.sheet ? [style.sheet] : []))] : [];
        return sheets.flatMap((sheet) => [...sheet.cssRules].map((rule) => rule.cssText));
      });
      await context.close();
      return parsed;
    };
    const selfContained = await rules('/plain');
    expect(selfContained.length).toBeGreaterThan(10);
    expect(selfContained).toEqual(await rules('/bundled'));
  });
});
