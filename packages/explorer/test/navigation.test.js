// Getting around the explorer in Chromium, as a new user does (issue 22), against the local svc:
// in-page navigation scrolls to what was clicked and focuses it, the current workflow step sits in
// a bar at the bottom of the window with its Execute, "Poll until done" and "Next step", links
// followed inside a workflow keep it, the one curl after Execute runs as pasted after the line
// `npm start` prints, a 401 says whether credentials were missing or refused, the phone layout is
// no wider than the phone, the keyboard gets to Execute in a few Tabs, and the search forgives typos.
// One tab for the whole file, loaded where a test needs a fresh start (the page top, a reload, the
// phone) and else moved about as a user does: the sidebar, "Start here", links, Authorize/Logout.

import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { credentialsLine } from '@svc/serve';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startExplorer } from '../src/index.js';
import { openBrowser } from './support/browser.js';
import { authorize as authorizeAs, clickUntilShown, guardedPage, startLocalSvc } from './support/page.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
// The README's picture of a workflow mid-way is refreshed on request (UPDATE_SCREENSHOT=1).
const screenshot = process.env.UPDATE_SCREENSHOT
  ? join(repoRoot, 'docs', 'explorer-workflow.png')
  : join(repoRoot, 'test-results', 'explorer-workflow-midway.png');
const PASSWORD = 'find-your-way';
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

let local;
let simulator;
let explorer;
let browser;
let page;
const pageErrors = [];

beforeAll(async () => {
  [browser, local] = await Promise.all([
    openBrowser(),
    startLocalSvc({ name: 'navigation', password: PASSWORD, seed: 3 }),
  ]);
  ({ simulator, explorer } = local);
  page = await guardedPage(browser.context, pageErrors, { viewport: DESKTOP });
});

afterAll(async () => {
  await browser?.close();
  await local?.close();
});

/** The file's one tab: every test goes on from where the last left it. */
const newPage = async (viewport = DESKTOP) => {
  await page.setViewportSize(viewport);
  return page;
};

/**
 * Loads `url` afresh in the tab (a link that differs from the address only after # would not
 * reload the page).
 */
async function load(p, url) {
  await p.goto('about:blank');
  await p.goto(url);
}

/** Logs out with Authorize's own dialog (a test that needs no credentials starts so). */
async function logout(p) {
  const button = p.locator('.scheme-container button.authorize');
  if (!(await button.getAttribute('class')).includes(' locked')) return;
  const modal = p.locator('.modal-ux');
  await clickUntilShown(button, modal);
  await modal
    .locator('button.modal-btn.auth', { hasText: /Logout/i })
    .first()
    .click();
  await modal.locator('button.close-modal').click();
  await modal.waitFor({ state: 'detached' });
}

/** Opens an operation of the API shown from the sidebar. */
async function fromSidebar(p, summary) {
  await p.locator('.svc-sidebar a.svc-nav-op', { hasText: summary }).first().click();
}

/** Authorize dialog: basic auth as the simulator's user with `password`. */
const authorize = (page, password = PASSWORD) => authorizeAs(page, simulator.user, password);

/** The top of an element relative to the viewport, and the viewport's height. */
const placeOf = (locator) =>
  locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return { top: box.top, bottom: box.bottom, height: window.innerHeight };
  });

/** Whether an element lies entirely within the viewport. */
async function inViewport(locator) {
  const { top, bottom, height } = await placeOf(locator);
  return top >= 0 && bottom <= height;
}

/** What has the keyboard focus: its tag, class and text, and the operation it is in. */
const focused = (page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return {
      tag: el?.tagName ?? '',
      className: String(el?.className ?? ''),
      text: (el?.innerText ?? el?.value ?? '').trim().slice(0, 80),
      operation: el?.closest('.opblock')?.id ?? '',
    };
  });

describe('in-page navigation takes you to what you clicked', () => {
  it('names the workflows in the sidebar as workflows, apart from the operations (issue 60)', async () => {
    const page = await newPage();
    await load(page, `${explorer.url}?api=central`);
    const workflows = page.locator('.svc-sidebar .svc-nav-api.current .svc-nav-workflows');
    await workflows.waitFor();
    expect(await workflows.getByRole('heading').innerText()).toBe('Workflows (Start here)');
    const link = workflows.getByRole('link');
    // its name says it is a workflow of several calls, not the operation "Create an image"
    expect((await link.innerText()).replace(/\s+/g, ' ')).toBe(
      'Workflow Create an image from a URL and follow it to COMPLETE 6 steps',
    );
    expect(await workflows.getByRole('list', { name: 'Workflows (Start here)' }).count()).toBe(1);
    const operations = await page.locator('.svc-sidebar a.svc-nav-op .svc-nav-op-name').allInnerTexts();
    expect(operations).toContain('Create an image');
    expect(operations).not.toContain('Create an image from a URL');
  });

  it('a sidebar click scrolls the operation to the top of the viewport and focuses it', async () => {
    const page = await newPage();
    try {
      await load(page, `${explorer.url}?api=central`);
      await page.locator('.opblock').first().waitFor();
      await page.locator('.svc-sidebar a.svc-nav-op', { hasText: 'Abort a task' }).click();
      const op = page.locator('.opblock[id$="-tasks_abort"]');
      await expect.poll(() => op.getAttribute('class')).toContain('is-open');
      // In view: its summary near the top of the window, not 5,500 px below.
      await expect.poll(async () => (await placeOf(op)).top).toBeGreaterThanOrEqual(0);
      expect((await placeOf(op)).top).toBeLessThan(DESKTOP.height / 3);
      expect((await focused(page)).operation).toMatch(/-tasks_abort$/);
      expect(pageErrors).toEqual([]);
    } finally {
      // the next test goes on in this tab
    }
  });

  it('walks a workflow from the step bar: in view, links kept, polled, folded, complete', async () => {
    const page = await newPage();
    try {
      // A workflow in the sidebar: it opens in the page, at its first step.
      await page.locator('.svc-sidebar a.svc-nav-workflow', { hasText: 'Create an image from a URL' }).first().click();
      const bar = page.locator('.svc-stepbar');
      await bar.waitFor();
      expect(new URL(page.url()).searchParams.get('workflow')).toBe('image-from-url');
      await authorize(page);
      const step = (id) => page.locator(`.svc-workflow .svc-step[data-step="${id}"]`);
      const stateOf = (id) => step(id).getAttribute('data-state');

      // Step 1: against the local svc, the image comes from the local svc itself, not the internet.
      const create = page.locator('.opblock[id$="-images_create"]');
      const body = create.locator('.body-param textarea');
      await expect
        .poll(async () => JSON.parse((await body.inputValue()) || '{}').spec?.resources?.source_uri)
        .toBe(`${new URL(simulator.url).origin}/samples/cirros.img`);
      // As pasted: the local svc downloads the image from itself (GET /samples/cirros.img).
      expect(await inViewport(bar.locator('.svc-stepbar-execute'))).toBe(true);
      await bar.locator('.svc-stepbar-execute').click();
      await expect.poll(() => stateOf('create')).toBe('done');
      // The request URL of each step: the local svc, with the previous answers' values in the path.
      const urls = { create: await create.locator('.request-url pre').first().innerText() };

      // "Follow the create task." keeps the workflow: the link names it and the task step.
      await create.getByRole('button', { name: 'Follow the create task.' }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get('workflow')).toBe('image-from-url');
      expect(new URL(page.url()).searchParams.get('step')).toBe('1');
      await expect.poll(() => step('task').getAttribute('aria-current')).toBe('step');
      const task = page.locator('.opblock[id$="-tasks_get"]');
      await expect.poll(async () => (await placeOf(task)).top).toBeLessThan(DESKTOP.height / 3);
      expect((await placeOf(task)).top).toBeGreaterThanOrEqual(0);

      // The task step polls by itself, bounded, with its interval shown.
      const poll = bar.locator('.svc-stepbar-poll');
      expect(await poll.innerText()).toBe('Poll until done (every 1 s, at most 40 times)');
      await poll.click();
      await expect.poll(() => stateOf('task')).toBe('done');
      expect(await bar.locator('.svc-stepbar-state').innerText()).toContain('done');
      urls.task = await task.locator('.request-url pre').first().innerText();

      // The remaining steps from the bar alone: each one's operation in view, the finished folded.
      const rest = ['image', 'download', 'delete', 'delete-task'];
      for (const [i, id] of rest.entries()) {
        await bar.locator('.svc-stepbar-next').click();
        await expect.poll(() => step(id).getAttribute('aria-current')).toBe('step');
        const operationId = decodeURIComponent(new URL(page.url()).hash).split('/').pop();
        const op = page.locator(`.opblock[id$="-${operationId}"]`);
        await expect.poll(() => op.getAttribute('class')).toContain('is-open');
        await expect.poll(async () => (await placeOf(op)).top).toBeLessThan(DESKTOP.height / 3);
        expect((await placeOf(op)).top).toBeGreaterThanOrEqual(0);
        expect(await inViewport(bar.locator('.svc-stepbar-execute'))).toBe(true);
        expect(await create.getAttribute('class')).not.toContain('is-open');
        if (i === 0) {
          mkdirSync(dirname(screenshot), { recursive: true });
          await page.screenshot({ path: screenshot });
        }
        const polls = (await bar.locator('.svc-stepbar-poll').count()) > 0;
        await bar.locator(polls ? '.svc-stepbar-poll' : '.svc-stepbar-execute').click();
        await expect.poll(() => stateOf(id)).toBe('done');
        urls[id] = await op.locator('.request-url pre').first().innerText();
        if (id === 'download') {
          // The downloaded file has a name, not "application_octet-stream_file_blob_http___127...".
          const imageUuid = /\/images\/([0-9a-f-]{36})\/file$/.exec(urls.download)?.[1];
          expect(await op.locator('.live-responses-table a[download]').getAttribute('download')).toBe(
            `image-${imageUuid}.img`,
          );
        }
      }
      expect(urls.create).toBe(`${simulator.url}/api/svc/v3/images`);
      expect(urls.task).toMatch(/\/api\/svc\/v3\/tasks\/[0-9a-f-]{36}$/);
      const imageUuid = /\/api\/svc\/v3\/images\/([0-9a-f-]{36})$/.exec(urls.image)?.[1];
      expect(imageUuid).toBeDefined();
      expect(urls.download).toBe(`${simulator.url}/api/svc/v3/images/${imageUuid}/file`);
      expect(urls.delete).toBe(`${simulator.url}/api/svc/v3/images/${imageUuid}`);
      expect(urls['delete-task']).toMatch(/\/api\/svc\/v3\/tasks\/[0-9a-f-]{36}$/);
      expect(urls['delete-task']).not.toBe(urls.task);
      expect(await bar.locator('.svc-stepbar-state').innerText()).toBe('Workflow complete: all 6 steps done.');
      expect(await page.locator('.svc-workflow .svc-workflow-complete').innerText()).toBe(
        'Workflow complete: all 6 steps done.',
      );
      // Done: nothing left to Execute in the bar.
      expect(await bar.locator('button').allInnerTexts()).toEqual([]);
      expect(pageErrors).toEqual([]);
    } finally {
      // the next test goes on in this tab
    }
  });
});

describe('credentials', () => {
  it("after Execute, one curl: the sample's, which answers 200 pasted after the line npm start prints", async () => {
    const page = await newPage();
    try {
      // Out of the workflow (its own link), to the operation from the sidebar; still authorized.
      await page.getByRole('link', { name: 'Leave this workflow' }).click();
      await expect.poll(() => page.locator('.svc-stepbar').count()).toBe(0);
      await fromSidebar(page, 'List images');
      const op = page.locator('.opblock[id$="-images_list"]');
      await op.locator('button.execute:not([disabled])').click();
      await expect
        .poll(() => op.locator('.live-responses-table tr.response .response-col_status').first().innerText(), {
          message: 'images_list never answered',
        })
        .toBe('200');
      // One curl: the samples', at the service's own URL (with -k); Swagger UI's own is left out.
      expect(await op.locator('.request-snippets, .curl').count()).toBe(0);
      const shown = await op.locator('.svc-code-samples pre').innerText();
      expect(shown).toContain(`-X POST "${simulator.url}/api/svc/v3/images/list"`);
      // Pasted into a shell with nothing set but the printed line; curl reports the status.
      const script = [
        credentialsLine(simulator.user, PASSWORD),
        `curl() { command curl -sS -o /dev/null -w '%{http_code}' "$@"; }`,
        shown,
      ].join('\n');
      const out = await new Promise((resolve) =>
        execFile(
          'bash',
          ['-c', script],
          { env: { PATH: process.env.PATH }, timeout: 90_000 },
          (error, stdout, stderr) => resolve({ error, stdout, stderr }),
        ),
      );
      expect(out.stdout, `${script}\n${out.stderr}`).toBe('200');
    } finally {
      // the next test goes on in this tab
    }
  });

  it('a 401 says whether credentials were missing or refused; Authorize shows who is logged in', async () => {
    const page = await newPage();
    try {
      // Logged out with Authorize's own dialog; the operation is still open.
      await logout(page);
      const op = page.locator('.opblock[id$="-images_list"]');
      await op.locator('button.execute').click();
      const why = op.locator('.svc-explanation .svc-explanation-title');
      await expect.poll(() => why.innerText()).toBe('401 Unauthorized: the request had no credentials.');
      const explanation = await op.locator('.svc-explanation').innerText();
      expect(explanation).toContain('Click Authorize');
      expect(explanation).toContain('export SVC_USER=admin SVC_PASSWORD=');
      await authorize(page, 'not-the-password');
      expect(await page.locator('.scheme-container').innerText()).toContain(`Logged in as ${simulator.user}`);
      await op.locator('button.execute').click();
      await expect
        .poll(() => why.innerText())
        .toBe(`401 Unauthorized: the service refused the password of user "${simulator.user}".`);
      await logout(page);
      await authorize(page);
    } finally {
      // the next test goes on in this tab
    }
  });
});

describe('390 px wide', () => {
  it("a deep-linked operation's header shows below the sticky search, not under it (issue 60)", async () => {
    const page = await newPage(PHONE);
    await load(page, `${explorer.url}?api=central#/Tasks/tasks_abort`);
    const header = page.locator('.opblock.is-open[id$="-tasks_abort"] .opblock-summary');
    await header.waitFor();
    const top = () => header.evaluate((el) => el.getBoundingClientRect().top);
    // scrolled to it, far down the page, and the scrolling over (the same place over two frames)
    const settled = async () => {
      const before = await top();
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const after = await top();
      return before === after && after < PHONE.height / 2 ? 'settled' : `moving (${before} -> ${after})`;
    };
    await expect.poll(settled, { message: 'the deep link never scrolled to its operation' }).toBe('settled');
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    const sidebarBottom = await page.locator('.svc-sidebar').evaluate((el) => el.getBoundingClientRect().bottom);
    expect(await top()).toBeGreaterThanOrEqual(sidebarBottom);
  });

  it('Servers and Authorize, then the operations on the first screen, the introduction after them; nothing is wider than the phone', async () => {
    const page = await newPage(PHONE);
    try {
      await load(page, `${explorer.url}?api=central#/Images/images_list`);
      const op = page.locator('.opblock[id$="-images_list"]');
      await op.locator('button.execute').waitFor();
      // from the top of the page, whatever the deep link scrolled to
      const top = (locator) => locator.first().evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
      const firstOperation = await top(page.locator('.opblock'));
      expect(await top(page.locator('.scheme-container'))).toBeLessThan(firstOperation);
      expect(await top(page.locator('.scheme-container button.authorize'))).toBeLessThan(firstOperation);
      expect(firstOperation).toBeLessThan(PHONE.height);
      expect(await top(page.locator('.information-container'))).toBeGreaterThan(firstOperation);
      await op.locator('button.execute').click();
      await op.locator('.live-responses-table').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      // The Authorize dialog's close button is on the screen.
      const close = page.locator('.modal-ux button.close-modal');
      await clickUntilShown(page.locator('.scheme-container button.authorize'), close);
      const box = await close.boundingBox();
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await close.click();
      await close.waitFor({ state: 'detached' });
      // The answer's body takes the card's width (JSON keeps its lines), not a 205 px column.
      const width = (locator) => locator.first().evaluate((el) => el.getBoundingClientRect().width);
      const card = op;
      expect(await width(op.locator('.live-responses-table .response-col_description pre'))).toBeGreaterThan(
        0.75 * (await width(card)),
      );
      // An edited body offers Reset, inside the card.
      await op.locator('.body-param textarea').fill('{"kind": "image", "length": 2}');
      const reset = op.locator('button.try-out__btn.reset');
      await reset.waitFor();
      const right = (locator) => locator.first().evaluate((el) => el.getBoundingClientRect().right);
      expect(await right(reset)).toBeLessThanOrEqual(await right(card));
      // The operations menu: opened, it stays open over an API switch, and stays at hand (sticky).
      const menu = page.locator('details.svc-nav-tree');
      expect(await menu.getAttribute('open')).toBeNull();
      await page.locator('details.svc-nav-tree > summary').click();
      await page.locator('.topbar select').selectOption({ label: 'element API (v0.8 and v2.0)' });
      await expect.poll(() => page.locator('.information-container .title').innerText()).toContain('svc element API');
      expect(await menu.getAttribute('open')).not.toBeNull();
      await page.locator('.svc-sidebar .svc-nav-api h2 a', { hasText: 'object store API' }).click();
      await expect.poll(() => page.locator('.information-container .title').innerText()).toContain('object store');
      expect(await page.locator('details.svc-nav-tree').getAttribute('open')).not.toBeNull();
      await page.evaluate(() => window.scrollTo(0, 2000));
      await expect
        .poll(() => page.locator('.svc-sidebar').evaluate((el) => el.getBoundingClientRect().top), {
          message: 'the sidebar scrolled away with the page',
        })
        .toBe(0);
      await page.locator('details.svc-nav-tree > summary').click(); // closed again, for the tests after
      await page.locator('.topbar select').selectOption({ label: 'central API (v3)' });
    } finally {
      // the next test goes on in this tab
    }
  });
});

describe('keyboard and search', () => {
  it('from the page top, the second Tab is a skip link to Authorize (issue 60)', async () => {
    const page = await newPage();
    await load(page, `${explorer.url}?api=central`);
    await page.locator('.opblock').first().waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ className: 'svc-skip', text: 'Skip to Authorize' });
    await page.keyboard.press('Enter');
    expect((await focused(page)).className).toContain('authorize');
    expect(await inViewport(page.locator('.scheme-container button.authorize'))).toBe(true);
  });

  it('from the page top, a skip link and a few Tabs reach Execute of the linked operation', async () => {
    const page = await newPage();
    try {
      await load(page, `${explorer.url}?api=central#/Images/images_list`);
      await page.locator('.opblock[id$="-images_list"] button.execute').waitFor();
      await page.keyboard.press('Tab');
      expect(await focused(page)).toMatchObject({ className: 'svc-skip', text: 'Skip to the operation' });
      await page.keyboard.press('Enter');
      let tabs = 1;
      for (; tabs < 40; tabs++) {
        const now = await focused(page);
        if (now.operation.endsWith('-images_list') && now.className.includes('execute')) break;
        await page.keyboard.press('Tab');
      }
      expect(tabs).toBeLessThanOrEqual(12);
    } finally {
      // the next test goes on in this tab
    }
  });

  it('"/" focuses the search; a misspelled word finds its operation, first; Enter opens and focuses it', async () => {
    const page = await newPage();
    try {
      // from outside any field
      await page.locator('.information-container').click();
      await page.keyboard.press('/');
      expect((await focused(page)).tag).toBe('INPUT');
      await page.keyboard.type('imges lis');
      const first = page.locator('.svc-results a.svc-nav-op').first();
      await expect.poll(() => first.innerText()).toContain('List images');
      await first.focus();
      await page.keyboard.press('Enter');
      await expect.poll(async () => (await focused(page)).operation).toMatch(/-images_list$/);
      const op = page.locator('.opblock[id$="-images_list"]');
      expect((await placeOf(op)).top).toBeGreaterThanOrEqual(0);
      expect((await placeOf(op)).top).toBeLessThan(DESKTOP.height / 3);
      // the search emptied again: every operation listed for the tests after
      await page.locator('#svc-search-input').fill('');
      await expect.poll(() => page.locator('.svc-results').count()).toBe(0);
    } finally {
      // the next test goes on in this tab
    }
  });
});

describe('request history of this tab', () => {
  it('keeps the requests and answers without credentials, and replays one after a reload', async () => {
    const page = await newPage();
    try {
      const op = page.locator('.opblock[id$="-images_list"]');
      await op.locator('button.execute:not([disabled])').waitFor();
      const body = op.locator('.body-param textarea');
      await body.fill(JSON.stringify({ kind: 'image', length: 1 }));
      // the tab's history so far (the tests before this one executed in it too)
      const entries = page.locator('.svc-history li');
      const before = await entries.count();
      await op.locator('button.execute').click();
      await expect.poll(() => entries.count(), { message: 'the Execute never reached the history' }).toBe(before + 1);
      expect(await entries.first().innerText()).toMatch(/POST\s+\/images\/list\s+200/);

      // Nothing of the credentials in storage but Authorize's own session entry.
      const storage = await page.evaluate(() => ({
        session: Object.fromEntries(Object.entries(sessionStorage)),
        local: Object.fromEntries(Object.entries(localStorage)),
      }));
      const basic = Buffer.from(`${simulator.user}:${PASSWORD}`).toString('base64');
      const { 'svc-explorer.auth': auth, ...rest } = storage.session;
      expect(JSON.parse(auth).basicAuth ?? Object.values(JSON.parse(auth))[0]).toBeTruthy();
      for (const text of [JSON.stringify(rest), JSON.stringify(storage.local)]) {
        expect(text).not.toContain(PASSWORD);
        expect(text).not.toContain(basic);
        expect(text).not.toMatch(/authorization/i);
      }
      const [entry] = JSON.parse(rest['svc-explorer.history']);
      expect(entry).toMatchObject({
        api: 'central',
        operationId: 'images_list',
        method: 'post',
        status: 200,
        body: { kind: 'json', value: { kind: 'image', length: 1 } },
      });

      // The history survives a reload (this tab's session); Replay sends the same body again.
      await page.reload();
      await expect.poll(() => entries.count()).toBe(before + 1);
      await entries.first().locator('button.svc-history-replay').click();
      await expect.poll(() => entries.count()).toBe(Math.min(before + 2, 20));
      const replayed = await page.evaluate(() => JSON.parse(sessionStorage.getItem('svc-explorer.history'))[0]);
      expect(replayed).toMatchObject({ operationId: 'images_list', status: 200, body: entry.body });
      expect(replayed.id).toBeGreaterThan(entry.id);
      expect(await body.inputValue()).toContain('"length": 1');
      expect(pageErrors).toEqual([]);
    } finally {
      // the next test goes on in this tab
    }
  });
});

describe('small things', () => {
  it('an invalid UUID gets one clear message, not a raw regex and "Guid"', async () => {
    const page = await newPage();
    try {
      await fromSidebar(page, 'Get a task');
      const op = page.locator('.opblock[id$="-tasks_get"]');
      const uuid = op.locator('tr[data-param-name="uuid"] input');
      // the form complete (Execute enabled): then the field is the user's
      await op.locator('button.execute:not([disabled])').waitFor();
      await uuid.fill('not-a-uuid');
      await op.locator('button.execute').click();
      const messages = op.locator('.validation-errors li');
      await expect.poll(() => messages.count()).toBe(1);
      const text = await messages.first().innerText();
      expect(text).toContain("For 'uuid': Value must be a UUID: 8-4-4-4-12 hexadecimal digits");
      expect(text).not.toMatch(/pattern|Guid/);
      await expect.poll(() => uuid.getAttribute('title')).toContain('Value must be a UUID');
      expect(await uuid.getAttribute('title')).not.toMatch(/pattern|Guid/);
    } finally {
      // the next test goes on in this tab
    }
  });
});

describe('1440 px wide', () => {
  it('an operation open with its links and examples does not make the page scroll sideways (issue 60)', async () => {
    const page = await newPage();
    await load(page, `${explorer.url}?api=central#/Images/images_create`);
    await page.locator('.opblock.is-open[id$="-images_create"] button.execute').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(DESKTOP.width);
  });
});

describe('npm run dev: what the last save broke, in the page (issue 60)', () => {
  it('shows a failed bundle (file, line, message, the last good build) and lint errors, and clears on a good build', async () => {
    const page = await newPage();
    const dev = await startExplorer({ dir: inject('explorerDist'), liveReload: true });
    try {
      await load(page, `${dev.url}?api=central`);
      await page.locator('.opblock').first().waitFor();
      const banner = page.locator('#svc-dev-problems');
      dev.problems([
        {
          file: 'spec/central/paths/images.yaml',
          line: 12,
          column: 3,
          message: 'yaml bad indentation',
          stage: 'bundle',
        },
      ]);
      await banner.waitFor();
      expect(await banner.getAttribute('role')).toBe('alert');
      expect((await banner.innerText()).split(/\n+/)).toEqual([
        'npm run dev: the last save does not bundle. This page shows the last good build; fix the file and save.',
        'spec/central/paths/images.yaml:12:3 yaml bad indentation',
      ]);
      // a page opened (or reloaded) meanwhile says it at once
      await page.reload();
      await banner.waitFor();
      expect(await banner.innerText()).toContain('spec/central/paths/images.yaml:12:3');
      dev.problems([{ file: 'spec/central/openapi.yaml', line: 4, column: 1, message: 'struct bogus', stage: 'lint' }]);
      await expect.poll(() => banner.innerText()).toContain('the spec has lint errors (this page shows its build)');
      expect(await banner.innerText()).toContain('spec/central/openapi.yaml:4:1 struct bogus');
      dev.problems([]);
      await banner.waitFor({ state: 'detached' });
    } finally {
      await dev.close();
    }
  });
});
