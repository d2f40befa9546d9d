// The browser of the explorer's tests: the one Chromium that test/support/global-setup.js starts.
import { chromium } from 'playwright-core';
import { inject } from 'vitest';
import { CHROMIUM } from './global-setup.js';

/**
 * Connects to the shared Chromium. `close()` on the result disconnects this test file only.
 * @returns {Promise<import('playwright-core').Browser>}
 * @throws {Error} naming the install command when Chromium is missing
 */
export async function sharedBrowser() {
  const endpoint = inject('browserEndpoint');
  if (!endpoint)
    throw new Error(
      `Chromium not found at ${CHROMIUM.path}: run \`apt-get install -y chromium\` (or set CHROMIUM_PATH)`,
    );
  return chromium.connect(endpoint);
}
