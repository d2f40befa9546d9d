// Drives the explorer in Chromium: every API against its Prism mock, a real endpoint played by a
// local HTTPS server with a self-signed certificate, the v0.8 upload, deep links, the filter and
// the session-only Authorize.

import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:https';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser } from './support/browser.js';
import { loopbackCertificate } from './support/certificate.js';
import { authorize as authorizeAs, clickUntilShown, guardedPage, startMockedExplorer } from './support/page.js';
import { runSample } from './support/run-sample.js';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(packageDir, '..', '..');
// The README's picture (docs/explorer.png) comes from test/workflows.test.js; this one stays in
// test-results/ so that a test run leaves the work tree clean.
const screenshot = join(repoRoot, 'test-results', 'explorer.png');
const BASIC = Buffer.from('admin:secret').toString('base64');

let dir;
let mocked;
let explorer;
let realHost;
let browser;
let page;
const pageErrors = [];

/**
 * A local HTTPS server with a self-signed certificate that plays a real endpoint: records every
 * request (method, path, headers, body bytes) and answers 200 with a small JSON body.
 */
async function startRealHost() {
  const pems = await loopbackCertificate();
  const received = [];
  const server = createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ served_by: 'real-host', entities: [], taskUuid: '0f6d3f6e-5b1a-4c63-9d9b-5e2c6a7b8c9d' }),
      );
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: server.address().port,
    received,
    close: () =>
      new Promise((r) => {
        server.close(r);
        server.closeAllConnections();
      }),
  };
}

beforeAll(async () => {
  browser = await openBrowser();
  // The page built from the current sources once for all the test files (test/support/global-setup.js).
  dir = inject('explorerDist');
  // allowLoopback: the "real endpoint" of these tests runs on this machine.
  mocked = await startMockedExplorer({ allowLoopback: true });
  ({ explorer } = mocked);
  realHost = await startRealHost();
  // Fail on any request that would leave this machine (CDN, validator badge...) or that the
  // page sends straight to the "real" endpoint instead of through the explorer's /forward/.
  page = await guardedPage(browser.context, pageErrors, {
    viewport: { width: 1280, height: 1600 },
    blocked: (url) => url.port === String(realHost.port),
  });
});

afterAll(async () => {
  await browser?.close();
  await mocked?.close();
  await realHost?.close();
});

/** The four APIs, the operation tried on each, and what its mock answer contains. */
const CASES = [
  {
    api: 'central',
    title: 'svc central API (v3)',
    tag: 'Images',
    operationId: 'images_list',
    method: 'POST',
    path: '/images/list',
    basePath: '/api/svc/v3',
    body: 'entities',
    factory: 'createCentralClient',
    json: true,
  },
  {
    api: 'element',
    title: 'svc element API',
    tag: 'Storage containers (v2.0)',
    operationId: 'storage_containers_list_v2_0',
    method: 'GET',
    path: '/v2.0/storage_containers',
    basePath: '/api/svc',
    body: 'storage_container_uuid',
    factory: 'createElementClient',
    json: false,
  },
  {
    api: 'objects',
    title: 'svc object store API',
    tag: 'Groups',
    operationId: 'groups_list',
    method: 'POST',
    path: '/groups',
    basePath: '/oss/api/svc/v3',
    body: 'group_results',
    factory: 'createObjectsClient',
    json: true,
  },
  {
    // the local svc's own API (issue 59): its servers are the local svc and the mock alone
    api: 'control',
    title: 'svc local svc control API',
    tag: 'Requests',
    operationId: 'requests_list',
    method: 'GET',
    path: '/requests',
    basePath: '/_svc',
    body: 'violations',
    factory: 'createControlClient',
    json: false,
  },
];

describe('API explorer in Chromium', () => {
  it('a tab records a request for another host, which fails without leaving the machine', async () => {
    const errors = [];
    const tab = await guardedPage(browser.context, errors);
    try {
      await tab.goto(`${explorer.url}favicon.svg`);
      // localhost names this very server: only Chromium's host rule makes the request fail.
      const other = `http://localhost:${new URL(explorer.url).port}/favicon.svg`;
      const outcome = await tab.evaluate(
        (url) =>
          fetch(url, { mode: 'no-cors' }).then(
            () => 'answered',
            () => 'failed',
          ),
        other,
      );
      expect(outcome).toBe('failed');
      expect(errors).toEqual([`unexpected request: ${other}`]);
    } finally {
      await tab.close();
    }
  });

  it('loads the first API with the four APIs in the selector and the mock as default server', async () => {
    await page.goto(explorer.url);
    await page.locator('.information-container .title').waitFor();
    expect(await page.locator('.information-container .title').innerText()).toContain('svc central API (v3)');
    const tags = () =>
      page.locator('.opblock-tag-section h3.opblock-tag').evaluateAll((els) => els.map((el) => el.dataset.tag));
    await expect.poll(tags).toEqual(expect.arrayContaining(['Images', 'Tasks']));
    expect(await page.locator('.topbar select option').allInnerTexts()).toEqual([
      'central API (v3)',
      'element API (v0.8 and v2.0)',
      'object store API (v3)',
      'local svc control API',
    ]);
    expect(await page.locator('#operations-Images-images_list .opblock-summary-path').innerText()).toContain(
      '/images/list',
    );
    // Swagger UI's options as the page set them (the build minifies the page's script)
    expect(await page.evaluate(() => /** @type {any} */ (window).ui.getConfigs())).toMatchObject({
      layout: 'SvcLayout',
      deepLinking: true,
      filter: true,
      docExpansion: 'list',
      persistAuthorization: false,
      tryItOutEnabled: true,
      requestSnippetsEnabled: true,
      displayRequestDuration: true,
      showMutatedRequest: false,
      validatorUrl: null,
    });
    const servers = await page.locator('.servers select option').allInnerTexts();
    expect(servers[0]).toContain('/mock/central/api/svc/v3');
    expect(servers.some((s) => s.includes('https://{host}:{port}/api/svc/v3'))).toBe(true);
    // The address bar names the API, so that a copied link opens the same one.
    await expect.poll(() => new URL(page.url()).searchParams.get('api')).toBe('central');
  });

  it("resolves what it shows from the part of the document it needs, as Swagger UI's resolver does from the whole", async () => {
    // The explorer hands swagger-client's resolver only the part of the document a subtree needs
    // (@svc/oas subdocument); the answer must not change.
    await page.goto(`${explorer.url}?api=central`);
    await page.locator('#operations-Images-images_list').waitFor();
    const compared = await page.evaluate(async () => {
      const w = /** @type {any} */ (window);
      const spec = w.ui.specSelectors.specJS();
      const whole = w.SwaggerUIBundle.plugins.SwaggerClient({ configs: {}, getConfigs: w.ui.getConfigs }).fn
        .resolveSubtree;
      const options = { baseDoc: location.href };
      const paths = [
        ['components', 'securitySchemes'],
        // with the parameters of its path item
        ['paths', '/images/{uuid}', 'get'],
        // the largest part of central: the cluster list's schemas reach furthest
        ['paths', '/clusters/list', 'post'],
      ];
      // One at a time, as Swagger UI calls it: run at once, the two gave different answers.
      const out = [];
      for (const path of paths) {
        const ours = await w.ui.fn.resolveSubtree(spec, path, options);
        const theirs = await whole(spec, path, options);
        out.push({ path: path.join(' '), ours, theirs });
      }
      return out;
    });
    for (const c of compared) {
      expect(c.ours.errors, c.path).toEqual([]);
      expect(c.ours.spec, c.path).toBeTruthy();
      expect(c.ours, c.path).toEqual(c.theirs);
    }
  });

  it('authorizes with basic auth, keeps it for the session only (sessionStorage, never localStorage)', async () => {
    await authorize();
    await page.reload();
    await page.locator('.scheme-container button.authorize').waitFor();
    await expect
      .poll(() => page.locator('.scheme-container button.authorize').getAttribute('class'))
      .toContain('locked');
    const storage = await page.evaluate(() => ({
      local: JSON.stringify({ ...localStorage }),
      session: JSON.stringify({ ...sessionStorage }),
    }));
    expect(storage.local).not.toContain('secret');
    expect(storage.local).not.toContain(BASIC);
    expect(storage.local).not.toContain('admin');
    expect(storage.session).toContain('admin');
    // A new browser session (a new tab: fresh sessionStorage) is not authorized.
    const fresh = await browser.context.newPage();
    try {
      await fresh.goto(explorer.url);
      await fresh.locator('.scheme-container button.authorize').waitFor();
      expect(await fresh.locator('.scheme-container button.authorize').getAttribute('class')).toContain('unlocked');
    } finally {
      await fresh.close();
    }
  });

  for (const c of CASES) {
    it(`${c.api}: opens ${c.operationId} by deep link, executes it against the mock, shows status, body, curl and samples`, async () => {
      const logged = [];
      const onConsole = (/** @type {import('playwright-core').ConsoleMessage} */ m) => {
        if (m.type() === 'error') logged.push(m.text());
      };
      page.on('console', onConsole);
      await page.goto(`${explorer.url}?api=${c.api}#/${encodeURIComponent(c.tag)}/${c.operationId}`);
      await expect.poll(() => page.locator('.information-container .title').innerText()).toContain(c.title);
      const op = opLocator(c.operationId);
      // The deep link opened the operation, and nothing was logged as an error on the way.
      await op.locator('.opblock-body').waitFor();
      expect(await op.getAttribute('class')).toContain('is-open');
      page.off('console', onConsole);
      expect(logged).toEqual([]);
      // Authorized from this session's storage, no dialog needed after the reload.
      await expect
        .poll(() => page.locator('.scheme-container button.authorize').getAttribute('class'))
        .toContain('locked');

      await execute(op);
      const live = op.locator('.live-responses-table');
      const row = live.locator('tr.response');
      await expect.poll(() => row.locator('.response-col_status').first().innerText()).toBe('200');
      expect(await row.locator('.response-col_description pre').first().innerText()).toContain(c.body);
      const requestUrl = await op.locator('.request-url pre').first().innerText();
      expect(requestUrl).toContain(`${explorer.url}mock/${c.api}${c.basePath}${c.path}`);
      // One curl after Execute, the sample's: credentials from the environment, never the secret.
      expect(await op.locator('.request-snippets, .curl').count()).toBe(0);
      const curl = await op.locator('.svc-code-samples pre').innerText();
      expect(curl).toContain(`curl -u "$SVC_USER:$SVC_PASSWORD" \\\n  -X ${c.method} "`);
      expect(curl).toContain(`${c.basePath}${c.path}`);
      expect(curl).not.toContain(BASIC);
      expect(curl).not.toContain('secret');

      // The live samples follow the form and the selected server (the mock through the explorer,
      // plain http: no -k); each one is run here against that server.
      const samples = op.locator('.svc-code-samples');
      const sample = samples.locator('pre.svc-code-sample');
      const base = `${explorer.url}mock/${c.api}${c.basePath}`;
      const shell = await sample.innerText();
      expect(shell).toContain('curl -u "$SVC_USER:$SVC_PASSWORD"');
      expect(shell).not.toContain(' -k ');
      expect(shell).toContain(`-X ${c.method} "${base}${c.path}`);
      if (c.json) expect(shell).toContain('--data-raw');
      await samples.getByRole('tab', { name: '@svc/client' }).click();
      const tsSource = await sample.innerText();
      expect(tsSource).toContain(`import { ${c.factory} } from '@svc/client';`);
      expect(tsSource).toContain(`baseUrl: \`${base}\``);
      expect(tsSource).not.toContain('insecureSkipTlsVerify');
      expect(tsSource).toContain(`await client.${c.method}('${c.path}'`);
      await samples.getByRole('tab', { name: 'Python (requests)' }).click();
      const pySource = await sample.innerText();
      expect(pySource).toContain(`f"${base}${c.path}`);
      expect(pySource).not.toContain('verify=');
      for (const [lang, source] of [
        ['shell', shell],
        ['typescript', tsSource],
        ['python', pySource],
      ]) {
        const out = await runSample(lang, source);
        expect(out, `${lang} sample of ${c.operationId}:\n${source}`).toMatchObject({ status: 0 });
        expect(out.stdout).toContain(lang === 'shell' ? c.body : '200');
      }

      if (c.api === 'central') {
        mkdirSync(dirname(screenshot), { recursive: true });
        await samples.getByRole('tab', { name: 'curl' }).click();
        const bottom = await live.evaluate((el) => Math.ceil(el.getBoundingClientRect().bottom + window.scrollY) + 16);
        await page.screenshot({ path: screenshot, fullPage: true, clip: { x: 0, y: 0, width: 1280, height: bottom } });
      }
      expect(pageErrors).toEqual([]);
    });
  }

  it('switching API in the top bar updates the link; an opened operation survives a reload', async () => {
    await page.goto(explorer.url);
    await page.locator('.topbar select').selectOption({ label: 'object store API (v3)' });
    await expect
      .poll(() => page.locator('.information-container .title').innerText())
      .toContain('svc object store API');
    await expect.poll(() => new URL(page.url()).searchParams.get('api')).toBe('objects');
    const op = opLocator('objectstores_get');
    await op.locator('.opblock-summary').first().click();
    await expect.poll(() => decodeURIComponent(new URL(page.url()).hash)).toMatch(/\/objectstores_get$/);
    await page.reload();
    await expect
      .poll(() => page.locator('.information-container .title').innerText())
      .toContain('svc object store API');
    await opLocator('objectstores_get').locator('.opblock-body').waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('works opened from disk (file:, as a downloaded CI artifact): specs, selector, deep link', async () => {
    const local = await browser.context.newPage();
    try {
      const errors = [];
      local.on('pageerror', (error) => errors.push(error.message));
      await local.goto(
        `${pathToFileURL(join(dir, 'index.html')).href}?api=element#/${encodeURIComponent('Image upload (v0.8)')}/images_upload_v0_8`,
      );
      await expect.poll(() => local.locator('.information-container .title').innerText()).toContain('svc element API');
      const op = local.locator('.opblock[id$="-images_upload_v0_8"]');
      await op.locator('.svc-code-samples').waitFor();
      await local.locator('.topbar select').selectOption({ label: 'object store API (v3)' });
      await expect
        .poll(() => local.locator('.information-container .title').innerText())
        .toContain('svc object store API');
      expect(new URL(local.url()).searchParams.get('api')).toBe('objects');
      expect(errors).toEqual([]);
    } finally {
      await local.close();
    }
  });

  it('names an unknown API of a link and shows the first one instead', async () => {
    await page.goto(`${explorer.url}?api=nosuch#/Images/images_list`);
    const notice = page.locator('.svc-notice');
    await notice.waitFor();
    expect(await notice.innerText()).toBe(
      'Unknown API "nosuch" in the link (?api=); showing "central". Known: central, element, objects, control.',
    );
    await expect
      .poll(() => page.locator('.information-container .title').innerText())
      .toContain('svc central API (v3)');
    await expect.poll(() => new URL(page.url()).searchParams.get('api')).toBe('central');
    // Picking an API drops the notice, and the page's one-time setup does not run again.
    await page.locator('.topbar select').selectOption({ label: 'element API (v0.8 and v2.0)' });
    await expect.poll(() => page.locator('.information-container .title').innerText()).toContain('svc element API');
    await page.locator('.topbar select').selectOption({ label: 'central API (v3)' });
    await expect.poll(() => page.locator('.information-container .title').innerText()).toContain('svc central API');
    expect(await page.locator('.svc-notice').count()).toBe(0);
  });

  it('searches every API from the sidebar, descriptions included, with the query in the link', async () => {
    await page.goto(`${explorer.url}?api=element`);
    const search = page.locator('#svc-search-input');
    await search.waitFor();
    await opLocator('images_upload_v0_8').waitFor();
    const total = await page.locator('.opblock').count();
    // The notes for the spec's authors (HTML comments) are not in the page.
    expect(await page.locator('body').innerText()).not.toMatch(/For authors|renderers which list|x-svc-workflow/);
    // Only the description of storage_containers_list_v2_0 names FIQL.
    await search.fill('fiql');
    await expect.poll(() => page.locator('.opblock').count()).toBe(1);
    expect(await opLocator('storage_containers_list_v2_0').count()).toBe(1);
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('fiql');
    expect(await page.locator('.svc-sidebar .svc-nav-op').count()).toBe(1);
    await search.fill('get v2.0');
    await expect
      .poll(async () =>
        (await page.locator('.opblock .opblock-summary-method').allInnerTexts()).every((m) => m === 'GET'),
      )
      .toBe(true);
    const paths = await page.locator('.opblock .opblock-summary-path').allInnerTexts();
    expect(paths.length).toBeGreaterThan(1);
    for (const p of paths) expect(p).toContain('/v2.0/');
    // Only a central operation speaks of checksums: this API says so and links there.
    await search.fill('checksum');
    const noMatch = page.locator('.svc-no-match');
    await expect
      .poll(() => noMatch.innerText())
      .toContain('Nothing in element API (v0.8 and v2.0) matches "checksum".');
    expect(await noMatch.locator('a').innerText()).toBe('central API (v3) (1)');
    expect(await page.locator('.svc-sidebar .svc-nav-op').allInnerTexts()).toEqual([expect.stringContaining('PUT')]);
    expect(await page.locator('body').innerText()).not.toContain('No operations defined in spec');
    // The local svc's control API is searched like the others: only it keeps a journal.
    await search.fill('journal');
    await expect.poll(() => noMatch.innerText()).toContain('Nothing in element API (v0.8 and v2.0) matches "journal".');
    expect(await noMatch.locator('a').innerText()).toMatch(/^local svc control API \(\d+\)$/);
    // The link keeps the query: a reload (or a shared link) shows the same search.
    await search.fill('zzz-nothing');
    await page.reload();
    await expect.poll(() => page.locator('.svc-no-match').innerText()).toContain('No API has a matching operation');
    expect(await page.locator('#svc-search-input').inputValue()).toBe('zzz-nothing');
    expect(await page.locator('.svc-sidebar').innerText()).toContain('Nothing matches "zzz-nothing" in any API.');
    // Following a match in another API opens it there.
    await page.locator('#svc-search-input').fill('checksum');
    await page.locator('.svc-sidebar .svc-nav-op').click();
    await expect.poll(() => page.locator('.information-container .title').innerText()).toContain('svc central API');
    await opLocator('images_upload_file').locator('.opblock-body').waitFor();
    await page.locator('#svc-search-input').fill('journal empty');
    await page.locator('.svc-sidebar .svc-nav-op').first().click();
    await expect.poll(() => page.locator('.information-container .title').innerText()).toContain('control API');
    await opLocator('requests_delete').locator('.opblock-body').waitFor();
    await page.locator('#svc-search-input').fill('');
    await page.goto(`${explorer.url}?api=element`);
    await expect.poll(() => page.locator('.opblock').count()).toBe(total);
    expect(pageErrors).toEqual([]);
  });

  it('keeps a query typed before the search engine has arrived and answers it then; retries a failed load', async () => {
    const engineUrl = '**/explorer-search.js';
    /** @type {() => void} */
    let release = () => {};
    const held = new Promise((resolve) => {
      release = () => resolve(undefined);
    });
    await page.route(engineUrl, async (route) => {
      await held;
      await route.continue();
    });
    try {
      await page.goto(`${explorer.url}?api=element`);
      await opLocator('images_upload_v0_8').waitFor();
      const search = page.locator('#svc-search-input');
      await search.pressSequentially('fiql');
      await expect.poll(() => page.locator('.svc-no-match').innerText()).toBe('Searching\u2026');
      expect(await page.locator('.svc-sidebar .svc-results-count').innerText()).toBe('Searching\u2026');
      expect(await search.inputValue()).toBe('fiql');
      release();
      await expect.poll(() => page.locator('.opblock').count()).toBe(1);
      expect(await opLocator('storage_containers_list_v2_0').count()).toBe(1);
      expect(await page.locator('.svc-sidebar .svc-nav-op').count()).toBe(1);
      // The engine's script fails: the page says so; the next key tries again.
      await page.unroute(engineUrl);
      await page.route(engineUrl, (route) => route.abort());
      await page.goto(`${explorer.url}?api=element&q=fiql`);
      await expect.poll(() => page.locator('.svc-no-match').innerText()).toContain('could not load');
      await page.unroute(engineUrl);
      await search.press('End');
      await search.press('Backspace');
      await expect.poll(() => page.locator('.svc-nav-op').count()).toBeGreaterThan(0);
      expect(await search.inputValue()).toBe('fiq');
    } finally {
      release();
      await page.unroute(engineUrl);
      await page.goto(`${explorer.url}?api=element`);
    }
    expect(pageErrors).toEqual([]);
  });

  it('calls a real endpoint (self-signed HTTPS) through the explorer, with -k after ticking self-signed', async () => {
    realHost.received.length = 0;
    await page.goto(`${explorer.url}?api=central#/Images/images_list`);
    const op = opLocator('images_list');
    await op.locator('.opblock-body').waitFor();
    await useRealHost();
    const selfSignedBox = page.locator('.svc-self-signed input[type=checkbox]');
    await selfSignedBox.uncheck();

    // Not ticked: the certificate is checked and refused, with a reason the user can act on.
    await execute(op);
    const status = op.locator('.live-responses-table tr.response .response-col_status').first();
    await expect.poll(() => status.innerText()).toBe('502');
    expect(await op.locator('.live-responses-table .response-col_description pre').first().innerText()).toContain(
      'Self-signed certificate',
    );
    expect(realHost.received).toHaveLength(0);

    await selfSignedBox.check();
    await execute(op);
    await expect.poll(() => status.innerText()).toBe('200');
    expect(await op.locator('.live-responses-table .response-col_description pre').first().innerText()).toContain(
      'real-host',
    );
    expect(realHost.received).toHaveLength(1);
    const [got] = realHost.received;
    expect(got.method).toBe('POST');
    expect(got.url).toBe('/api/svc/v3/images/list');
    expect(got.headers.authorization).toBe(`Basic ${BASIC}`);
    expect(got.headers['x-svc-explorer-forward']).toBeUndefined();
    expect(JSON.parse(got.body.toString())).toMatchObject({ kind: 'image' });
    const realUrl = `https://127.0.0.1:${realHost.port}/api/svc/v3/images/list`;
    expect(await op.locator('.request-url pre').first().innerText()).toBe(realUrl);
    const curl = await op.locator('.svc-code-samples pre').innerText();
    expect(curl).toContain(`curl -k -u "$SVC_USER:$SVC_PASSWORD" \\\n  -X POST "${realUrl}"`);
    // The samples follow the chosen endpoint, and skip verification in all three languages.
    const samples = op.locator('.svc-code-samples');
    expect(await samples.locator('pre').innerText()).toContain(
      `curl -k -u "$SVC_USER:$SVC_PASSWORD" \\\n  -X POST "${realUrl}"`,
    );
    await samples.getByRole('tab', { name: '@svc/client' }).click();
    expect(await samples.locator('pre').innerText()).toContain(
      `baseUrl: \`https://127.0.0.1:${realHost.port}/api/svc/v3\`,`,
    );
    expect(await samples.locator('pre').innerText()).toContain('insecureSkipTlsVerify: true');
    await samples.getByRole('tab', { name: 'Python (requests)' }).click();
    expect(await samples.locator('pre').innerText()).toContain('verify=False');
    await selfSignedBox.uncheck();
    expect(await samples.locator('pre').innerText()).not.toContain('verify=False');
    await samples.getByRole('tab', { name: 'curl' }).click();
    expect(pageErrors).toEqual([]);
  });

  it('uses the legacy base with its prefix variable for a real element endpoint', async () => {
    realHost.received.length = 0;
    await page.goto(
      `${explorer.url}?api=element#/${encodeURIComponent('Storage containers (v2.0)')}/storage_containers_list_v2_0`,
    );
    const op = opLocator('storage_containers_list_v2_0');
    await op.locator('.opblock-body').waitFor();
    await ensureAuthorized();
    await useRealHost('https://{host}:{port}{legacy_prefix}/services/rest');
    await page.locator('input[data-variable="legacy_prefix"]').fill('/Gateway2');
    await page.locator('.svc-self-signed input[type=checkbox]').check();
    await execute(op);
    await expect
      .poll(() => op.locator('.live-responses-table tr.response .response-col_status').first().innerText())
      .toBe('200');
    expect(realHost.received.map((r) => `${r.method} ${r.url.split('?')[0]}`)).toEqual([
      'GET /Gateway2/services/rest/v2.0/storage_containers',
    ]);
    await page.locator('.svc-self-signed input[type=checkbox]').uncheck();
    expect(pageErrors).toEqual([]);
  });

  it('uploads a file with the v0.8 upload: bytes as application/octet-stream with the container header', async () => {
    realHost.received.length = 0;
    await page.goto(`${explorer.url}?api=element#/${encodeURIComponent('Image upload (v0.8)')}/images_upload_v0_8`);
    const op = opLocator('images_upload_v0_8');
    await op.locator('.opblock-body').waitFor();
    await useRealHost();
    await page.locator('.svc-self-signed input[type=checkbox]').check();
    const imageUuid = '5c1a7d3e-9b2f-4e6a-8d41-2f0c7b9e3a15';
    const container = '66316fa9-e2d1-4ed8-a38b-39ac982db28f';
    const bytes = randomBytes(4096); // not text: NULs and bytes that are not UTF-8
    await op.locator('tr[data-param-name="uuid"] input').fill(imageUuid);
    await op.locator('tr[data-param-name="X-Svc-Destination-Container"] input').fill(container);
    await ensureAuthorized();
    await op
      .locator('input[type=file]')
      .setInputFiles({ name: 'tiny.qcow2', mimeType: 'application/octet-stream', buffer: bytes });
    await execute(op);
    await expect
      .poll(() => op.locator('.live-responses-table tr.response .response-col_status').first().innerText())
      .toBe('200');
    expect(realHost.received).toHaveLength(1);
    const [got] = realHost.received;
    expect(got.method).toBe('PUT');
    expect(got.url).toBe(`/api/svc/v0.8/images/${imageUuid}/upload`);
    expect(got.headers['content-type']).toMatch(/^application\/octet-stream/);
    expect(got.headers['x-svc-destination-container']).toBe(container);
    expect(got.headers.authorization).toBe(`Basic ${BASIC}`);
    expect(Buffer.compare(got.body, bytes)).toBe(0);
    const curl = await op.locator('.svc-code-samples pre').innerText();
    expect(curl).toContain('--data-binary @tiny.qcow2');
    await page.locator('.svc-self-signed input[type=checkbox]').uncheck();
    expect(pageErrors).toEqual([]);
  });
});

describe('error answers explained', () => {
  it("the mock's refusal (sl-violations) is shown as the reason, not only an example body", async () => {
    await page.goto(`${explorer.url}?api=central#/Images/images_create`);
    const op = opLocator('images_create');
    await op.locator('.opblock-body').waitFor();
    await ensureAuthorized();
    await op.locator('.body-param textarea').fill('{"spec": {}}');
    await execute(op);
    const why = op.locator('.svc-explanation');
    await expect.poll(() => why.innerText()).toContain('The mock (Prism) refused the request: request.body');
    expect(await op.locator('.live-responses-table tr.response .response-col_status').first().innerText()).toMatch(
      /^4\d\d$/,
    );
  });

  it('an upload without a file says to choose one', async () => {
    await page.goto(`${explorer.url}?api=element#/${encodeURIComponent('Image upload (v0.8)')}/images_upload_v0_8`);
    const op = opLocator('images_upload_v0_8');
    await op.locator('.opblock-body').waitFor();
    await execute(op);
    await expect.poll(() => op.locator('.svc-explanation').innerText()).toContain('Choose the file to upload first');
    expect(await op.locator('.live-responses-table').count()).toBe(0);
  });
});

describe('Logout', () => {
  it('forgets the credentials of the session', async () => {
    await page.goto(`${explorer.url}?api=central`);
    const button = page.locator('.scheme-container button.authorize');
    await button.waitFor();
    await ensureAuthorized();
    const modal = page.locator('.modal-ux');
    await clickUntilShown(button, modal);
    await modal
      .locator('button.modal-btn.auth', { hasText: /Logout/i })
      .first()
      .click();
    await modal.locator('button.btn-done, button.close-modal').first().click();
    // Authorize's entry is gone (the history may name the user in an answer; never the password).
    expect(await page.evaluate(() => sessionStorage.getItem('svc-explorer.auth'))).toBeNull();
    expect(await page.evaluate(() => JSON.stringify({ ...sessionStorage }))).not.toContain('secret');
    await page.reload();
    await button.waitFor();
    await page.locator('.opblock').first().waitFor();
    expect(await button.getAttribute('class')).toContain('unlocked');
  });
});

/** The operation block of an operationId (the tag part of the id varies). */
function opLocator(operationId) {
  return page.locator(`.opblock[id^="operations-"][id$="-${operationId}"]`);
}

/** Clicks Execute (opening "Try it out" first if needed) on an open operation. */
async function execute(op) {
  // tryItOutEnabled: the form is open already; "Try it out" would reset what the test entered.
  if ((await op.locator('button.execute').count()) === 0) await op.locator('button.try-out__btn').first().click();
  await op.locator('button.execute').click();
}

/** Picks a real server of the spec (the first by default) and points it at the local HTTPS "real host". */
async function useRealHost(server) {
  const select = page.locator('.servers select');
  const values = await select.locator('option').evaluateAll((els) => els.map((el) => el.value));
  await select.selectOption(server ?? values.find((v) => v.startsWith('https://')));
  await page.locator('input[data-variable="host"]').fill('127.0.0.1');
  await page.locator('input[data-variable="port"]').fill(String(realHost.port));
}

/** Authorizes unless this session already is (the same credentials are then restored). */
async function ensureAuthorized() {
  const button = page.locator('.scheme-container button.authorize');
  if (!(await button.getAttribute('class')).includes(' locked')) await authorize();
}

/** Authorize dialog: basic auth as admin / secret (any credentials work against the mock). */
const authorize = () => authorizeAs(page, 'admin', 'secret');
