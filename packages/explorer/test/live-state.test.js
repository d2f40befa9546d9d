// A single operation tried with the form as it comes (issue 60), in one tab against the local svc:
// defaults from what the local svc holds (read in the background, then from the tab's own
// answers), the newest answer winning and a deleted UUID no longer offered, every status in the
// history, error answers that offer their fix (the operation that lists what is missing, a new
// name, Authorize), the focus on an answer's status after Execute and back on the button that
// opened a dialog, a workflow step that failed offering its fix instead of a poll, Restart, and
// the examples marked as examples against a real endpoint.

import { request } from 'node:https';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser } from './support/browser.js';
import { authorize, clickUntilShown, guardedPage, startLocalSvc } from './support/page.js';

const require = createRequire(import.meta.url);
const PASSWORD = 'what-is-alive';
const VIEWPORT = { width: 1440, height: 900 };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NOBODY = '00000000-0000-4000-8000-000000000000';

let local;
let simulator;
let explorer;
let browser;
let page;
const pageErrors = [];

beforeAll(async () => {
  [browser, local] = await Promise.all([
    openBrowser({ viewport: VIEWPORT }),
    startLocalSvc({ name: 'live', password: PASSWORD, seed: 17 }),
  ]);
  ({ simulator, explorer } = local);
  page = await guardedPage(browser.context, pageErrors, { viewport: VIEWPORT });
});

afterAll(async () => {
  await browser?.close();
  await local?.close();
});

/** The local svc itself, for what a test checks behind the page's back: the answer's JSON. */
function svc(method, path, body) {
  return new Promise((resolve, reject) => {
    const req = request(
      `${simulator.url}${path}`,
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
        res.on('end', () => resolve(JSON.parse(text)));
      },
    );
    req.on('error', reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

const op = (operationId) => page.locator(`.opblock[id$="-${operationId}"]`);
const execute = (operationId) => op(operationId).locator('button.execute:not([disabled])');
const history = () => page.evaluate(() => JSON.parse(sessionStorage.getItem('svc-explorer.history') || '[]'));
const bodyOf = async (operationId) => JSON.parse(await op(operationId).locator('.body-param textarea').inputValue());
const field = (operationId, name) => op(operationId).locator(`tr[data-param-name="${name}"] input`);

/** axe-core's moderate, serious and critical violations of the page as it is now. */
async function seriousViolations() {
  if (!(await page.evaluate(() => 'axe' in window)))
    await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  const { violations } = await page.evaluate(() =>
    /** @type {any} */ (window).axe.run(document, { resultTypes: ['violations'] }),
  );
  return violations
    .filter((v) => ['moderate', 'serious', 'critical'].includes(v.impact))
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(', ')}`,
    );
}

/** Opens an operation of the API shown from the sidebar, as a user does (its summary exactly). */
async function fromSidebar(summary) {
  const name = page.locator('.svc-nav-op-name', { hasText: new RegExp(`^${summary.replace(/[()]/g, '\\$&')}$`) });
  await page.locator('.svc-sidebar a.svc-nav-op').filter({ has: name }).first().click();
}

/** Executes an open operation as it stands and waits for its answer: the history's new entry. */
async function run(operationId) {
  const before = (await history())[0]?.id ?? 0;
  await execute(operationId).click();
  await expect
    .poll(async () => (await history())[0]?.id ?? 0, { message: `${operationId} never answered` })
    .toBeGreaterThan(before);
  return (await history())[0];
}

describe('defaults from what the local svc holds', () => {
  it('objects: create an object store from the form as it comes, in a new tab (clusters and subnets read in the background)', async () => {
    await page.goto(`${explorer.url}?api=objects#/Object%20stores/objectstores_create`);
    await authorize(page, simulator.user, PASSWORD);
    await svc('POST', '/api/svc/v3/services/oss', { state: 'ENABLE' });
    await execute('objectstores_create').waitFor();
    const clusters = (await svc('POST', '/api/svc/v3/clusters/list', {})).entities.map((e) => e.metadata.uuid);
    const subnets = (await svc('POST', '/api/svc/v3/subnets/list', {})).entities.map((e) => e.metadata.uuid);
    await expect
      .poll(async () => (await bodyOf('objectstores_create')).spec.resources.cluster_reference.uuid, {
        message: 'the cluster was never filled from the local svc',
      })
      .toBeOneOf(clusters);
    const resources = (await bodyOf('objectstores_create')).spec.resources;
    expect(subnets).toContain(resources.buckets_infra_network_reference.uuid);
    expect(subnets).toContain(resources.client_access_network_reference.uuid);
    // the body says where its values came from
    const note = await op('objectstores_create').locator('.svc-body-note').innerText();
    expect(note).toMatch(/spec\.resources\.cluster_reference\.uuid \(cluster\): From the local svc: the newest/);
    expect(note).toContain('POST /clusters/list');
    expect((await run('objectstores_create')).status).toBe(202);
    expect(pageErrors).toEqual([]);
  });

  it('element: a v2.0 image create works as it comes; the v0.8 upload names a live container, never a deleted image', async () => {
    await page.locator('.topbar select').selectOption({ label: 'element API (v0.8 and v2.0)' });
    await page.waitForURL(/\?api=element/);
    await fromSidebar('Create an image (v2.0)');
    await execute('images_create_v2_0').waitFor();
    const containers = (await svc('GET', '/api/svc/v2.0/storage_containers')).entities.map(
      (e) => e.storage_container_uuid,
    );
    const spec = (await bodyOf('images_create_v2_0')).image_import_spec;
    expect(containers).toContain(spec.storage_container_uuid);
    expect(spec.url).toBe(`${simulator.url}/samples/cirros.img`);
    expect((await run('images_create_v2_0')).status).toBe(201);

    // Two v0.8 records: the newest answer gives the upload its image; one deleted is not offered.
    const created = [];
    await fromSidebar('Create an image record (v0.8)');
    for (const _ of [1, 2]) {
      const entry = await run('images_create_v0_8');
      expect(entry.status).toBe(200);
      await fromSidebar('Get a task (v0.8)');
      await execute('tasks_get_v0_8').waitFor();
      for (let done = false; !done; ) {
        const task = await run('tasks_get_v0_8');
        done = /Succeeded/.test(task.preview);
        if (!done) await page.waitForTimeout(300);
      }
      created.push((await history())[0].uuids.find((u) => u.kind === 'images').uuid);
      await fromSidebar('Create an image record (v0.8)');
    }
    await fromSidebar('Upload the bytes of an image (v0.8)');
    await execute('images_upload_v0_8').waitFor();
    await expect.poll(() => field('images_upload_v0_8', 'uuid').inputValue()).toBe(created[1]);
    expect(containers).toContain(await field('images_upload_v0_8', 'X-Svc-Destination-Container').inputValue());
    expect(await op('images_upload_v0_8').locator('tr[data-param-name="uuid"] + tr.svc-prefilled').innerText()).toMatch(
      /^uuid: From the answer of GET \/v0\.8\/tasks\/\{uuid\} at/,
    );
    // deleted through v2.0: the upload no longer offers it, but the one before
    await fromSidebar('Delete an image (v2.0)');
    await execute('images_delete_v2_0').waitFor();
    await expect.poll(() => field('images_delete_v2_0', 'uuid').inputValue()).toBe(created[1]);
    expect((await run('images_delete_v2_0')).status).toBeLessThan(300);
    await fromSidebar('Upload the bytes of an image (v0.8)');
    await expect.poll(() => field('images_upload_v0_8', 'uuid').inputValue()).not.toBe(created[1]);
    expect(await field('images_upload_v0_8', 'uuid').inputValue()).toMatch(UUID);
    expect(pageErrors).toEqual([]);
  });
});

describe('failures say the fix, and the history says every status', () => {
  it('a container that does not exist: the answer links the list, and one click fills the field', async () => {
    await fromSidebar('Create an image (v2.0)');
    const body = op('images_create_v2_0').locator('.body-param textarea');
    const value = await bodyOf('images_create_v2_0');
    value.image_import_spec.storage_container_uuid = NOBODY;
    await body.fill(JSON.stringify(value, null, 2));
    const refused = await run('images_create_v2_0');
    expect(refused.status).toBe(400);
    // in the history with its status, not as "no answer"
    expect(await page.locator('.svc-history li').first().locator('.svc-history-status').innerText()).toBe('400');
    const fixes = op('images_create_v2_0').locator('.svc-fixes');
    await expect.poll(() => fixes.innerText()).toContain(`No storage container has the UUID ${NOBODY}`);
    expect(await fixes.locator('a.svc-fix-lister').innerText()).toBe(
      'List storage containers (v2.0) (GET /v2.0/storage_containers)',
    );
    await fixes.getByRole('button', { name: /^Fill image_import_spec\.storage_container_uuid from/ }).click();
    await expect
      .poll(async () => (await bodyOf('images_create_v2_0')).image_import_spec.storage_container_uuid)
      .toMatch(UUID);
    expect((await bodyOf('images_create_v2_0')).image_import_spec.storage_container_uuid).not.toBe(NOBODY);
    expect((await run('images_create_v2_0')).status).toBe(201);
  });

  it('a name that exists (409): a new name in one click; a 401: Authorize, the focus back on the button that opened it', async () => {
    await page.locator('.topbar select').selectOption({ label: 'object store API (v3)' });
    await page.waitForURL(/\?api=objects/);
    await fromSidebar('Create an object store');
    await execute('objectstores_create').waitFor();
    const refused = await run('objectstores_create');
    expect(refused.status).toBe(409);
    expect(await page.locator('.svc-history li').first().locator('.svc-history-status').innerText()).toBe('409');
    const rename = op('objectstores_create').getByRole('button', { name: 'Use the name objects-prod-02' });
    await rename.waitFor();
    // the fixes, the notes of filled values, the statuses of the history and the workflows of the
    // sidebar pass axe-core as the rest of the page does, light and dark
    for (const mode of ['light', 'dark']) {
      if (mode === 'dark') await page.getByRole('button', { name: 'Switch to dark mode' }).click();
      expect(await seriousViolations(), mode).toEqual([]);
    }
    await page.getByRole('button', { name: 'Switch to light mode' }).click();
    await rename.click();
    await expect.poll(async () => (await bodyOf('objectstores_create')).spec.name).toBe('objects-prod-02');
    expect((await run('objectstores_create')).status).toBe(202);

    // without credentials: a 401 whose explanation opens Authorize
    const modal = page.locator('.modal-ux');
    await clickUntilShown(page.locator('.scheme-container button.authorize'), modal);
    await modal
      .locator('button.modal-btn.auth', { hasText: /Logout/i })
      .first()
      .click();
    await modal.locator('button.close-modal').click();
    await modal.waitFor({ state: 'detached' });
    await fromSidebar('List object stores');
    expect((await run('objectstores_list')).status).toBe(401);
    const open = op('objectstores_list').locator('button.svc-fix-authorize');
    await open.click();
    await modal.waitFor();
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.className ?? ''), {
        message: 'the focus never came back to the button that opened Authorize',
      })
      .toContain('svc-fix-authorize');
    await authorize(page, simulator.user, PASSWORD);
  });

  it('after Execute, the focus and the view go to the answer status', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await execute('objectstores_list').click();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('.opblock')?.id ?? ''), {
        message: 'the focus never went to the answer',
      })
      .toMatch(/-objectstores_list$/);
    const focused = await page.evaluate(() => {
      const el = /** @type {HTMLElement} */ (document.activeElement);
      const box = el.getBoundingClientRect();
      return { className: el.className, text: el.innerText, inView: box.top >= 0 && box.bottom <= innerHeight };
    });
    expect(focused).toEqual({ className: 'response-col_status', text: '200', inView: true });
  });
});

describe('workflows', () => {
  it('a step answered 4xx says why and offers its fix, not a poll; Restart starts again', async () => {
    await page.goto(`${explorer.url}?api=central&workflow=image-from-url&step=1`);
    const bar = page.locator('.svc-stepbar');
    await bar.waitFor();
    await execute('tasks_get').waitFor();
    await field('tasks_get', 'uuid').fill(NOBODY);
    await bar.locator('.svc-stepbar-execute').click();
    await expect.poll(() => bar.locator('.svc-stepbar-state').innerText()).toMatch(/^failed: 404 .*does not exist/);
    expect(await bar.locator('.svc-stepbar-poll').count()).toBe(0);
    expect(await bar.locator('.svc-fixes').innerText()).toContain(`No task has the UUID ${NOBODY}`);
    await bar.getByRole('button', { name: /^Fill uuid from List tasks/ }).click();
    await expect.poll(() => field('tasks_get', 'uuid').inputValue()).toMatch(UUID);
    expect(await field('tasks_get', 'uuid').inputValue()).not.toBe(NOBODY);
    // Restart: the workflow's answers forgotten, step 1 open
    await page.getByRole('button', { name: 'Restart the workflow' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('step')).toBe('0');
    expect(
      await page.locator('.svc-workflow .svc-step').evaluateAll((els) => els.map((el) => el.dataset.state)),
    ).toEqual(['waiting', 'waiting', 'waiting', 'waiting', 'waiting', 'waiting']);
    await expect.poll(() => page.locator('.opblock.is-open[id$="-images_create"]').count()).toBe(1);
    expect(pageErrors).toEqual([]);
  });
});

describe('a real endpoint', () => {
  it("keeps the spec's examples, and says they name nothing there", async () => {
    await page.goto(`${explorer.url}?api=central#/Tasks/tasks_get`);
    await execute('tasks_get').waitFor();
    await page.locator('.scheme-container select').first().selectOption({ index: 1 });
    await expect.poll(() => field('tasks_get', 'uuid').inputValue()).toBe('7f3c2a1e-5b4d-4e8f-9a6c-1d2b3e4f5a60');
    await expect
      .poll(() => op('tasks_get').locator('.svc-prefilled-note').innerText())
      .toBe("uuid: The spec's example: it names nothing on your endpoint. Type the UUID of one of yours.");
    expect(pageErrors).toEqual([]);
  });
});
