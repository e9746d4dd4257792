import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { CSRF_TOKEN, startApiServer } from './api-server.js';
import type { TestServer } from './api-server.js';

export { CSRF_TOKEN, HUB_PATH, USER_ID, hubTopic } from './api-server.js';
export type { Failure, HubEvent, RecordedRequest, SeedOptions, SeedRow, TestServer } from './api-server.js';

export const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
export const screenshotDir = join(packageRoot, 'artifacts', 'screenshots');

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const inCI = process.env.CI === 'true';
/** In CI a missing Chromium must fail (launch throws); elsewhere the suite is skipped with a message. */
export const runBrowserTests = inCI || existsSync(chromiumPath);
if (!runBrowserTests) {
  console.warn(`[notification-bell] skipping browser tests: no Chromium at ${chromiumPath} (set CHROMIUM_PATH). In CI (CI=true) this is a failure.`);
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

export function bundleBell(): Promise<string> {
  return bundleForBrowser({ entryPoints: [join(packageRoot, 'test', 'browser-entry.ts')] });
}

/** One ES module for the test pages, from an entry file or inline source (pusher-js stays external, as in the package). */
export async function bundleForBrowser(input: Pick<BuildOptions, 'entryPoints' | 'stdin'>): Promise<string> {
  const result = await build({
    ...input,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    write: false,
    external: ['pusher-js'],
    logLevel: 'silent',
  });
  return result.outputFiles[0]?.text ?? '';
}

/**
 * The bundled bell at `/bell.js`, axe at `/axe.js`, `server.html` at `/` and `/page2`, and the real
 * notifications API on a fresh in-memory PGlite, signed in as user `USER_ID` ('1'). One per test file.
 */
export async function startServer(): Promise<TestServer> {
  const require = createRequire(import.meta.url);
  const axe = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  mkdirSync(screenshotDir, { recursive: true });
  return startApiServer({
    files: {
      '/bell.js': ['text/javascript', await bundleBell()],
      '/axe.js': ['text/javascript', axe],
    },
  });
}

export interface PageOptions {
  attributes?: string;
  htmlClass?: string;
  wrapperTheme?: string;
  /** Markup before the bell, e.g. a focusable element for keyboard tests. */
  before?: string;
}

export function testPage({ attributes = '', htmlClass = '', wrapperTheme, before = '' }: PageOptions = {}): string {
  const bell = `<notification-bell ${attributes}></notification-bell>`;
  return `<!doctype html>
<html lang="en" class="${htmlClass}">
<head>
<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="csrfToken" content="${CSRF_TOKEN}">
<title>Bell test page</title>
<style>body { font-family: sans-serif; margin: 0; } header.app { display: flex; justify-content: flex-end; align-items: center; gap: 8px; padding: 8px 16px; }
html.dark body, [data-theme=dark] { background: #010409; color: #f0f6fc; }</style>
<script type="module" src="/bell.js"></script>
</head>
<body><header class="app">${before}${wrapperTheme ? `<div data-theme="${wrapperTheme}">${bell}</div>` : bell}</header>
<main><h1>Dashboard</h1><p>Page content.</p></main></body></html>`;
}

export interface BrowserSuite {
  browser: Browser;
  server: TestServer;
  /** A fresh context for each test. */
  context: BrowserContext;
}

/**
 * Registers the hooks a browser test file needs: one Chromium and one API server per file, a new
 * context (with `contextOptions`) per test. Read the members inside tests, after the hooks ran.
 */
export function useBrowserSuite(contextOptions: BrowserContextOptions = { viewport: { width: 1024, height: 800 }, locale: 'en-US' }): BrowserSuite {
  const suite = {} as BrowserSuite;
  beforeAll(async () => {
    [suite.browser, suite.server] = await Promise.all([launchChromium(), startServer()]);
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.close();
  });
  beforeEach(async () => {
    suite.context = await suite.browser.newContext(contextOptions);
  });
  afterEach(async () => {
    await suite.context?.close();
  });
  return suite;
}
