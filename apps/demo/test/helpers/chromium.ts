import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const inCI = process.env.CI === 'true';

/**
 * Without Chromium the e2e suites are skipped with a message, except under
 * CI=true: there they run, and the launch fails the suite.
 */
export const runBrowserTests = inCI || existsSync(chromiumPath);
if (!runBrowserTests) {
  console.warn(`[demo] skipping the Chromium e2e tests: no Chromium at ${chromiumPath} (set CHROMIUM_PATH). With CI=true this is a failure.`);
}

/** Launches the system Chromium headless; never downloads a browser. Throws when it is missing. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}
