// Every operation of the four APIs, executed in Chromium from the defaults the explorer gives it
// against the local svc, answers 2xx (issue 60). The list of operations comes from the operation
// index (the bundles, as the page's own index): an operation added to the spec and missing here
// fails the first test. The order creates what later operations need (a container before the
// image made in it, an object store before its certificate); between two calls the test waits as
// a user does, Executing a get again until the task or store it follows is done. The few
// operations whose defaults alone cannot succeed by design are in BY_DESIGN, each with its
// reason and what the user does first. One tab at 1440x900; after each answer the page must not
// scroll sideways.

import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { operationHash } from '@svc/oas';
import { apis } from '@svc/oas/apis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchIndexOf } from '../scripts/search-index.mjs';
import { openBrowser } from './support/browser.js';
import { authorize, guardedPage, startLocalSvc } from './support/page.js';

const PASSWORD = 'every-operation';
const VIEWPORT = { width: 1440, height: 900 };

/** The operation index, as the build makes it for the page. */
const index = Object.fromEntries(
  apis().map((api) => [api.name, searchIndexOf(api.name, api.name, JSON.parse(readFileSync(api.bundleJson, 'utf8')))]),
);

/** Bytes whose SHA-256 is the example `X-Svc-Checksum-Bytes` of `PUT /images/{uuid}/file`. */
const UPLOAD = Buffer.from('test');

/** A task of the local svc is over: a v3 task, a v2.0 or v0.8 one. */
const taskEnded = (body) =>
  /^(SUCCEEDED|FAILED|ABORTED|Succeeded|Failed|Aborted)$/.test(
    String(body?.status ?? body?.progress_status ?? body?.progressStatus),
  );
/** A task succeeded (the state the next call needs). */
const taskSucceeded = (body) =>
  /^(SUCCEEDED|Succeeded)$/.test(String(body?.status ?? body?.progress_status ?? body?.progressStatus));
/** An object store is COMPLETE (its create or its certificate done). */
const storeComplete = (body) => body?.status?.state === 'COMPLETE';

/**
 * The operations whose defaults alone cannot answer 2xx, by design: why, and what a user does
 * first (`first`: calls with the user's own values, `file`: the bytes chosen). The test does the
 * same, then Executes the operation with the defaults the page gives.
 * @type {Record<string, { why: string, first?: (run: Run) => Promise<any>, file?: Buffer | (() => Buffer) }>}
 */
const BY_DESIGN = {
  tasks_abort: {
    why: "aborts a task that still runs, and the local svc fetches its own sample image (the create's default) in half a second: a create whose source never answers runs long enough",
    first: (run) =>
      run('central', 'images_create', {
        body: (b) => {
          b.spec.resources.source_uri = hanging.url;
        },
      }),
  },
  images_upload_file: {
    why: 'sends a file, which no default can choose, and takes one only for an image created without `source_uri` (the create example has one)',
    first: (run) =>
      run('central', 'images_create', {
        body: (b) => {
          delete b.spec.resources.source_uri;
        },
      }),
    file: UPLOAD,
  },
  images_upload_v0_8: { why: 'sends a file, which no default can choose', file: Buffer.alloc(4096, 7) },
  tasks_complete: {
    why: "ends a task that still runs (409 for one that has ended), and the local svc's tasks end in half a second: a task made to last an hour (task_seconds 3600, an image without a source to fetch)",
    first: async (run) => {
      await run('control', 'settings_update', {
        body: (b) => {
          b.task_seconds = 3600;
        },
      });
      return run('central', 'images_create', {
        body: (b) => {
          delete b.spec.resources.source_uri;
        },
      });
    },
  },
  snapshot_upload: {
    why: 'sends an archive, which no default can choose: the user picks the file snapshot_download saved',
    file: () => archive,
  },
};

/** An image is COMPLETE (its bytes stored). */
const imageComplete = (body) => body?.status?.state === 'COMPLETE';

/**
 * The order of the calls: each API's lists and reads first, then what creates, changes and
 * deletes, so that every default names something that exists and is in a state to take the call.
 * `until`: Execute again (a user polling) until the answer holds; `after`: a call that waits so
 * (a task, a store) before the next operation, which needs what this one started to be over.
 * `download`: the answer's file is saved as a user does (its "Download file" link), in `archive`.
 * @typedef {{ api: string, operationId: string, until?: (body: any) => boolean }} Call
 * @type {(Call & { after?: Call, download?: true })[]}
 */
const PLAN = [
  ...['clusters_list', 'subnets_list', 'images_list', 'tasks_list', 'clusters_get', 'subnets_get'].map((id) => ({
    api: 'central',
    operationId: id,
  })),
  { api: 'central', operationId: 'services_oss_enable' },
  { api: 'central', operationId: 'services_get_status', until: (b) => b?.service_enablement_status === 'ENABLED' },
  { api: 'central', operationId: 'tasks_abort' },
  { api: 'central', operationId: 'images_create' },
  { api: 'central', operationId: 'tasks_get', until: taskEnded },
  { api: 'central', operationId: 'tasks_poll' },
  { api: 'central', operationId: 'images_get' },
  { api: 'central', operationId: 'images_update' },
  { api: 'central', operationId: 'images_download_file' },
  { api: 'central', operationId: 'images_migrate' },
  { api: 'central', operationId: 'batch_create' },
  {
    api: 'central',
    operationId: 'images_upload_file',
    after: { api: 'central', operationId: 'images_get', until: imageComplete },
  },
  { api: 'central', operationId: 'images_delete' },
  ...[
    'storage_containers_list_v2_0',
    'storage_containers_get_v2_0',
    'images_list_v2_0',
    'images_list_v0_8',
    'tasks_list_v2_0',
    'tasks_list_v0_8',
  ].map((id) => ({ api: 'element', operationId: id })),
  { api: 'element', operationId: 'images_create_v2_0' },
  { api: 'element', operationId: 'tasks_get_v2_0', until: taskEnded },
  { api: 'element', operationId: 'tasks_poll_v2_0' },
  { api: 'element', operationId: 'images_get_v2_0' },
  { api: 'element', operationId: 'images_update_v2_0' },
  { api: 'element', operationId: 'images_create_v0_8' },
  { api: 'element', operationId: 'tasks_get_v0_8', until: taskSucceeded },
  { api: 'element', operationId: 'tasks_poll_v0_8' },
  { api: 'element', operationId: 'images_get_v0_8' },
  {
    api: 'element',
    operationId: 'images_upload_v0_8',
    after: { api: 'element', operationId: 'tasks_get_v0_8', until: taskSucceeded },
  },
  { api: 'element', operationId: 'images_delete_v0_8' },
  { api: 'element', operationId: 'images_delete_v2_0' },
  { api: 'objects', operationId: 'groups_list' },
  { api: 'objects', operationId: 'objectstores_list' },
  { api: 'objects', operationId: 'objectstores_create' },
  { api: 'objects', operationId: 'objectstores_get', until: storeComplete },
  { api: 'objects', operationId: 'objectstores_groups_list' },
  {
    api: 'objects',
    operationId: 'objectstores_regenerate_self_signed_cert',
    after: { api: 'objects', operationId: 'objectstores_get', until: storeComplete },
  },
  { api: 'objects', operationId: 'objectstores_delete' },
  // the local svc's control API (issue 59) last: a reset or a restore changes what the others need
  ...['health_list', 'settings_list', 'faults_list', 'requests_list'].map((id) => ({
    api: 'control',
    operationId: id,
  })),
  // its example makes the next two image lists answer 503: the rules go at once
  { api: 'control', operationId: 'faults_update' },
  { api: 'control', operationId: 'faults_delete' },
  { api: 'control', operationId: 'requests_delete' },
  { api: 'control', operationId: 'tasks_complete' },
  // its example (tasks as fast as their work) ends the hour tasks_complete set
  { api: 'control', operationId: 'settings_update' },
  // the archive Download saves, which snapshot_upload restores after the reset
  { api: 'control', operationId: 'snapshot_download', download: true },
  { api: 'control', operationId: 'reset_create' },
  { api: 'control', operationId: 'snapshot_upload' },
];

/** @typedef {(api: string, operationId: string, options?: { body?: (body: any) => void, file?: Buffer, until?: (body: any) => boolean }) => Promise<{ status: number, body: any }>} Run */

let local;
let browser;
let page;
/** An image source that never answers: a create from it runs until it is aborted. */
let hanging;
/** The snapshot the page downloaded (snapshot_download), which snapshot_upload sends. */
let archive = Buffer.alloc(0);
let shown = '';
const pageErrors = [];

beforeAll(async () => {
  [browser, local] = await Promise.all([
    openBrowser({ viewport: VIEWPORT }),
    startLocalSvc({ name: 'every', password: PASSWORD, seed: 60 }),
  ]);
  const held = new Set();
  const server = createServer((_req, res) => held.add(res));
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  hanging = {
    url: `http://127.0.0.1:${server.address().port}/never.qcow2`,
    close: () =>
      new Promise((r) => {
        for (const res of held) res.destroy();
        server.close(r);
        server.closeAllConnections();
      }),
  };
  page = await guardedPage(browser.context, pageErrors, { viewport: VIEWPORT });
});

afterAll(async () => {
  await browser?.close();
  await local?.close();
  await hanging?.close();
});

/** The history's entries of the tab, newest first. */
const history = () => page.evaluate(() => JSON.parse(sessionStorage.getItem('svc-explorer.history') || '[]'));

/** @type {Run} */
async function run(api, operationId, { body, file, until } = {}) {
  if (api !== shown) {
    await page.goto(`${local.explorer.url}?api=${api}`);
    await page.locator('.opblock').first().waitFor();
    shown = api;
  }
  // what is done is closed, as a user leaves it: the page stays short
  for (const open of await page.locator('.opblock.is-open').all()) {
    if (!(await open.getAttribute('id'))?.endsWith(`-${operationId}`))
      await open.locator('.opblock-summary-control').click();
  }
  const { tag } = index[api].operations[operationId];
  await page.evaluate(
    (hash) => {
      // the same link twice (the operation closed since) opens it again too
      if (location.hash === hash) history.replaceState(history.state, '', '#');
      location.hash = hash;
    },
    operationHash(tag, operationId),
  );
  const block = page.locator(`.opblock.is-open[id$="-${operationId}"]`);
  // enabled once the operation is resolved and the local svc's lists are read (its defaults)
  const execute = block.locator('button.execute:not([disabled])');
  await execute.waitFor();
  // the body a user typed for an earlier call stays in the form: Reset gives the defaults back
  const reset = block.locator('button.try-out__btn.reset');
  if (!body && (await reset.count())) await reset.click();
  if (body) {
    const textarea = block.locator('.body-param textarea');
    const value = JSON.parse(await textarea.inputValue());
    body(value);
    await textarea.fill(JSON.stringify(value, null, 2));
  }
  if (file)
    await block
      .locator('input[type=file]')
      .setInputFiles({ name: 'bytes.img', mimeType: 'application/octet-stream', buffer: file });
  for (let attempt = 1; ; attempt++) {
    const before = (await history())[0]?.id ?? 0;
    await execute.click();
    await expect
      .poll(async () => (await history())[0]?.id ?? 0, { message: `${operationId} never answered` })
      .toBeGreaterThan(before);
    const [entry] = await history();
    let answer;
    try {
      answer = JSON.parse(
        await block.locator('.live-responses-table .response-col_description pre').first().innerText(),
      );
    } catch {
      answer = entry.preview;
    }
    if (!until || !(entry.status >= 200 && entry.status < 300) || until(answer))
      return { status: entry.status, body: answer, entry };
    expect(attempt, `${operationId}: still not there after ${attempt} Executes`).toBeLessThan(60);
    await page.waitForTimeout(500);
  }
}

describe('every operation of the four APIs from its defaults, against the local svc', () => {
  it('plans every operation of the index once, and nothing else', () => {
    const planned = PLAN.map((p) => `${p.api} ${p.operationId}`);
    const indexed = Object.values(index).flatMap((e) => Object.keys(e.operations).map((id) => `${e.api} ${id}`));
    expect(new Set(planned).size).toBe(planned.length);
    expect([...planned].sort()).toEqual([...indexed].sort());
    for (const id of Object.keys(BY_DESIGN))
      expect(
        planned.some((p) => p.endsWith(` ${id}`)),
        id,
      ).toBe(true);
  });

  it('opens the explorer on the local svc and authorizes, as a new user does', async () => {
    await page.goto(`${local.explorer.url}?api=central`);
    shown = 'central';
    await authorize(page, local.simulator.user, PASSWORD);
  });

  for (const { api, operationId, until, after, download } of PLAN) {
    const special = BY_DESIGN[operationId];
    it(`${api} ${operationId}${special ? ` (${special.why})` : ''} answers 2xx`, async () => {
      if (special?.first) {
        const first = await special.first(run);
        expect(first.status, JSON.stringify(first.entry)).toBeGreaterThanOrEqual(200);
      }
      const file = typeof special?.file === 'function' ? special.file() : special?.file;
      const { status, entry } = await run(api, operationId, { until, file });
      expect(status, `${operationId}: ${entry.url}\n${entry.preview}`).toBeGreaterThanOrEqual(200);
      expect(status, `${operationId}: ${entry.url}\n${entry.preview}`).toBeLessThan(300);
      // nothing wider than the window, with the operation open and its answer shown
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORT.width);
      if (download) {
        const block = page.locator(`.opblock.is-open[id$="-${operationId}"]`);
        const [saved] = await Promise.all([
          page.waitForEvent('download'),
          block.locator('.live-responses-table a[download]').first().click(),
        ]);
        // (Chromium runs apart from the test: the file comes as a stream, not a path)
        archive = Buffer.concat(await (await saved.createReadStream()).toArray());
        expect(archive.length).toBeGreaterThan(1024);
      }
      if (after) {
        const waited = await run(after.api, after.operationId, { until: after.until });
        expect(waited.status, `${after.operationId}: ${waited.entry.preview}`).toBeLessThan(300);
      }
      expect(pageErrors).toEqual([]);
    });
  }
});
