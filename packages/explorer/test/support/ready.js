/**
 * How long a browser step may wait for the page to get ready (ms). A bound, not a pace: every wait
 * ends as soon as what it waits for appears, and CI, running the whole suite beside other work,
 * took over 30 s (Playwright's default) for a first page load. Used for Playwright's waits
 * (test/support/browser.js) and expect.poll (vitest.config.js).
 */
export const READY_MS = 300_000;
