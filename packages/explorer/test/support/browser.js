// The browser of the explorer's tests: a Chromium of the test file's own, with its profile in a
// temporary folder. A profile on disk keeps V8's code cache, so a page load after the first
// compiles no script again (about 1 of the 2.8 CPU-s a central page costs); the in-memory
// contexts of Playwright's `browser.newContext()` keep none. A test still gets a fresh browser
// session from a new tab: the explorer keeps its state in sessionStorage, a tab's own.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM } from './chromium.js';
import { READY_MS } from './ready.js';

const ARGS = [
  ...CHROMIUM.args,
  // Blink's V8CacheOptions::kCodeWithoutHeatCheck: cache a script's code at its first load, not
  // its second.
  '--blink-settings=v8CacheOptions=3',
  // Nothing leaves this machine: every name but 127.0.0.1 fails to resolve.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];

/**
 * Starts Chromium with a new profile, set to prefer reduced motion; every wait of its pages ends
 * within READY_MS.
 * @returns {Promise<{ context: import('playwright-core').BrowserContext, close: () => Promise<void> }>}
 *   `context` is the browser's one context; `close` stops Chromium and removes the profile
 * @throws {Error} naming the install command when Chromium is missing
 */
export async function openBrowser() {
  if (!existsSync(CHROMIUM.path))
    throw new Error(
      `Chromium not found at ${CHROMIUM.path}: run \`apt-get install -y chromium-headless-shell\` (or set CHROMIUM_PATH)`,
    );
  const profile = mkdtempSync(join(tmpdir(), 'explorer-chromium-'));
  const remove = () => rmSync(profile, { recursive: true, force: true });
  let context;
  try {
    // Reduced motion, as a user may ask of the system: no transition draws frames (about 8 % of
    // the suite's CPU) and what a test reads is final. quality.test.js checks both settings.
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM.path,
      args: ARGS,
      reducedMotion: 'reduce',
    });
  } catch (e) {
    remove();
    throw e;
  }
  context.setDefaultTimeout(READY_MS);
  context.setDefaultNavigationTimeout(READY_MS);
  return {
    context,
    close: async () => {
      await context.close();
      remove();
    },
  };
}
