// Drives the explorer in Chromium against the Prism mock of the central API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startMock } from '@svc/mock';
import { build } from '../scripts/build.mjs';
import { startExplorer } from '../src/index.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const centralYaml = join(repoRoot, 'dist', 'central.yaml');
// The README's picture is refreshed on request (UPDATE_SCREENSHOT=1 npm test); otherwise the
// screenshot goes to test-results/ so a test run leaves the work tree clean.
const screenshot = process.env.UPDATE_SCREENSHOT
  ? join(repoRoot, 'docs', 'explorer.png')
  : join(repoRoot, 'test-results', 'explorer.png');
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

let dir;
let mock;
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
  mock = await startMock({ document: centralYaml });
  explorer = await startExplorer({ dir, mocks: { central: mock.url } });
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
  await mock?.close();
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
    expect(await page.locator('.topbar select option').allInnerTexts()).toContain('central v3');
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
    await page.locator('.scheme-container button.authorize').click();
    const modal = page.locator('.modal-ux');
    await modal.waitFor();
    await modal.locator('input[type="text"]').first().fill('admin');
    await modal.locator('input[type="password"]').first().fill('secret');
    await modal.locator('button.modal-btn.auth.authorize').click();
    await expect.poll(() => modal.locator('button.modal-btn.auth').first().innerText(), { timeout: 15_000 }).toMatch(/Logout/i);
    await modal.locator('button.btn-done, button.close-modal').first().click();
    await modal.waitFor({ state: 'detached' });
  });

  it('tries POST /images/list against the mock and shows response and curl', async () => {
    const op = page.locator('#operations-Images-images_list');
    await op.locator('.opblock-summary').first().click();
    await op.locator('.opblock-body').waitFor();
    const tryOut = op.locator('button.try-out__btn:not(.cancel)');
    if (await tryOut.count()) await tryOut.click();
    await op.locator('button.execute').click();

    const live = op.locator('.live-responses-table');
    await live.waitFor({ timeout: 30_000 });
    const row = live.locator('tr.response');
    await expect.poll(() => row.locator('.response-col_status').first().innerText(), { timeout: 15_000 }).toBe('200');
    expect(await row.locator('.response-col_description pre').first().innerText()).toContain('entities');

    const curl = await op.locator('.curl-command .curl, .request-snippets .curl').first().innerText();
    expect(curl).toContain("curl -X 'POST'");
    expect(curl).toContain('/images/list');
    expect(curl).toMatch(/Authorization: Basic YWRtaW46c2VjcmV0/);
    const requestUrl = await op.locator('.request-url pre, .request-url').first().innerText();
    expect(requestUrl).toContain(`${explorer.url}mock/central/api/svc/v3/images/list`);

    mkdirSync(dirname(screenshot), { recursive: true });
    // From the top of the page (APIs, servers, Authorize, tags) down to the live response.
    const bottom = await live.evaluate((el) => Math.ceil(el.getBoundingClientRect().bottom + window.scrollY) + 16);
    await page.screenshot({ path: screenshot, fullPage: true, clip: { x: 0, y: 0, width: 1280, height: bottom } });
    expect(pageErrors).toEqual([]);
  });
});
