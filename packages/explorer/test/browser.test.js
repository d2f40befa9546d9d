// Drives the explorer in Chromium against the Prism mocks of every API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startMock } from '@svc/mock';
import { build } from '../scripts/build.mjs';
import { startExplorer } from '../src/index.js';
import { apis } from '../../../scripts/lib/apis.mjs';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const centralYaml = join(repoRoot, 'dist', 'central.yaml');
// The README's picture is refreshed on request (UPDATE_SCREENSHOT=1 npm test); otherwise the
// screenshot goes to test-results/ so a test run leaves the work tree clean.
const screenshot = process.env.UPDATE_SCREENSHOT
  ? join(repoRoot, 'docs', 'explorer.png')
  : join(repoRoot, 'test-results', 'explorer.png');
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

let dir;
let mocks = [];
let explorer;
let browser;
let page;
const pageErrors = [];

beforeAll(async () => {
  if (!existsSync(chromiumPath)) {
    throw new Error(`Chromium not found at ${chromiumPath}: run \`apt-get install -y chromium\` (or set CHROMIUM_PATH)`);
  }
  if (!existsSync(centralYaml)) throw new Error(`${centralYaml} is missing: run \`npm run bundle\` at the repository root`);
  // The test builds its own copy of the page so that it always checks the current sources.
  dir = mkdtempSync(join(tmpdir(), 'explorer-browser-'));
  await build({ outDir: dir });
  const started = await Promise.all(apis().map(async (api) => [api.name, await startMock({ document: api.bundle })]));
  mocks = started.map(([, m]) => m);
  explorer = await startExplorer({ dir, mocks: Object.fromEntries(started.map(([name, m]) => [name, m.url])) });
  try {
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  } catch (error) {
    throw new Error(`Cannot start Chromium at ${chromiumPath} (run \`apt-get install -y chromium\`): ${error.message}`);
  }
  page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  // Fail on any request that would leave this machine (CDN, validator badge...).
  await page.route(
    (url) => url.hostname !== '127.0.0.1',
    (route) => {
      pageErrors.push(`external request: ${route.request().url()}`);
      return route.abort();
    },
  );
});

afterAll(async () => {
  await browser?.close();
  await explorer?.close();
  await Promise.all(mocks.map((m) => m.close()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('API explorer in Chromium', () => {
  it('loads the page with the operations grouped by tag', async () => {
    await page.goto(explorer.url);
    await page.locator('.information-container .title').waitFor();
    expect(await page.locator('.information-container .title').innerText()).toContain('svc central API (v3)');
    const tags = () => page.locator('.opblock-tag-section h3.opblock-tag').evaluateAll((els) => els.map((el) => el.dataset.tag));
    await expect.poll(tags, { timeout: 15_000 }).toEqual(expect.arrayContaining(['Images', 'Tasks']));
    // The top bar lists the APIs.
    expect(await page.locator('.topbar select option').allInnerTexts()).toEqual(['central API (v3)', 'element API (v0.8 and v2.0)', 'object store API (v3)']);
    // docExpansion 'list': the operations are listed under their tags.
    const images = page.locator('#operations-tag-Images').locator('xpath=..');
    expect(await images.locator('.opblock').count()).toBeGreaterThanOrEqual(4);
    expect(await page.locator('#operations-Images-images_list .opblock-summary-path').innerText()).toContain('/images/list');
    expect(await page.locator('#operations-Tasks-tasks_list').count()).toBe(1);
    // The mock is the default server; the real endpoint stays selectable.
    const servers = await page.locator('.servers select option').allInnerTexts();
    expect(servers[0]).toContain('/mock/central/api/svc/v3');
    expect(servers.some((s) => s.includes('https://{host}:{port}/api/svc/v3'))).toBe(true);
  });

  it('authorizes with basic auth', async () => {
    await authorize();
  });

  it('tries POST /images/list (central) and shows the status, the response body and curl', async () => {
    await tryOperation('images_list', { method: 'POST', path: '/images/list', api: 'central', basePath: '/api/svc/v3', body: 'entities', screenshotTo: screenshot });
  });

  it('switches to the element API and tries GET /v2.0/storage_containers', async () => {
    await selectApi('element API (v0.8 and v2.0)', 'svc element API');
    await authorize();
    await tryOperation('storage_containers_list_v2_0', { method: 'GET', path: '/v2.0/storage_containers', api: 'element', basePath: '/api/svc', body: 'storage_container_uuid' });
  });

  it('switches to the object store API and tries POST /groups', async () => {
    await selectApi('object store API (v3)', 'svc object store API');
    await authorize();
    await tryOperation('groups_list', { method: 'POST', path: '/groups', api: 'objects', basePath: '/oss/api/svc/v3', body: 'group_results' });
  });
});

/** Picks an API in the top-bar selector and waits for its title. */
async function selectApi(label, title) {
  await page.locator('.topbar select').selectOption({ label });
  await expect.poll(() => page.locator('.information-container .title').innerText(), { timeout: 15_000 }).toContain(title);
}

/** Authorize dialog: basic auth as admin / secret (any credentials work against the mock). */
async function authorize() {
  await page.locator('.scheme-container button.authorize').click();
  const modal = page.locator('.modal-ux');
  await modal.waitFor();
  const user = modal.locator('input[type="text"]').first();
  if (await user.count()) {
    await user.fill('admin');
    await modal.locator('input[type="password"]').first().fill('secret');
    await modal.locator('button.modal-btn.auth.authorize').click();
  }
  await expect.poll(() => modal.locator('button.modal-btn.auth').first().innerText(), { timeout: 15_000 }).toMatch(/Logout/i);
  await modal.locator('button.btn-done, button.close-modal').first().click();
  await modal.waitFor({ state: 'detached' });
}

/** Opens an operation by operationId, executes it against the mock and checks status, body, URL and curl. */
async function tryOperation(operationId, { method, path, api, basePath, body, status = '200', screenshotTo }) {
  const op = page.locator(`[id^="operations-"][id$="-${operationId}"]`);
  await op.waitFor({ timeout: 15_000 });
  await op.locator('.opblock-summary').first().click();
  await op.locator('.opblock-body').waitFor();
  const tryOut = op.locator('button.try-out__btn:not(.cancel)');
  if (await tryOut.count()) await tryOut.click();
  await op.locator('button.execute').click();

  const live = op.locator('.live-responses-table');
  await live.waitFor({ timeout: 30_000 });
  const row = live.locator('tr.response');
  await expect.poll(() => row.locator('.response-col_status').first().innerText(), { timeout: 15_000 }).toBe(status);
  expect(await row.locator('.response-col_description pre').first().innerText()).toContain(body);

  const curl = await op.locator('.curl-command .curl, .request-snippets .curl').first().innerText();
  expect(curl).toContain(`curl -X '${method}'`);
  expect(curl).toContain(`${basePath}${path}`);
  expect(curl).toMatch(/Authorization: Basic YWRtaW46c2VjcmV0/);
  const requestUrl = await op.locator('.request-url pre, .request-url').first().innerText();
  expect(requestUrl).toContain(`${explorer.url}mock/${api}${basePath}${path}`);

  if (screenshotTo) {
    mkdirSync(dirname(screenshotTo), { recursive: true });
    // From the top of the page (APIs, servers, Authorize, tags) down to the live response.
    const bottom = await live.evaluate((el) => Math.ceil(el.getBoundingClientRect().bottom + window.scrollY) + 16);
    await page.screenshot({ path: screenshotTo, fullPage: true, clip: { x: 0, y: 0, width: 1280, height: bottom } });
  }
  expect(pageErrors).toEqual([]);
}
