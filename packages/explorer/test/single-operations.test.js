// Single operations against the local svc, as good as the workflows (issue 46), in one tab loaded
// once per API and moved about as a user does (the sidebar, followed links, the address's
// fragment): an example that works offline, UUIDs filled from the tab's history and said where
// they came from, links from a task to its image to the upload and from the container list to
// the upload's container, the service's own URL in the Request URL and the samples, a link to
// what does not exist named, the search (Ctrl+K, swapped letters, abbreviations), the Authorize
// dialog's names and focus, and an Execute that waits for its operation.

import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser } from './support/browser.js';
import { authorize, guardedPage, startLocalSvc } from './support/page.js';

const require = createRequire(import.meta.url);
const PASSWORD = 'one-at-a-time';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let local;
let simulator;
let explorer;
let browser;
let page;
const pageErrors = [];

beforeAll(async () => {
  [browser, local] = await Promise.all([
    openBrowser({ viewport: { width: 1440, height: 900 } }),
    startLocalSvc({ name: 'single', password: PASSWORD, seed: 11 }),
  ]);
  ({ simulator, explorer } = local);
  page = await guardedPage(browser.context, pageErrors);
});

afterAll(async () => {
  await browser?.close();
  await local?.close();
});

/** The block of an operation. */
const op = (operationId) => page.locator(`.opblock[id$="-${operationId}"]`);
/** Its Execute, once the page lets it be clicked. */
const execute = (operationId) => op(operationId).locator('button.execute:not([disabled])');
/** The status of its last answer. */
const statusOf = (operationId) =>
  op(operationId).locator('.live-responses-table tr.response .response-col_status').first().innerText();
/** Its last answer's body, parsed. */
const answerOf = async (operationId) =>
  JSON.parse(await op(operationId).locator('.live-responses-table .response-col_description pre').first().innerText());
/** Opens an operation of the API shown from the sidebar, as a user does. */
async function fromSidebar(summary) {
  await page.locator('.svc-sidebar a.svc-nav-op', { hasText: summary }).first().click();
}
/** Executes an open operation and waits for its answer's status. */
async function run(operationId, status) {
  const before = await page.evaluate(() => JSON.parse(sessionStorage.getItem('svc-explorer.history') || '[]').length);
  await execute(operationId).click();
  await expect
    .poll(() => page.evaluate(() => JSON.parse(sessionStorage.getItem('svc-explorer.history') || '[]').length), {
      message: `the answer to ${operationId} never came`,
    })
    .toBeGreaterThan(before);
  expect(await statusOf(operationId)).toBe(status);
}

describe('central: an operation on its own', () => {
  it('Create an image works offline: its example fetches the local svc sample; Request URL and samples name the service', async () => {
    // Deep link: the stability check of the page start rides on this, the file's one load of central.
    await page.addInitScript(() => {
      // When Execute first became clickable: was the operation resolved then (its form complete)?
      const seen = /** @type {any} */ (window);
      new MutationObserver(() => {
        if (seen.__executeReady !== undefined) return;
        const button = document.querySelector('.opblock.is-open button.execute:not([disabled])');
        if (!button) return;
        seen.__executeReady = {
          resolved: Boolean(seen.ui?.specSelectors.specResolvedSubtree(['paths', '/images', 'post'])),
          body: Boolean(document.querySelector('.opblock.is-open .body-param textarea')),
        };
      }).observe(document, { subtree: true, childList: true, attributes: true });
    });
    await page.goto(`${explorer.url}?api=central#/Images/images_create`);
    await execute('images_create').waitFor();
    // Execute was clickable only once the operation was resolved, its request body in the form.
    expect(await page.evaluate(() => /** @type {any} */ (window).__executeReady)).toEqual({
      resolved: true,
      body: true,
    });
    await authorize(page, simulator.user, PASSWORD);
    const body = op('images_create').locator('.body-param textarea');
    const sample = `${simulator.url}/samples/cirros.img`;
    await expect
      .poll(async () => JSON.parse(await body.inputValue()).spec.resources.source_uri, {
        message: 'the example body never pointed at the local svc sample',
      })
      .toBe(sample);
    await run('images_create', '202');
    // The service's own URL, not the explorer's /local/ detour; one curl, the samples'.
    const service = `${simulator.url}/api/svc/v3`;
    expect(await op('images_create').locator('.request-url pre').first().innerText()).toBe(`${service}/images`);
    expect(await op('images_create').locator('.request-snippets, .curl').count()).toBe(0);
    const curl = await op('images_create').locator('.svc-code-samples pre').innerText();
    expect(curl).toContain(`curl -k -u "$SVC_USER:$SVC_PASSWORD" \\\n  -X POST "${service}/images"`);
    expect(curl).not.toContain('/local/');
    // The task the create started succeeds: the local svc fetched its own sample.
    const task = (await answerOf('images_create')).status.execution_context.task_uuid;
    await op('images_create').getByRole('button', { name: 'Follow the create task.' }).click();
    await execute('tasks_get').waitFor();
    await expect
      .poll(
        async () => {
          await run('tasks_get', '200');
          return (await answerOf('tasks_get')).status;
        },
        { message: `task ${task} never left its running state`, interval: 500 },
      )
      .toMatch(/SUCCEEDED|FAILED/);
    expect((await answerOf('tasks_get')).status).toBe('SUCCEEDED');
    expect(pageErrors).toEqual([]);
  });

  it('fills a UUID path parameter from the newest matching answer of the history, and says which', async () => {
    // The task UUID the create gave (the newest answer naming a task is the task get above).
    await fromSidebar('Abort a task');
    await execute('tasks_abort').waitFor();
    const taskUuid = op('tasks_abort').locator('tr[data-param-name="uuid"] input');
    await expect.poll(() => taskUuid.inputValue(), { message: 'the task UUID was never filled in' }).toMatch(UUID);
    const created = await page.evaluate(() =>
      JSON.parse(sessionStorage.getItem('svc-explorer.history')).find((e) => e.operationId === 'images_create'),
    );
    expect(created.uuids).toContainEqual({ kind: 'tasks', uuid: await taskUuid.inputValue() });
    expect(await op('tasks_abort').locator('.svc-prefilled').innerText()).toMatch(
      /^uuid: From the answer of GET \/tasks\/\{uuid\} at \d\d:\d\d:\d\d \(History of this tab\)\.$/,
    );
    // An image UUID from the last list.
    await fromSidebar('List images');
    await op('images_list')
      .locator('.body-param textarea')
      .fill(JSON.stringify({ kind: 'image', length: 1 }));
    await run('images_list', '200');
    const listed = (await answerOf('images_list')).entities[0].metadata.uuid;
    await fromSidebar('Get an image');
    const imageUuid = op('images_get').locator('tr[data-param-name="uuid"] input');
    await expect.poll(() => imageUuid.inputValue(), { message: 'the image UUID was never filled in' }).toBe(listed);
    expect(await op('images_get').locator('.svc-prefilled').innerText()).toMatch(
      /From the answer of POST \/images\/list at/,
    );
    // A value the user types is theirs: the note goes.
    await imageUuid.fill('00000000-0000-4000-8000-000000000000');
    await expect.poll(() => op('images_get').locator('.svc-prefilled').isVisible()).toBe(false);
    expect(pageErrors).toEqual([]);
  });

  it('names what a link asks for that is not there: an operation, or one of another API', async () => {
    await page.evaluate(() => {
      location.hash = '#/Images/images_nope';
    });
    const notice = page.locator('.svc-notice[data-kind="operation"]');
    await expect
      .poll(() => notice.innerText(), { message: 'no notice for an unknown operation' })
      .toBe('No operation "Images/images_nope" in central API (v3) (the link after #). Search for it in the sidebar.');
    await page.evaluate(() => {
      location.hash = '#/Images%20(v0.8)/images_list_v0_8';
    });
    await expect
      .poll(() => notice.innerText())
      .toContain('No operation "Images (v0.8)/images_list_v0_8" in central API');
    expect(await notice.locator('a').innerText()).toBe('element API (v0.8 and v2.0)');
    expect(await notice.locator('a').getAttribute('href')).toBe('?api=element#/Images%20(v0.8)/images_list_v0_8');
    // A link to something that is there takes the notice away.
    await fromSidebar('List images');
    await expect.poll(() => notice.count()).toBe(0);
  });

  it('Ctrl+K searches; swapped letters and abbreviations (dropped vowels too) find their operation first', async () => {
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('Control+k');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('svc-search-input');
    const first = page.locator('.svc-results a.svc-nav-op .svc-nav-op-name').first();
    for (const [query, summary] of [
      ['uplaod', /upload/i],
      ['list imgs', /^List images$/],
      ['objstore', /object store/i],
      // letters where the words have consonants (issue 60)
      ['tsk', /task/i],
      ['tsk poll', /^Wait for tasks/],
      ['imgs', /image/i],
      ['ctnr', /storage container/i],
    ]) {
      await page.keyboard.press('Control+a');
      await page.keyboard.type(query);
      await expect.poll(() => first.innerText(), { message: `"${query}" found nothing` }).toMatch(summary);
    }
    // "/" still works, outside a field
    await page.locator('#svc-search-input').fill('');
    await expect.poll(() => page.locator('.svc-results').count()).toBe(0);
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('svc-search-input');
  });

  it("Authorize's dialog: named buttons (axe), and the focus back on Authorize when it closes", async () => {
    const button = page.locator('.scheme-container button.authorize');
    const modal = page.locator('.modal-ux');
    for (const close of ['button', 'Escape']) {
      await button.click();
      await modal.waitFor();
      if (close === 'button') {
        await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
        const { violations } = await page.evaluate(() =>
          /** @type {any} */ (window).axe.run(
            { include: [['.modal-ux']] },
            { resultTypes: ['violations'], rules: { 'label-content-name-mismatch': { enabled: true } } },
          ),
        );
        expect(violations.map((v) => `${v.impact} ${v.id}: ${v.nodes[0].target}`)).toEqual([]);
        await modal.locator('button.close-modal').click();
      } else await page.keyboard.press('Escape');
      await modal.waitFor({ state: 'detached' });
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.className ?? ''), {
          message: `the focus never came back to Authorize after closing with ${close}`,
        })
        .toContain('authorize');
    }
  });
});

describe('element: from a task to its image to the upload, from the container list to the upload', () => {
  it('follows links task -> image -> upload, and container list -> the upload with its container', async () => {
    await page.locator('.svc-sidebar .svc-nav-api h2 a', { hasText: 'element API' }).click();
    await page.waitForURL(/\?api=element/);
    await fromSidebar('Create an image record (v0.8)');
    await run('images_create_v0_8', '200');
    await op('images_create_v0_8').getByRole('button', { name: 'Follow the create task.' }).click();
    await execute('tasks_get_v0_8').waitFor();
    await expect
      .poll(
        async () => {
          await run('tasks_get_v0_8', '200');
          return (await answerOf('tasks_get_v0_8')).progressStatus;
        },
        { message: 'the v0.8 create task never finished', interval: 500 },
      )
      .toBe('Succeeded');
    await op('tasks_get_v0_8')
      .getByRole('button', { name: /Read the image/ })
      .click();
    await run('images_get_v0_8', '200');
    const image = (await answerOf('images_get_v0_8')).uuid;
    await op('images_get_v0_8')
      .getByRole('button', { name: /Upload the bytes/ })
      .click();
    const upload = op('images_upload_v0_8');
    await upload.locator('button.execute').waitFor();
    await expect.poll(() => upload.locator('tr[data-param-name="uuid"] input').inputValue()).toBe(image);

    await fromSidebar('List storage containers');
    await run('storage_containers_list_v2_0', '200');
    const container = (await answerOf('storage_containers_list_v2_0')).entities[0].storage_container_uuid;
    await op('storage_containers_list_v2_0')
      .getByRole('button', { name: /Upload an image's bytes into/ })
      .click();
    await expect
      .poll(() => upload.locator('tr[data-param-name="X-Svc-Destination-Container"] input').inputValue(), {
        message: 'the container header was never filled in',
      })
      .toBe(container);
    // The image the upload link gave stays.
    await expect.poll(() => upload.locator('tr[data-param-name="uuid"] input').inputValue()).toBe(image);
    expect(pageErrors).toEqual([]);
  });
});
