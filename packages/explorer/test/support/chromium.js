// Which Chromium the explorer's browser tests run, and how. Plain Node with no dependency, so
// that the root's pretest (scripts/pretest.mjs) can read it to install what is missing.
import { existsSync } from 'node:fs';

/**
 * Debian's packages, best first. The headless shell is the browser Playwright itself runs for
 * headless tests: the same Blink and V8 without the full browser around them. On the 2-core
 * machine one explorer page load cost 4.4 CPU-s in it against 8.0 in `chromium`, and the explorer
 * suite 313 against 461.
 */
export const CHROMIUM_PACKAGES = [
  { name: 'chromium-headless-shell', path: '/usr/bin/chromium-headless-shell' },
  { name: 'chromium', path: '/usr/bin/chromium' },
];

/**
 * The tests' Chromium: `CHROMIUM_PATH` when set, else the first of CHROMIUM_PACKAGES installed
 * (the headless shell's path when none is). V8's optimising compilers are off: a test page lives
 * seconds, too short to repay them, and with them Chromium used about 1.5x the CPU for the same
 * page loads.
 */
export const CHROMIUM = {
  path: process.env.CHROMIUM_PATH || (CHROMIUM_PACKAGES.find((p) => existsSync(p.path)) ?? CHROMIUM_PACKAGES[0]).path,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--js-flags=--no-opt --no-maglev',
  ],
};
