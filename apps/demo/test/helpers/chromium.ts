import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const inCI = process.env.CI === 'true';

/** Launches the system Chromium headless; never downloads a browser. Throws when it is missing. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}
