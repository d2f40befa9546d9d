// The page's quality in Chromium, against the Prism mocks: the svc brand, no moderate or worse
// axe-core violation in light and dark mode, readable dark code-sample tabs (on the same load),
// focus rings, arrow keys in the code-sample tabs, reduced motion (the phone layout is
// navigation.test.js's).
// Apart from browser.test.js so that the two files run side by side.

import { createRequire } from 'node:module';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser } from './support/browser.js';
import { guardedPage, startMockedExplorer } from './support/page.js';

const require = createRequire(import.meta.url);

let mocked;
let explorer;
let browser;
let page;
const pageErrors = [];

beforeAll(async () => {
  browser = await openBrowser();
  mocked = await startMockedExplorer();
  ({ explorer } = mocked);
  page = await guardedPage(browser.context, pageErrors, { viewport: { width: 1280, height: 1600 } });
});

afterAll(async () => {
  await browser?.close();
  await mocked?.close();
});

describe('quality of the page', () => {
  afterEach(() => expect(pageErrors).toEqual([]));

  /**
   * axe-core's moderate, serious and critical violations (rule id and targets) on the page as it is
   * now, or within the elements the `selectors` match.
   * @param {import('playwright-core').Page} p
   * @param {string[]} [selectors]
   */
  async function seriousViolations(p, selectors) {
    if (!(await p.evaluate(() => 'axe' in window)))
      await p.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
    const result = await p.evaluate(
      (within) =>
        window.axe.run(within ? { include: within.map((s) => [s]) } : document, { resultTypes: ['violations'] }),
      selectors,
    );
    return result.violations
      .filter((v) => ['moderate', 'serious', 'critical'].includes(v.impact))
      .map(
        (v) =>
          `${v.impact} ${v.id}: ${v.nodes
            .slice(0, 3)
            .map((n) => n.target.join(' '))
            .join(', ')}`,
      );
  }

  /**
   * The violations of the page as it is (or within the `selectors`), in dark and then in light mode:
   * Swagger UI's mode is the `dark-mode` class (set from the system setting at load, toggled by its
   * moon button), so one load serves both. The colours are final at once: the browser prefers
   * reduced motion (see the test of that below).
   */
  async function violationsInBothModes(p, what, selectors) {
    for (const dark of [true, false]) {
      await p.evaluate((on) => document.documentElement.classList.toggle('dark-mode', on), dark);
      expect(await seriousViolations(p, selectors), `${dark ? 'dark' : 'light'}: ${what}`).toEqual([]);
    }
  }

  it('wears the svc brand, not the Swagger logo', async () => {
    await page.goto(`${explorer.url}?api=central`);
    await page.locator('.svc-logo').waitFor();
    await page.locator('.opblock').first().waitFor();
    // a light system setting (Playwright's default) leaves dark mode off
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark-mode'))).toBe(false);
    expect(await page.locator('.topbar .svc-logo').innerText()).toMatch(/svc\s*API explorer/);
    expect(await page.locator('.topbar a svg, .topbar img').count()).toBe(0);
    expect(await page.locator('.topbar').innerText()).not.toMatch(/swagger|smartbear/i);
    expect(
      await page.locator('link[rel=icon]').evaluateAll((links) => links.map((l) => l.getAttribute('href'))),
    ).toEqual(['./favicon.svg']);
    expect((await page.request.get(`${explorer.url}favicon.svg`)).ok()).toBe(true);
    // the top bar's button switches dark mode on and says what it does next; and off again
    await page.getByRole('button', { name: 'Switch to dark mode', pressed: false }).click();
    await page.getByRole('button', { name: 'Switch to light mode', pressed: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark-mode'))).toBe(true);
    await page.getByRole('button', { name: 'Switch to light mode' }).click();
    await page.getByRole('button', { name: 'Switch to dark mode', pressed: false }).waitFor();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark-mode'))).toBe(false);
  });

  it('has no moderate, serious or critical axe-core violation, dark and light: operations of every method, an answer, a search; no blank white code-sample tab in dark mode', async () => {
    const p = await guardedPage(browser.context, pageErrors, { viewport: { width: 1280, height: 1600 } });
    try {
      await p.emulateMedia({ colorScheme: 'dark' });
      await p.goto(`${explorer.url}?api=central#/Images/images_list`);
      const op = p.locator('.opblock[id$="-images_list"]');
      await op.locator('.svc-code-samples').waitFor();
      // the system setting turns dark mode on
      expect(await p.evaluate(() => document.documentElement.classList.contains('dark-mode'))).toBe(true);
      const colors = await op
        .locator('.svc-code-sample-tab:not(.active)')
        .first()
        .evaluate((el) => {
          const style = getComputedStyle(el);
          return { background: style.backgroundColor, color: style.color, text: el.innerText };
        });
      expect(colors.text).toBe('@svc/client');
      expect(colors.background).not.toBe('rgb(255, 255, 255)');
      expect(colors.color).not.toBe(colors.background);
      await op.locator('button.execute').click();
      await op.locator('.svc-explanation').waitFor(); // a 401, explained
      await violationsInBothModes(p, 'images_list answered');
      await p.locator('#svc-search-input').fill('zzz-nothing');
      await p.locator('.svc-no-match').waitFor();
      await violationsInBothModes(p, 'a search that finds nothing');
      await p.locator('#svc-search-input').fill('');
      // Every method's colours, parameters of every kind, examples: each operation opened in this
      // page (a link pasted into the address bar), then the three checked at once, the rest of the
      // page being checked above (an axe run costs about as much for one operation as for three).
      const opened = [];
      for (const [tag, operationId] of [
        ['Images', 'images_delete'],
        ['Images', 'images_create'],
        ['Tasks', 'tasks_get'],
      ]) {
        await p.evaluate((hash) => {
          location.hash = hash;
        }, `#/${tag}/${operationId}`);
        opened.push(`.opblock[id$="-${operationId}"]`);
        await p.locator(`${opened.at(-1)} .svc-code-samples`).waitFor();
      }
      for (const operation of opened) expect(await p.locator(operation).getAttribute('class')).toContain('is-open');
      await violationsInBothModes(p, 'images_delete, images_create, tasks_get', opened);
      // Another API's page, whole: a file chooser, its "Start here".
      await p.goto(`${explorer.url}?api=element#/${encodeURIComponent('Image upload (v0.8)')}/images_upload_v0_8`);
      await p.locator('.opblock[id$="-images_upload_v0_8"] .svc-code-samples').waitFor();
      await p.locator('.svc-start').waitFor();
      await violationsInBothModes(p, 'images_upload_v0_8');
    } finally {
      await p.close();
    }
  });

  it('keeps still where the system asks for less motion, as the browser of these tests does', async () => {
    await page.goto(`${explorer.url}?api=central`);
    await page.locator('.opblock').first().waitFor();
    /** How many transitions switching dark mode starts. */
    const transitions = () =>
      page.evaluate(() => {
        document.documentElement.classList.toggle('dark-mode');
        return document.getAnimations().length;
      });
    expect(await transitions()).toBe(0);
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    try {
      expect(await transitions()).toBeGreaterThan(0);
    } finally {
      await page.emulateMedia({ reducedMotion: 'reduce' });
    }
    expect(await transitions()).toBe(0);
  });

  it('shows a focus ring on what the keyboard reaches', async () => {
    await page.goto(`${explorer.url}?api=central`);
    await page.locator('#svc-search-input').waitFor();
    await page.locator('.opblock').first().waitFor();
    const rings = [];
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      rings.push(
        await page.evaluate(() => {
          const el = document.activeElement;
          const style = getComputedStyle(el);
          return {
            what: `${el.tagName} ${el.className || el.id}`,
            outline: style.outlineStyle,
            width: parseFloat(style.outlineWidth),
          };
        }),
      );
    }
    expect(rings.some((r) => r.what.includes('svc-search-input') || r.what.startsWith('INPUT'))).toBe(true);
    for (const ring of rings.filter((r) => r.what !== 'BODY ')) {
      expect(ring, ring.what).toMatchObject({ outline: 'solid' });
      expect(ring.width, ring.what).toBeGreaterThanOrEqual(2);
    }
  });

  it('code-sample tabs follow the arrow keys', async () => {
    await page.goto(`${explorer.url}?api=central#/Images/images_list`);
    const samples = page.locator('.opblock[id$="-images_list"] .svc-code-samples');
    await samples.waitFor();
    await samples.getByRole('tab', { name: 'curl' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await samples.getByRole('tab', { selected: true }).innerText()).toBe('@svc/client');
    expect(await page.evaluate(() => document.activeElement.innerText)).toBe('@svc/client');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft'); // from the first tab round to the last
    expect(await samples.getByRole('tab', { selected: true }).innerText()).toBe('PowerShell');
    expect(await samples.locator('pre').innerText()).toContain('Invoke-RestMethod');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    expect(await samples.getByRole('tab', { selected: true }).innerText()).toBe('Python (requests)');
    expect(await samples.locator('pre').innerText()).toContain('import requests');
  });
});
