// Part of `npm run bench`: the explorer page beside a bare Swagger UI page (swagger-ui-dist's own
// index.html and initializer, pointed at the same central bundle), side by side in one run, both
// served by the same explorer server (startExplorer: compression, ETags, long caching of
// fingerprinted names):
//   - bytes on the wire (Chromium's encodedDataLength: compressed bodies and headers) of a first
//     load with a cold cache, and of a reload right after it in the same browser context;
//   - time from navigation start to the first rendered operation (a MutationObserver records
//     performance.now()), cold cache (a new browser context per load), loads alternating, median;
//   - the page's JavaScript heap once idle after that load, after a garbage collection;
//   - time to resolve each central operation as Swagger UI does when one is opened (the page's
//     `ui.fn.resolveSubtree`, one after another), the explorer's against the bare page's.
// With --scalar <standalone.js> (from @scalar/api-reference, not a dependency of this package:
// `npm install --prefix /tmp/scalar @scalar/api-reference`) a Scalar page on the same bundle is
// measured too, for the renderer decision in the README.
//   node bench/bench.mjs [--loads 7] [--scalar <path>/dist/browser/standalone.js]
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { commandLine, integer, usageExit } from '@svc/args';
import { operations } from '@svc/oas';
import { apis, shownPath } from '@svc/oas/apis';
import { chromium } from 'playwright-core';
import { build } from '../scripts/build.mjs';
import { startExplorer } from '../src/index.js';
import { CHROMIUM } from '../test/support/chromium.js';

const require = createRequire(import.meta.url);
const USAGE =
  'Usage: npm run bench -w @svc/explorer -- [--loads 7] [--scalar <@scalar/api-reference dist/browser/standalone.js>]';
const { values } = commandLine('explorer bench', USAGE, {
  options: { loads: { type: 'string', default: '7', check: integer(1) }, scalar: { type: 'string' } },
});
const { loads } = values;
if (values.scalar !== undefined && !existsSync(values.scalar))
  usageExit(
    'explorer bench',
    USAGE,
    "--scalar must name @scalar/api-reference's dist/browser/standalone.js; the file does not exist",
  );
// the browser tests' Chromium (the headless shell that `npm test` installs, else chromium), with
// the bench's own flags below: V8's optimising compilers stay on, as in a user's browser
const chromiumPath = CHROMIUM.path;
if (!existsSync(chromiumPath)) {
  console.error(
    `Chromium not found at ${chromiumPath}: run \`apt-get install -y chromium-headless-shell\` (or set CHROMIUM_PATH)`,
  );
  process.exit(2);
}
const central = apis().find((a) => a.name === 'central');
if (!existsSync(central.bundleJson)) {
  console.error(`${shownPath(central.bundleJson)} is missing: run \`npm run bundle\` at the repository root`);
  process.exit(2);
}

/** The bare page: swagger-ui-dist as shipped, its initializer pointed at the bundle. */
function buildBare(outDir) {
  const swaggerDir = dirname(require.resolve('swagger-ui-dist/package.json'));
  mkdirSync(outDir, { recursive: true });
  for (const file of [
    'index.html',
    'index.css',
    'swagger-ui.css',
    'swagger-ui-bundle.js',
    'swagger-ui-standalone-preset.js',
    'favicon-16x16.png',
    'favicon-32x32.png',
  ]) {
    copyFileSync(join(swaggerDir, file), join(outDir, file));
  }
  const initializer = readFileSync(join(swaggerDir, 'swagger-initializer.js'), 'utf8');
  const pointed = initializer.replace(/url: "[^"]*"/, 'url: "./central.json"');
  if (pointed === initializer) throw new Error('bench: swagger-initializer.js has no `url: "..."` to replace');
  writeFileSync(join(outDir, 'swagger-initializer.js'), pointed);
  copyFileSync(central.bundleJson, join(outDir, 'central.json'));
}

/** A Scalar page on the same bundle, its fonts and registry look-ups off (nothing off this machine). */
function buildScalar(outDir, standalone) {
  mkdirSync(outDir, { recursive: true });
  copyFileSync(standalone, join(outDir, 'standalone.js'));
  copyFileSync(central.bundleJson, join(outDir, 'central.json'));
  writeFileSync(
    join(outDir, 'index.html'),
    `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Scalar</title></head><body><div id="app"></div>
<script src="./standalone.js"></script>
<script>Scalar.createApiReference('#app', { url: './central.json', withDefaultFonts: false, telemetry: false });</script>
</body></html>
`,
  );
}

/** The page's window with the time the bench records in it. @typedef {Window & { __firstOperation?: number }} BenchWindow */

/** Records when the first operation appears (ms since navigation start). */
const OBSERVE = (selector) => {
  const page = /** @type {BenchWindow} */ (window);
  const seen = () => {
    if (page.__firstOperation === undefined && document.querySelector(selector))
      page.__firstOperation = performance.now();
    return page.__firstOperation !== undefined;
  };
  new MutationObserver((_records, observer) => {
    if (seen()) observer.disconnect();
  }).observe(document, { childList: true, subtree: true });
};

/** How long no request may be in flight for the page to count as idle (Playwright's networkidle). */
const IDLE_MS = 500;

/**
 * Bytes on the wire (compressed bodies and headers) until the page is idle: no request in flight
 * for IDLE_MS, by the same DevTools events that count the bytes. Playwright's
 * `waitForLoadState('networkidle')` ran out its 30 s in 2 of 23 runs of the bench here
 * (2026-11-27, Debian's headless shell), after loads that had ended.
 * @throws {Error} naming the requests still in flight after 60 s
 */
async function wireBytes(page, action) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  let bytes = 0;
  let requests = 0;
  const inFlight = new Map();
  let changed = performance.now();
  cdp.on('Network.requestWillBeSent', (event) => {
    inFlight.set(event.requestId, event.request.url);
    changed = performance.now();
  });
  cdp.on('Network.loadingFailed', (event) => {
    inFlight.delete(event.requestId);
    changed = performance.now();
  });
  cdp.on('Network.loadingFinished', (event) => {
    bytes += event.encodedDataLength;
    requests++;
    inFlight.delete(event.requestId);
    changed = performance.now();
  });
  await action();
  const deadline = performance.now() + 60_000;
  while (inFlight.size > 0 || performance.now() - changed < IDLE_MS) {
    if (performance.now() > deadline)
      throw new Error(`bench: requests still in flight after 60 s: ${[...inFlight.values()].join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await cdp.detach();
  return { bytes, requests };
}

async function measure(browser, { url, selector }, { weigh = false } = {}) {
  const context = await browser.newContext();
  const page = await context.newPage();
  // Loopback only: Chromium resolves no other host (--host-resolver-rules below); such requests
  // (a validator badge, a font, a registry) fail and are counted. Not page.route(): routing turns
  // off the HTTP cache, which the reload measures.
  const external = [];
  page.on('request', (request) => {
    if (new URL(request.url()).hostname !== '127.0.0.1') external.push(request.url());
  });
  await page.addInitScript(OBSERVE, selector);
  const open = async () => {
    await page.waitForFunction(() => /** @type {BenchWindow} */ (window).__firstOperation !== undefined, null, {
      timeout: 60_000,
    });
  };
  const first = await wireBytes(page, async () => {
    await page.goto(url);
    await open();
  });
  const ms = await page.evaluate(() => /** @type {BenchWindow} */ (window).__firstOperation);
  const count = await page.locator(selector).count();
  // The page's JavaScript heap once idle, after a garbage collection (bytes in use).
  const cdp = await context.newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize: heap } = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  let reload;
  if (weigh)
    reload = await wireBytes(page, async () => {
      await page.reload();
      await open();
    });
  await context.close();
  return { ms, count, first, reload, external, heap };
}

/**
 * Milliseconds the page's Swagger UI takes to resolve each operation of the central bundle, one
 * after another, as when a user opens them (`ui.fn.resolveSubtree`, what Swagger UI calls).
 * @returns {Promise<number[]>}
 */
async function resolveTimes(browser, { url, selector }) {
  const subtrees = operations(JSON.parse(readFileSync(central.bundleJson, 'utf8'))).map((o) => [
    'paths',
    o.path,
    o.method,
  ]);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.locator(selector).first().waitFor({ timeout: 60_000 });
    return await page.evaluate(async (paths) => {
      const ui = /** @type {any} */ (window).ui;
      const spec = ui.specSelectors.specJS();
      const times = [];
      for (const path of paths) {
        const start = performance.now();
        const { errors } = await ui.fn.resolveSubtree(spec, path, { baseDoc: location.href });
        if (errors.length) throw new Error(`${path.join(' ')}: ${errors[0].message}`);
        times.push(performance.now() - start);
      }
      return times;
    }, subtrees);
  } finally {
    await context.close();
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const work = mkdtempSync(join(tmpdir(), 'explorer-bench-'));
let server;
let browser;
try {
  await build({ outDir: join(work, 'explorer') });
  buildBare(join(work, 'explorer', 'bare'));
  if (values.scalar) buildScalar(join(work, 'explorer', 'scalar'), values.scalar);
  server = await startExplorer({ dir: join(work, 'explorer') });
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    ],
  });
  const pages = {
    explorer: { url: `${server.url}?api=central`, selector: '.opblock' },
    bare: { url: `${server.url}bare/index.html`, selector: '.opblock' },
  };
  if (values.scalar)
    pages.scalar = {
      url: `${server.url}scalar/index.html`,
      selector: '.endpoint, section[id*="/tag/"][id*="/POST/"], section[id*="/tag/"][id*="/GET/"]',
    };
  const names = Object.keys(pages);
  // A warm-up load each (Chromium's own start-up, the server's compression caches), then the weights.
  for (const name of names) await measure(browser, pages[name]);
  const weights = {};
  for (const name of names) weights[name] = await measure(browser, pages[name], { weigh: true });
  const times = Object.fromEntries(names.map((n) => [n, []]));
  const heaps = Object.fromEntries(names.map((n) => [n, []]));
  const counts = {};
  for (let i = 0; i < loads; i++) {
    for (const name of i % 2 ? [...names].reverse() : names) {
      const r = await measure(browser, pages[name]);
      times[name].push(r.ms);
      heaps[name].push(r.heap);
      counts[name] = r.count;
    }
  }
  // Swagger UI's resolver on the explorer and the bare page (Scalar has none of its own to compare).
  const resolving = {};
  for (const name of ['explorer', 'bare']) resolving[name] = await resolveTimes(browser, pages[name]);
  const kib = (n) => (n / 1024).toFixed(1);
  const row = (label, cells, ratio) => {
    console.log(
      `${label.padEnd(36)} ${cells.map((c) => String(c).padStart(16)).join(' ')} ${ratio === undefined ? '' : ratio.padStart(8)}`,
    );
  };
  const ratioOf = (a, b) => (Number(b) > 0 ? `${(Number(a) / Number(b)).toFixed(2)}x` : '-');
  console.log(
    `\nexplorer vs bare Swagger UI${values.scalar ? ' vs Scalar' : ''}: Chromium, loopback, central bundle, served by startExplorer; median of ${loads} cold loads each`,
  );
  row(
    '',
    names.map((n) => ({ explorer: 'svc explorer', bare: 'bare Swagger UI', scalar: 'Scalar' })[n]),
    'expl/bare',
  );
  row(
    'first operation list (ms, median)',
    names.map((n) => `${Math.round(median(times[n]))} ms`),
    ratioOf(median(times.explorer), median(times.bare)),
  );
  row(
    '  fastest / slowest (ms)',
    names.map((n) => `${Math.round(Math.min(...times[n]))}/${Math.round(Math.max(...times[n]))}`),
  );
  row(
    'JS heap once idle, after GC (MB, median)',
    names.map((n) => `${(median(heaps[n]) / 1e6).toFixed(1)} MB`),
    ratioOf(median(heaps.explorer), median(heaps.bare)),
  );
  const sum = (xs) => xs.reduce((a, b) => a + b, 0);
  row(
    'operation opened: resolved (ms, median)',
    names.map((n) => (resolving[n] ? `${Math.round(median(resolving[n]))} ms` : '-')),
    ratioOf(median(resolving.explorer), median(resolving.bare)),
  );
  row(
    `  all ${resolving.explorer.length} operations, one by one (ms)`,
    names.map((n) => (resolving[n] ? `${Math.round(sum(resolving[n]))} ms` : '-')),
    ratioOf(sum(resolving.explorer), sum(resolving.bare)),
  );
  row(
    'first load on the wire (KiB)',
    names.map((n) => `${kib(weights[n].first.bytes)} KiB`),
    ratioOf(weights.explorer.first.bytes, weights.bare.first.bytes),
  );
  row(
    'reload on the wire (KiB)',
    names.map((n) => `${kib(weights[n].reload.bytes)} KiB`),
    ratioOf(weights.explorer.reload.bytes, weights.bare.reload.bytes),
  );
  row(
    'requests (first load / reload)',
    names.map((n) => `${weights[n].first.requests} / ${weights[n].reload.requests}`),
  );
  row(
    'operations rendered',
    names.map((n) => counts[n]),
  );
  console.log(
    `targets: first load < 650 KB: ${weights.explorer.first.bytes < 650_000 ? 'met' : 'MISSED'} (${weights.explorer.first.bytes} B); reload < 50 KB: ${weights.explorer.reload.bytes < 50_000 ? 'met' : 'MISSED'} (${weights.explorer.reload.bytes} B); first operation list not slower than the bare page: ${median(times.explorer) <= median(times.bare) ? 'met' : `MISSED by ${Math.round(median(times.explorer) - median(times.bare))} ms`}; an operation resolved in under half the bare page's time: ${median(resolving.explorer) < median(resolving.bare) / 2 ? 'met' : 'MISSED'}`,
  );
  for (const [name, w] of Object.entries(weights)) {
    if (w.external.length)
      console.log(
        `${name}: ${w.external.length} request(s) off this machine (not resolved): ${[...new Set(w.external.map((u) => new URL(u).host))].join(', ')}`,
      );
  }
  console.log(
    '(ratio = explorer / bare; bytes are what Chromium received, compressed bodies and headers; the explorer also loads its search index and the live samples code)',
  );
} finally {
  await browser?.close();
  await server?.close();
  rmSync(work, { recursive: true, force: true });
}
