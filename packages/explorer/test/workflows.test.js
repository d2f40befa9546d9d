// The "Start here" workflows of the three APIs (x-svc-workflow), walked end to end in Chromium
// against the local svc (@svc/simulator, reached through the explorer's /local/): every step is opened from
// the workflow panel, with the values of the previous answers filled in, and Executed until the
// step is done (a polled step again until its `until` condition holds). Central's workflow is
// walked from the step bar instead, in navigation.test.js.

import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser } from './support/browser.js';
import { authorize, guardedPage, startLocalSvc } from './support/page.js';
import { runSample } from './support/run-sample.js';

const require = createRequire(import.meta.url);
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
// The README's picture is refreshed on request (UPDATE_SCREENSHOT=1); otherwise it goes to test-results/.
const screenshot = process.env.UPDATE_SCREENSHOT
  ? join(repoRoot, 'docs', 'explorer.png')
  : join(repoRoot, 'test-results', 'explorer-workflow.png');
const PASSWORD = 'walk-the-workflows';
const IMAGE = randomBytes(64 * 1024);

let local;
let simulator;
let source;
let explorer;
let browser;
let page;
const pageErrors = [];

beforeAll(async () => {
  browser = await openBrowser();
  local = await startLocalSvc({ name: 'workflows', password: PASSWORD, seed: 7 });
  ({ simulator, explorer } = local);
  // The URL an image is created from (images_create, outside a workflow): bytes served on loopback.
  source = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': IMAGE.length });
    res.end(IMAGE);
  });
  await new Promise((r) => source.listen(0, '127.0.0.1', r));
  page = await guardedPage(browser.context, pageErrors, { viewport: { width: 1280, height: 1400 } });
});

afterAll(async () => {
  await browser?.close();
  await local?.close();
  await new Promise((r) => (source ? source.close(r) : r()));
});

/** Authorize dialog: basic auth with the simulator's user and password, unless already done. */
async function ensureAuthorized() {
  const button = page.locator('.scheme-container button.authorize');
  await button.waitFor();
  if ((await button.getAttribute('class')).includes(' locked')) return;
  await authorize(page, simulator.user, PASSWORD);
}

/**
 * Walks a workflow from its first step: opens each step from the panel, lets `prepare` adjust
 * the form (what a user types), Executes until the step is done.
 * @returns {Promise<Record<string, string>>} the request URL of each step
 */
async function walk(api, workflowId, prepare = async () => {}) {
  await page.goto(`${explorer.url}?api=${api}&workflow=${workflowId}&step=0`);
  // The link names no operation: the page opens the first step's (on another API: a page load).
  await expect.poll(() => new URL(page.url()).hash).toMatch(/^#\/.+\/.+/);
  await page.waitForLoadState('load');
  const panel = page.locator('.svc-workflow');
  await panel.waitFor();
  const steps = await panel.locator('.svc-step').evaluateAll((els) => els.map((el) => el.dataset.step));
  expect(steps.length).toBeGreaterThan(2);
  const urls = {};
  for (const [i, stepId] of steps.entries()) {
    if (i > 0) await page.locator('.svc-workflow .svc-step-next').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('step')).toBe(String(i));
    await expect.poll(() => new URL(page.url()).hash).toMatch(/^#\/.+\/.+/);
    const step = page.locator(`.svc-workflow .svc-step[data-step="${stepId}"]`);
    await expect.poll(() => step.getAttribute('aria-current')).toBe('step');
    await ensureAuthorized();
    const operationId = decodeURIComponent(new URL(page.url()).hash).split('/').pop();
    const op = page.locator(`.opblock[id$="-${operationId}"]`);
    await op.locator('button.execute').waitFor();
    await prepare(stepId, op);
    for (let attempt = 0; ; attempt++) {
      const before = Number(await step.getAttribute('data-answers'));
      await op.locator('button.execute').click();
      await expect.poll(async () => Number(await step.getAttribute('data-answers'))).toBe(before + 1);
      const state = await step.getAttribute('data-state');
      if (state === 'done') break;
      expect(
        state,
        `${workflowId} ${stepId}: ${await op
          .locator('.live-responses-table')
          .innerText()
          .catch(() => '')}`,
      ).toBe('repeat');
      expect(attempt, `${workflowId} ${stepId} still not done`).toBeLessThan(40);
      await page.waitForTimeout(250);
    }
    urls[stepId] = await op.locator('.request-url pre').first().innerText();
  }
  expect(await panel.locator('.svc-step').evaluateAll((els) => els.map((el) => el.dataset.state))).toEqual(
    steps.map(() => 'done'),
  );
  expect(pageErrors).toEqual([]);
  return urls;
}

describe('"Start here" workflows against the local svc', () => {
  it('element: the two-phase upload, with a file chooser, to ACTIVE', async () => {
    const urls = await walk('element', 'two-phase-upload', async (stepId, op) => {
      if (stepId === 'upload') {
        // Until a file is chosen, the step bar says the step needs one (not "not run yet").
        expect(await page.locator('.svc-stepbar .svc-stepbar-state').innerText()).toBe(
          'needs a file: choose it under Request body ("Choose File"), then Execute',
        );
        // The container of the previous answer is filled in; the user picks the file.
        expect(await op.locator('tr[data-param-name="X-Svc-Destination-Container"] input').inputValue()).toMatch(
          /^[0-9a-f-]{36}$/,
        );
        await op
          .locator('input[type=file]')
          .setInputFiles({ name: 'tiny.qcow2', mimeType: 'application/octet-stream', buffer: IMAGE });
      }
    });
    const imageUuid = /\/v0\.8\/images\/([0-9a-f-]{36})$/.exec(urls.image)?.[1];
    expect(imageUuid).toBeDefined();
    expect(urls.upload).toBe(`${simulator.url}/api/svc/v0.8/images/${imageUuid}/upload`);
    expect(urls.active).toBe(urls.image);
    // The panel with every state shown passes axe-core too (no serious or critical violation).
    await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
    const { violations } = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
    expect(
      violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.nodes[0].target}`),
    ).toEqual([]);
    mkdirSync(dirname(screenshot), { recursive: true });
    await page.locator('.svc-workflow').scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshot, clip: { x: 0, y: 0, width: 1280, height: 1000 } });
  });

  it('objects: enable the service, look up the cluster and subnets (central), create the store, follow it to COMPLETE', async () => {
    const urls = await walk('objects', 'objectstore-deploy');
    expect(urls.enable).toBe(`${simulator.url}/api/svc/v3/services/oss`);
    expect(urls.create).toBe(`${simulator.url}/oss/api/svc/v3/objectstores`);
    expect(urls.follow).toMatch(/\/oss\/api\/svc\/v3\/objectstores\/[0-9a-f-]{36}$/);
    // The history shows every step's request, of both APIs, with its status (issue 60).
    const shown = await page
      .locator('.svc-history li')
      .evaluateAll((items) =>
        items.map(
          (li) =>
            `${li.querySelector('.svc-history-url')?.textContent} ${li.querySelector('.svc-history-status')?.textContent}`,
        ),
      );
    const steps = ['/services/oss 202', '/clusters/list 200', '/subnets/list 200', '/objectstores 202'];
    for (const step of steps) expect(shown, step).toContain(step);
    expect(shown.some((s) => /^\/services\/\{service_name\}\/status 200$/.test(s))).toBe(true);
    expect(shown.some((s) => /^\/objectstores\/\{uuid\} 200$/.test(s))).toBe(true);
    // every entry of the tab, not only the API shown's
    expect(shown.length).toBe(
      await page.evaluate(() => JSON.parse(sessionStorage.getItem('svc-explorer.history')).length),
    );
  });

  it("outside a workflow, an answer's OpenAPI links open the next operation with its values", async () => {
    await page.goto(`${explorer.url}?api=central#/Images/images_create`);
    await ensureAuthorized();
    const create = page.locator('.opblock[id$="-images_create"]');
    const body = create.locator('.body-param textarea');
    await body.waitFor();
    const value = JSON.parse(await body.inputValue());
    value.spec.resources.source_uri = `http://127.0.0.1:${source.address().port}/other.qcow2`;
    await body.fill(JSON.stringify(value, null, 2));
    await create.locator('button.execute').click();
    const follow = create.locator('.svc-follow-links');
    await follow.waitFor();
    const answer = JSON.parse(
      await create.locator('.live-responses-table .response-col_description pre').first().innerText(),
    );
    const task = answer.status.execution_context.task_uuid;
    expect(await follow.innerText()).toContain(`uuid = ${task}`);
    await follow.getByRole('button', { name: 'Follow the create task.' }).click();
    const get = page.locator('.opblock[id$="-tasks_get"]');
    await get.locator('button.execute').waitFor();
    await expect.poll(() => get.locator('tr[data-param-name="uuid"] input').inputValue()).toBe(task);
    await get.locator('button.execute').click();
    await expect
      .poll(() => get.locator('.request-url pre').first().innerText())
      .toBe(`${simulator.url}/api/svc/v3/tasks/${task}`);
    await expect
      .poll(() => get.locator('.live-responses-table tr.response .response-col_status').first().innerText())
      .toBe('200');
    // The live samples of this call run against the local svc too, and answer the same task.
    const samples = get.locator('.svc-code-samples');
    for (const [label, lang] of [
      ['curl', 'shell'],
      ['@svc/client', 'typescript'],
      ['Python (requests)', 'python'],
      ['Go', 'go'],
    ]) {
      await samples.getByRole('tab', { name: label }).click();
      const source = await samples.locator('pre').innerText();
      expect(source).toContain(`${simulator.url}/api/svc/v3`);
      const out = await runSample(lang, source, { user: simulator.user, password: PASSWORD });
      expect(out, `${label}:\n${source}\n${out.stderr}`).toMatchObject({ status: 0 });
      expect(out.stdout).toContain(task);
    }
    expect(pageErrors).toEqual([]);
  });

  it('a step opened before the steps it needs says which to Execute first', async () => {
    const errors = [];
    const p = await guardedPage(browser.context, errors, { viewport: { width: 1280, height: 1000 } });
    try {
      await p.goto(`${explorer.url}?api=central&workflow=image-from-url&step=2`);
      const missing = p.locator('.svc-workflow .svc-step.current .svc-step-missing');
      await missing.waitFor();
      expect(await missing.innerText()).toBe(
        'This step takes values from the answer of step 2: Execute that step first.',
      );
      await expect.poll(() => decodeURIComponent(new URL(p.url()).hash)).toBe('#/Images/images_get');
      // The UUID step 2 gives is left empty, not the spec's example UUID.
      const uuid = p.locator('.opblock[id$="-images_get"] tr[data-param-name="uuid"] input');
      await uuid.waitFor();
      await expect.poll(() => uuid.inputValue()).toBe('');
      expect(errors).toEqual([]);
    } finally {
      await p.close();
    }
  });
});
