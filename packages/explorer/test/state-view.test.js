// The local svc's state view (issue 59), in one tab against the local svc: there only when the
// server selected is the local svc; a create followed to COMPLETE (the image appears PENDING, its
// task's progress moves while it runs, both end COMPLETE and SUCCEEDED) without reading the lists
// again while nothing runs; the request journal with a valid request and one that broke the
// description, named with its field and its operation (a link); a snapshot downloaded, Reset from
// the keyboard emptying the view, the snapshot restored from a file; axe-core light and dark with
// all of it shown; nothing wider than the window at 390 and 1440 px.

import { mkdirSync } from 'node:fs';
import { request } from 'node:https';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser } from './support/browser.js';
import { authorize, guardedPage, startLocalSvc } from './support/page.js';

const require = createRequire(import.meta.url);
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
// The README's picture of the view is refreshed on request (UPDATE_SCREENSHOT=1), else test-results/.
const screenshot = process.env.UPDATE_SCREENSHOT
  ? join(repoRoot, 'docs', 'explorer-state.png')
  : join(repoRoot, 'test-results', 'explorer-state.png');
const PASSWORD = 'look-at-the-state';
const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

let local;
let browser;
let page;
const pageErrors = [];
/** The image and task of the create followed to COMPLETE. */
let created = { image: '', task: '' };
/** The snapshot the view downloaded before the reset. */
let archive = { name: '', bytes: Buffer.alloc(0) };

beforeAll(async () => {
  [browser, local] = await Promise.all([
    openBrowser({ viewport: WIDE }),
    startLocalSvc({ name: 'state', password: PASSWORD, seed: 59 }),
  ]);
  page = await guardedPage(browser.context, pageErrors, { viewport: WIDE });
});

afterAll(async () => {
  await browser?.close();
  await local?.close();
});

/** The control API of the local svc itself, behind the page's back (not journaled). */
function control(method, path, body) {
  const { simulator } = local;
  return new Promise((resolve, reject) => {
    const req = request(
      `${simulator.url}/_svc${path}`,
      {
        method,
        ca: simulator.ca,
        headers: {
          authorization: `Basic ${Buffer.from(`${simulator.user}:${PASSWORD}`).toString('base64')}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        timeout: 30_000,
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode, body: text ? JSON.parse(text) : null }));
      },
    );
    req.on('error', reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

const view = () => page.locator('section.svc-state');
const part = (title) => view().locator('.svc-state-part', { has: page.getByRole('heading', { name: title }) });
const entity = (uuid) => view().locator(`li.svc-entity[data-uuid="${uuid}"]`);
const op = (operationId) => page.locator(`.opblock[id$="-${operationId}"]`);
const history = () => page.evaluate(() => JSON.parse(sessionStorage.getItem('svc-explorer.history') || '[]'));
/** How many of the page's own reads the journal holds, as the view's checkbox says. */
const ownReads = async () =>
  Number(/\((\d+)\)/.exec(await view().locator('.svc-journal-filters label', { hasText: 'own reads' }).innerText())[1]);

/** Executes an open operation as it stands and waits for its answer: the history's new entry. */
async function run(operationId) {
  const before = (await history())[0]?.id ?? 0;
  await op(operationId).locator('button.execute:not([disabled])').click();
  await expect
    .poll(async () => (await history())[0]?.id ?? 0, { message: `${operationId} never answered` })
    .toBeGreaterThan(before);
  return (await history())[0];
}

/** axe-core's moderate, serious and critical violations of the page as it is now. */
async function seriousViolations() {
  if (!(await page.evaluate(() => 'axe' in window)))
    await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  const { violations } = await page.evaluate(() =>
    /** @type {any} */ (window).axe.run(document, { resultTypes: ['violations'] }),
  );
  return violations
    .filter((v) => ['moderate', 'serious', 'critical'].includes(v.impact))
    .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe("the local svc's state view", () => {
  it('is there when the server is the local svc: its counts without credentials, then its state once authorized', async () => {
    await page.goto(`${local.explorer.url}?api=central#/Images/images_create`);
    const toggle = view().getByRole('button', { name: 'Local svc state' });
    await toggle.waitFor();
    // the health takes no credentials: the counts show before Authorize
    await expect
      .poll(() => view().locator('.svc-state-summary').innerText())
      .toMatch(/^\d+ images? · \d+ tasks? · 0 object stores$/);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    await view().getByText("The local svc's state needs its credentials.").waitFor();
    await authorize(page, local.simulator.user, PASSWORD);
    await part('Images').waitFor();
    expect(await part('Object stores').innerText()).toContain('No object store.');
    expect(await view().locator('.svc-state-auth').count()).toBe(0);
    // another server (a real endpoint's host to type): no local svc, no view
    await page.locator('.servers select').selectOption({ index: 1 });
    await view().waitFor({ state: 'detached' });
    await page.locator('.servers select').selectOption({ index: 0 });
    await part('Images').waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('follows a create to COMPLETE: the image appears, its task progresses while it runs, both end done', async () => {
    // tasks of 4 s instead of the tests' half second: time for the progress to move
    expect((await control('PUT', '/settings', { task_seconds: 4 })).status).toBe(200);
    try {
      // every state of every entity the view shows, as it shows them
      await page.evaluate(() => {
        const seen = [];
        /** @type {any} */ (window).svcSeen = seen;
        const record = () => {
          for (const li of document.querySelectorAll('section.svc-state li.svc-entity[data-uuid]')) {
            const state = {
              uuid: li.getAttribute('data-uuid'),
              badge: li.querySelector('.svc-badge')?.textContent,
              progress: li.querySelector('progress')?.getAttribute('value') ?? null,
            };
            const last = seen.findLast((s) => s.uuid === state.uuid);
            if (!last || last.badge !== state.badge || last.progress !== state.progress) seen.push(state);
          }
        };
        new MutationObserver(record).observe(document.querySelector('section.svc-state'), {
          subtree: true,
          childList: true,
          characterData: true,
          attributes: true,
        });
      });
      const answer = await run('images_create');
      expect(answer.status).toBe(202);
      created = {
        image: answer.uuids.find((u) => u.kind === 'images').uuid,
        task: answer.uuids.find((u) => u.kind === 'tasks').uuid,
      };
      await entity(created.image).waitFor();
      await expect.poll(() => entity(created.image).locator('.svc-badge').innerText()).toBe('COMPLETE');
      await expect.poll(() => entity(created.task).locator('.svc-badge').innerText()).toBe('SUCCEEDED');
      expect(await entity(created.task).locator('.svc-progress-text').innerText()).toBe('100%');
      const seen = await page.evaluate(() => /** @type {any} */ (window).svcSeen);
      const image = seen.filter((s) => s.uuid === created.image).map((s) => s.badge);
      expect(image[0]).toBe('PENDING');
      expect(image.at(-1)).toBe('COMPLETE');
      // read while it ran, at least twice with a different progress (tasks/poll ends each wait)
      const running = seen.filter((s) => s.uuid === created.task && s.badge === 'RUNNING').map((s) => s.progress);
      expect(new Set(running).size, JSON.stringify(seen)).toBeGreaterThanOrEqual(2);
      expect(running.every((p) => Number(p) < 100)).toBe(true);
    } finally {
      await control('PUT', '/settings', { task_seconds: 0.5 });
    }
    // Nothing runs now: the view looks less and less often, and reads no list meanwhile (the
    // lists are journaled, the control API is not): the page's own reads stay as they are.
    const watch = view().locator('.svc-state-watch');
    await expect.poll(() => watch.innerText()).toContain('looking again in 4 s');
    const before = await ownReads();
    await expect.poll(() => watch.innerText()).toContain('looking again in 8 s');
    expect(await ownReads()).toBe(before);
    expect(pageErrors).toEqual([]);
  });

  it("shows the journal's verdicts: a valid request, and one that broke the description with its field and operation", async () => {
    const textarea = op('images_create').locator('.body-param textarea');
    const body = JSON.parse(await textarea.inputValue());
    body.spec.resources.image_type = 'FLOPPY';
    await textarea.fill(JSON.stringify(body, null, 2));
    expect((await run('images_create')).status).toBe(422);
    const journal = view().locator('section.svc-journal');
    const broke = journal.locator('li.svc-journal-entry[data-valid="false"]').first();
    await broke.waitFor();
    expect(await broke.locator('.svc-journal-line').innerText()).toMatch(
      /^POST \/api\/svc\/v3\/images 422 broke the description Create an image \d\d:\d\d:\d\d\.\d{3}$/,
    );
    expect(await broke.locator('.svc-violations li').first().innerText()).toMatch(
      /^spec\.resources\.image_type in the body: must be equal to one of the allowed values: "DISK_IMAGE", "ISO_IMAGE"/,
    );
    const valid = journal.locator('li.svc-journal-entry[data-valid="true"]', {
      hasText: 'POST /api/svc/v3/images 202',
    });
    expect(await valid.locator('.svc-verdict').innerText()).toBe('valid');
    // the page's own reads (its lists, the long poll) are left out unless asked for
    expect(await journal.locator('.svc-journal-own').count()).toBe(0);
    await journal.getByLabel(/This page's own reads/).check();
    await expect.poll(() => journal.locator('.svc-journal-own').count()).toBeGreaterThan(0);
    await journal.getByLabel(/This page's own reads/).uncheck();
    // only the requests that broke it
    await journal.getByLabel('Only those that broke the description').check();
    await expect.poll(() => journal.locator('h3').innerText()).toBe('Requests that broke the description (1)');
    expect(await journal.locator('li.svc-journal-entry[data-valid="true"]').count()).toBe(0);
    await journal.getByLabel('Only those that broke the description').uncheck();
    // the operation it broke, linked: opened and focused in the page
    const link = broke.getByRole('link', { name: 'Create an image' });
    expect(await link.getAttribute('href')).toBe('?api=central#/Images/images_create');
    await op('images_create').locator('.opblock-summary-control').click();
    await op('images_create').locator('.opblock-body').waitFor({ state: 'detached' });
    await link.click();
    await op('images_create').locator('.opblock-body').waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('downloads a snapshot, resets from the keyboard (the view empties), and restores the snapshot from a file', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      view().getByRole('button', { name: 'Download snapshot' }).click(),
    ]);
    archive = {
      name: download.suggestedFilename(),
      bytes: Buffer.concat(await (await download.createReadStream()).toArray()),
    };
    expect(archive.name).toMatch(/^svc-snapshot-\d{8}T\d{6}Z\.tar$/);
    expect(archive.bytes.length).toBeGreaterThan(1024);
    await expect.poll(() => view().locator('.svc-state-message').innerText()).toMatch(/^Saved svc-snapshot-.*\.tar \(/);

    const reset = view().getByRole('button', { name: 'Reset…' });
    await reset.focus();
    await page.keyboard.press('Enter');
    const confirm = view().getByRole('button', { name: 'Reset the local svc' });
    await expect.poll(() => confirm.evaluate((el) => el === document.activeElement)).toBe(true);
    // Escape cancels, the focus back on Reset…
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(await reset.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => confirm.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await expect
      .poll(() => view().locator('.svc-state-message').innerText())
      .toMatch(/^Reset: removed 1 image, \d+ tasks?, 0 object stores\.$/);
    await expect.poll(() => part('Images').innerText()).toContain('No image.');
    expect(await part('Tasks').innerText()).toContain('No task.');
    expect(await view().locator('.svc-state-summary').innerText()).toBe('0 images · 0 tasks · 0 object stores');
    expect(await reset.evaluate((el) => el === document.activeElement)).toBe(true);

    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      view().getByRole('button', { name: 'Restore a snapshot…' }).click(),
    ]);
    await chooser.setFiles({ name: archive.name, mimeType: 'application/x-tar', buffer: archive.bytes });
    await expect
      .poll(() => view().locator('.svc-state-message').innerText())
      .toMatch(
        new RegExp(`^Restored ${archive.name.replace(/\./g, '\\.')}: 1 image, \\d+ tasks?, 0 object stores\\.$`),
      );
    await expect.poll(() => entity(created.image).locator('.svc-badge').innerText()).toBe('COMPLETE');
    expect(pageErrors).toEqual([]);
  });

  it('passes axe-core light and dark with everything shown, and fits 1440 and 390 px', async () => {
    await view().locator('li.svc-journal-entry[data-valid="false"]').first().waitFor();
    for (const mode of ['light', 'dark']) {
      if (mode === 'dark') await page.getByRole('button', { name: 'Switch to dark mode' }).click();
      expect(await seriousViolations(), mode).toEqual([]);
    }
    await page.getByRole('button', { name: 'Switch to light mode' }).click();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(WIDE.width);
    await page.evaluate(() => window.scrollTo(0, 0));
    mkdirSync(dirname(screenshot), { recursive: true });
    const box = await view().boundingBox();
    await page.screenshot({
      path: screenshot,
      clip: { x: 0, y: 0, width: WIDE.width, height: Math.min(900, Math.ceil(box.y + box.height + 8)) },
    });
    await page.setViewportSize(PHONE);
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const wider = await page.evaluate(
      (width) =>
        [...document.querySelectorAll('section.svc-state *')]
          .filter((el) => el.getBoundingClientRect().right > width + 1)
          .map((el) => el.className || el.tagName),
      PHONE.width,
    );
    expect(wider).toEqual([]);
    await page.setViewportSize(WIDE);
    expect(pageErrors).toEqual([]);
  });
});
