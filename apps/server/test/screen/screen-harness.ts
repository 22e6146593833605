// The editing screen under test: a real server on loopback (the platform harness), the browser
// bundles built first (so a clean clone needs no build step), and Debian's Chromium.
import { mkdir } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { bundleBrowser } from '../../../../packages/browser/scripts/bundle.js';
import { launchChromium, whyNoChromium } from '../../../../packages/browser/test/chromium.js';
import { startTestServer } from '../platform/harness.js';
import type { TestServer } from '../platform/harness.js';

export { whyNoChromium };

/**
 * Every run saves its screenshots as artifacts in test-artifacts/; with GALLEY_UPDATE_SCREENSHOTS=1
 * they replace the ones docs/screen.md shows (ids and tokens differ each run, so not by default).
 */
export const screenshots = new URL(
  process.env.GALLEY_UPDATE_SCREENSHOTS === '1'
    ? '../../../../docs/screenshots/'
    : '../../../../test-artifacts/screenshots/',
  import.meta.url,
);

const VIEWPORT = { width: 1360, height: 2400 };

export interface Person {
  context: BrowserContext;
  page: Page;
  /** Every error the page logs, its frames' included. */
  problems: string[];
  /**
   * The policy violations of the screen's own document (the top one) since it loaded:
   * `directive blocked-uri source`, from `securitypolicyviolation` events.
   */
  violations: () => Promise<string[]>;
}

/**
 * Runs before any script of every document the page loads, and records the top document's policy
 * violations (a sandboxed preview runs no script, so it records nothing of its own).
 */
const RECORD_VIOLATIONS = `if (window === window.top) {
  window.galleyViolations = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.galleyViolations.push(e.effectiveDirective + ' ' + e.blockedURI + ' ' + e.sourceFile);
  });
}`;

export interface ScreenTest {
  server: TestServer;
  browser: Browser;
  /** A fresh browser context (its own cookies and session storage) with a page in it. */
  person(): Promise<Person>;
  /** `person()`, signed in on the screen as the server's first account. */
  signedIn(): Promise<Person>;
  close(): Promise<void>;
}

export async function startScreenTest(): Promise<ScreenTest> {
  await bundleBrowser();
  const server = await startTestServer();
  const browser = await launchChromium();
  await mkdir(screenshots, { recursive: true });
  const test: ScreenTest = {
    server,
    browser,
    async signedIn() {
      const person = await test.person();
      await logIn(person.page, server.url, server.account.email, server.password);
      return person;
    },
    async person() {
      const context = await browser.newContext({ viewport: VIEWPORT });
      await context.addInitScript(RECORD_VIOLATIONS);
      const page = await context.newPage();
      // Every error the page logs (CSP refusals included) fails the test that reads this list.
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(m.text());
      });
      page.on('pageerror', (e) => problems.push(e.message));
      const violations = () => page.evaluate<string[]>('window.galleyViolations ?? []');
      return { context, page, problems, violations };
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
  return test;
}

export async function logIn(
  page: Page,
  url: string,
  email: string,
  password: string,
): Promise<void> {
  await page.goto(`${url}/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(/\/projects$/);
}

/**
 * A picture of the page, clipped to its height. Pages are opened in a viewport tall enough for
 * the whole screen: `fullPage` (and resizing the viewport) leaves the sandboxed preview, which is
 * painted in another process, blank and misplaced for later clicks.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const preview = await page.$('iframe[title="Preview"]');
  await (await preview?.contentFrame())?.waitForLoadState('load');
  await page.waitForTimeout(200);
  const height = await page.evaluate<number>(
    "Math.ceil(document.querySelector('main').getBoundingClientRect().bottom + scrollY)",
  );
  const view = page.viewportSize() ?? VIEWPORT; // a test may have set its own
  await page.screenshot({
    path: new URL(`${name}.png`, screenshots).pathname,
    clip: { x: 0, y: 0, width: view.width, height: Math.min(height, view.height) },
  });
}

/**
 * In-page expression (a string: this package is typed without the DOM): the controls that have
 * no label, no `aria-label`, and (for buttons) no text.
 */
export const UNLABELLED_CONTROLS = `[...document.querySelectorAll(
  'input:not([type=hidden]), select, textarea, button')]
  .filter((el) => !(el.labels?.length || el.getAttribute('aria-label') ||
    (el.tagName === 'BUTTON' && el.textContent.trim())))
  .map((el) => el.outerHTML.slice(0, 80))`;

export interface OpenedSite {
  id: string;
  /** The editor's URL as the API answers it (absolute, from the service's base URL). */
  editor: string;
  /** The id of the page `index.html`. */
  index: string;
}

/** Opens a site ZIP through the API as the harness's account. */
export async function openSite(t: ScreenTest, zip: Uint8Array): Promise<OpenedSite> {
  const form = new FormData();
  form.set('zip', new Blob([zip], { type: 'application/zip' }), 'site.zip');
  const headers = { authorization: `Bearer ${t.server.token}`, 'x-editor-client': 'test-setup' };
  const created = await fetch(`${t.server.url}/api/v1/projects/folder`, {
    method: 'POST',
    headers,
    body: form,
  });
  if (created.status !== 201) throw new Error(`opening the site: ${created.status}`);
  const project = (await created.json()) as { id: string; editor_url: string };
  const pages = (await (
    await fetch(`${t.server.url}/api/v1/projects/${project.id}/pages`, { headers })
  ).json()) as { pages: { id: string; file: string }[] };
  const index = pages.pages.find((p) => p.file === 'index.html')!.id;
  return { id: project.id, editor: project.editor_url, index };
}
