// The browser of the explorer's tests: the one Chromium that test/support/global-setup.js starts.
import { chromium } from 'playwright-core';
import { inject } from 'vitest';
import { CHROMIUM } from './chromium.js';
import { READY_MS } from './ready.js';

/**
 * Connects to the shared Chromium; every context it opens waits up to READY_MS. `close()` on the
 * result disconnects this test file only.
 * @returns {Promise<import('playwright-core').Browser>}
 * @throws {Error} naming the install command when Chromium is missing
 */
export async function sharedBrowser() {
  const endpoint = inject('browserEndpoint');
  if (!endpoint)
    throw new Error(
      `Chromium not found at ${CHROMIUM.path}: run \`apt-get install -y chromium-headless-shell\` (or set CHROMIUM_PATH)`,
    );
  const browser = await chromium.connect(endpoint);
  browser.on('context', (context) => {
    context.setDefaultTimeout(READY_MS);
    context.setDefaultNavigationTimeout(READY_MS);
  });
  return browser;
}
