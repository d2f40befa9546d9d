// A browser page served from another origin (as Swagger UI or Scalar would be) calls the local
// svc (issue 61): started with `cors` naming that origin, its preflight is answered without
// credentials and the page reads the answer; without it, the browser keeps the answer from the
// page. Real Chromium, real origins on 127.0.0.1.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '@svc/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser } from './support/browser.js';

const PASSWORD = 'cors-test-password';
const work = mkdtempSync(join(tmpdir(), 'explorer-cors-'));
/** @type {import('node:http').Server} */
let pages;
let origin = '';
let browser;

/** A page that lists the images of `sim` with the local svc's credentials and titles itself with the outcome. */
const page = (sim) => `<!doctype html><html lang="en"><head><title>waiting</title></head><body><script>
fetch(${JSON.stringify(`${sim}/api/svc/v3/images/list`)}, {
  method: 'POST',
  headers: { authorization: 'Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}', 'content-type': 'application/json' },
  body: '{"kind":"image"}',
})
  .then((r) => r.json().then((j) => { document.title = r.status + ' ' + j.metadata.kind; }))
  .catch((e) => { document.title = 'blocked: ' + e.name; });
</script></body></html>`;

beforeAll(async () => {
  pages = createServer((req, res) => {
    const sim = new URL(req.url ?? '/', 'http://x').searchParams.get('sim') ?? '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(sim));
  });
  await new Promise((resolve) => pages.listen(0, '127.0.0.1', () => resolve(undefined)));
  origin = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (pages.address()).port}`;
  browser = await openBrowser();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => pages?.close(() => resolve(undefined)));
  rmSync(work, { recursive: true, force: true });
});

/** What the page of `origin` makes of a call to a local svc started with `cors`. */
async function outcome(cors, name) {
  const sim = await startSimulator({ port: 0, http: true, password: PASSWORD, dataDir: join(work, name), cors });
  const tab = await browser.context.newPage();
  try {
    await tab.goto(`${origin}/?sim=${encodeURIComponent(sim.url)}`);
    await tab.waitForFunction(() => document.title !== 'waiting');
    return await tab.title();
  } finally {
    await tab.close();
    await sim.close();
  }
}

describe('a page of another origin calling the local svc', () => {
  it('reads its answer when the local svc names that origin (--cors)', async () => {
    expect(await outcome([origin], 'allowed')).toBe('200 image');
  });

  it('gets nothing without it: the browser keeps the answer from the page', async () => {
    expect(await outcome([], 'default')).toBe('blocked: TypeError');
  });

  it('gets nothing when the local svc names another origin', async () => {
    expect(await outcome(['http://127.0.0.1:1'], 'other')).toBe('blocked: TypeError');
  });
});
