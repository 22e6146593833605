// Debian's Chromium driven by playwright-core, for the browser tests of this package and of the
// editing screen (apps/server/test/screen imports this file). Where no Chromium is installed, the
// tests that need it are skipped with the reason.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';

export const chromiumPath = process.env.GALLEY_CHROMIUM ?? '/usr/bin/chromium';

/** Why the Chromium tests cannot run here, or undefined when they can. */
export function whyNoChromium(): string | undefined {
  return existsSync(chromiumPath)
    ? undefined
    : `no Chromium at ${chromiumPath} (install Debian's chromium or set GALLEY_CHROMIUM)`;
}

/** Headless, without the background traffic a closed network refuses (see docs/screen.md). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
