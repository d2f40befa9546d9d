// Part of `npm run bench`: the explorer page against a bare Swagger UI page (swagger-ui-dist's
// own index.html and initializer, pointed at the same central bundle), side by side in one run:
//   - time to first rendered operation list: from navigation start to the first `.opblock` in
//     the DOM (a MutationObserver records performance.now()), cold cache (a new browser context
//     per load), loads alternating between the two pages, median and spread of --loads;
//   - weight: every response the page loads, each gzipped with zlib (level 9), summed.
// Both pages are served by the same loopback static server (startExplorer, no mocks).
//   node bench/bench.mjs [--loads 7]
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { build } from '../scripts/build.mjs';
import { startExplorer } from '../src/index.js';
import { apis } from '@svc/oas/apis';

const require = createRequire(import.meta.url);
const USAGE = 'Usage: npm run bench -w @svc/explorer -- [--loads 7]';
let values;
try {
  ({ values } = parseArgs({ options: { loads: { type: 'string', default: '7' } } }));
} catch (e) {
  // one line and the usage, exit 2, as every command of the repository (scripts/lib/args.mjs)
  console.error(`explorer bench: ${e.message.replace(/\s*\n\s*/g, ' ')}\n${USAGE}`);
  process.exit(2);
}
const loads = /^\d+$/.test(values.loads) ? Number(values.loads) : NaN;
if (!(loads >= 1)) {
  console.error(`explorer bench: --loads must be a positive integer; got "${values.loads}"\n${USAGE}`);
  process.exit(2);
}
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
if (!existsSync(chromiumPath)) {
  console.error(`Chromium not found at ${chromiumPath}: run \`apt-get install -y chromium\` (or set CHROMIUM_PATH)`);
  process.exit(2);
}
const central = apis().find((a) => a.name === 'central');
if (!existsSync(central.bundleJson)) {
  console.error(`${central.bundleJson} is missing: run \`npm run bundle\` at the repository root`);
  process.exit(2);
}

/** The bare page: swagger-ui-dist as shipped, its initializer pointed at the bundle. */
function buildBare(outDir) {
  const swaggerDir = dirname(require.resolve('swagger-ui-dist/package.json'));
  mkdirSync(outDir, { recursive: true });
  for (const file of ['index.html', 'index.css', 'swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'favicon-16x16.png', 'favicon-32x32.png']) {
    copyFileSync(join(swaggerDir, file), join(outDir, file));
  }
  const initializer = readFileSync(join(swaggerDir, 'swagger-initializer.js'), 'utf8');
  const pointed = initializer.replace(/url: "[^"]*"/, 'url: "./central.json"');
  if (pointed === initializer) throw new Error('bench: swagger-initializer.js has no `url: "..."` to replace');
  writeFileSync(join(outDir, 'swagger-initializer.js'), pointed);
  copyFileSync(central.bundleJson, join(outDir, 'central.json'));
}

/** Records when the first operation block appears (ms since navigation start). */
const OBSERVE = () => {
  const seen = () => {
    if (window.__firstOpblock === undefined && document.querySelector('.opblock')) window.__firstOpblock = performance.now();
    return window.__firstOpblock !== undefined;
  };
  new MutationObserver((_records, observer) => {
    if (seen()) observer.disconnect();
  }).observe(document, { childList: true, subtree: true });
};

async function load(browser, url, { weigh = false } = {}) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const external = [];
  // Loopback only: a request elsewhere (the bare page's validator badge, say) is refused and counted.
  await page.route((u) => u.hostname !== '127.0.0.1', (route) => {
    external.push(route.request().url());
    return route.abort();
  });
  const responses = [];
  if (weigh) page.on('response', (r) => responses.push(r));
  await page.addInitScript(OBSERVE);
  await page.goto(url);
  await page.waitForFunction(() => window.__firstOpblock !== undefined, null, { timeout: 60_000 });
  const ms = await page.evaluate(() => window.__firstOpblock);
  const count = await page.locator('.opblock').count();
  let gzipped = 0;
  let raw = 0;
  if (weigh) {
    await page.waitForLoadState('networkidle');
    for (const response of responses) {
      const body = await response.body().catch(() => Buffer.alloc(0));
      raw += body.length;
      gzipped += gzipSync(body, { level: 9 }).length;
    }
  }
  await context.close();
  return { ms, count, gzipped, raw, requests: responses.length, external };
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
  server = await startExplorer({ dir: join(work, 'explorer') });
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const pages = {
    explorer: `${server.url}?api=central`,
    bare: `${server.url}bare/index.html`,
  };
  // One warm-up load each (Chromium's own start-up), then the weights.
  const weights = {};
  for (const [name, url] of Object.entries(pages)) weights[name] = await load(browser, url, { weigh: true });
  const times = { explorer: [], bare: [] };
  const counts = {};
  for (let i = 0; i < loads; i++) {
    for (const name of i % 2 ? ['bare', 'explorer'] : ['explorer', 'bare']) {
      const r = await load(browser, pages[name]);
      times[name].push(r.ms);
      counts[name] = r.count;
    }
  }
  const row = (label, a, b, unit = '') => {
    const ratio = Number.isFinite(Number(a)) && Number(b) > 0 ? `${(Number(a) / Number(b)).toFixed(2)}x` : '-';
    console.log(`${label.padEnd(34)} ${`${a}${unit}`.padStart(14)} ${`${b}${unit}`.padStart(16)} ${ratio.padStart(8)}`);
  };
  const fmt = (xs) => Math.round(median(xs));
  console.log(`\nexplorer vs bare Swagger UI: Chromium, loopback, central bundle, median of ${loads} cold loads each`);
  console.log(`${''.padEnd(34)} ${'svc explorer'.padStart(14)} ${'bare Swagger UI'.padStart(16)} ${'ratio'.padStart(8)}`);
  row('first operation list (ms, median)', fmt(times.explorer), fmt(times.bare), ' ms');
  row('  fastest / slowest (ms)', `${Math.round(Math.min(...times.explorer))}/${Math.round(Math.max(...times.explorer))}`, `${Math.round(Math.min(...times.bare))}/${Math.round(Math.max(...times.bare))}`);
  row('assets gzipped (KiB)', (weights.explorer.gzipped / 1024).toFixed(1), (weights.bare.gzipped / 1024).toFixed(1), ' KiB');
  row('assets uncompressed (KiB)', (weights.explorer.raw / 1024).toFixed(1), (weights.bare.raw / 1024).toFixed(1), ' KiB');
  row('requests', weights.explorer.requests, weights.bare.requests);
  row('operations rendered', counts.explorer, counts.bare);
  for (const [name, w] of Object.entries(weights)) {
    if (w.external.length) console.log(`${name}: refused ${w.external.length} request(s) off this machine: ${w.external.join(', ')}`);
  }
  console.log('(ratio = explorer / bare; the explorer adds its plugins and per-operation code samples to the spec)');
} finally {
  await browser?.close();
  await server?.close();
  rmSync(work, { recursive: true, force: true });
}
