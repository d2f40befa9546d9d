// The browser of the explorer's tests: the one Chromium that global-setup.js starts for every test
// file, in a context of the file's own (its own cookies, storage and cache), set to prefer
// reduced motion.
import { chromium } from 'playwright-core';
import { inject } from 'vitest';
import { CHROMIUM } from './chromium.js';
import { READY_MS } from './ready.js';

/**
 * Connects to the tests' Chromium and opens a context for this test file; every wait of its
 * pages ends within READY_MS.
 * @param {{ viewport?: { width: number, height: number } }} [options]
 * @returns {Promise<{ context: import('playwright-core').BrowserContext, close: () => Promise<void> }>}
 *   `close` closes the context and leaves Chromium to the other files
 * @throws {Error} naming the install command when Chromium is missing
 */
export async function openBrowser({ viewport } = {}) {
  const endpoint = inject('browserEndpoint');
  if (!endpoint)
    throw new Error(
      `Chromium not found at ${CHROMIUM.path}: run \`apt-get install -y chromium-headless-shell\` (or set CHROMIUM_PATH)`,
    );
  const browser = await chromium.connect(endpoint);
  // Reduced motion, as a user may ask of the system: no transition draws frames and what a test
  // reads is final. quality.test.js checks both settings.
  const context = await browser.newContext({ reducedMotion: 'reduce', ...(viewport ? { viewport } : {}) });
  context.setDefaultTimeout(READY_MS);
  context.setDefaultNavigationTimeout(READY_MS);
  return {
    context,
    close: async () => {
      await context.close();
      await browser.close(); // disconnects; global-setup.js stops Chromium
    },
  };
}
