// The simulator's scale curve, part of its `npm run bench` (bench.mjs runs it last):
// (1) seeded through the API (POST /images: each create also makes a task) to 100, 1,000, 10,000
//     and 100,000 images and tasks: creates/s; per size, start-up (a fresh process on a copy of the
//     data dir at that size, from its fork to its first list answer). Those processes, one per
//     size, stay up, and the service time (1 connection, p50/p99) of a 100-entity page of
//     POST /images/list and POST /tasks/list in four forms (first page, last page, filter
//     (name== / status==), sort (name / creation_time, descending)) is measured on all of them
//     side by side: one request to each size in turn, so that every size sees the same machine
//     (an outlier of 5 to 10 ms that the scheduler or a collection puts in any answer, at any
//     size, lands in each size's answers alike); then each process's RSS after the lists;
// (2) over HTTPS with basic auth, 32 connections: requests/s of the simulator answering its
//     first 100-image page (the same request each time: its cached path) against a minimal
//     Node HTTPS server with basic auth answering that page's bytes, pre-serialised.
// Each figure with its goal (issue 23) and whether it is met. Sizes: BENCH_SCALE (default
// 100,1000,10000,100000); every list request's body has its keys in another order, so that no
// answer comes from the simulator's answer cache (keyed by the body text, at most 64 entries).
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandLine, fromEnv, integer, usageExit } from '@svc/args';

const USAGE =
  'Usage: [BENCH_SCALE=100,1000,10000,100000] [BENCH_SECONDS=4] [BENCH_ROUNDS=5] npm run bench -w @svc/simulator';
const PASSWORD = 'bench';
const AUTH = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`;
const CONNECTIONS = 32;
const PAGE = 100;
/**
 * Per list form: at most this many rounds (one request to each size), or this long per size,
 * whichever ends first (at least 10). The p99 of 1,000 uncached first pages of one process at 100
 * images moved between 3.4 and 7.0 ms from run to run (p50 0.6 ms, plain HTTP, 2026-11-27), and a
 * bare Node server's between 1.2 and 3.1 ms: measured one size after the other, a 2x goal on p99
 * was met or missed by that noise alone. Side by side, each size's p99 is the tenth-slowest of
 * answers taken in the same seconds.
 */
const SAMPLES = 1_000;
const SAMPLE_MS = 5_000;
/** Rounds per form before the measured ones: the first answers of a form are its compilation. */
const WARM_UP = 20;
const GOALS = { listRatio: 2, startupMs: 1_000, rssMB: 200, bareRatio: 0.5 };

/**
 * The sizes to measure, from BENCH_SCALE; a bad value ends the process with one line and exit 2.
 * @returns {number[]} ascending, each >= 100
 */
export function scaleSizes() {
  const raw = process.env.BENCH_SCALE ?? '100,1000,10000,100000';
  const list = raw.split(',').map(Number);
  if (!list.every((n) => Number.isInteger(n) && n >= PAGE) || list.some((n, i) => i && n <= list[i - 1])) {
    usageExit('simulator bench', USAGE, `BENCH_SCALE must be ascending integers >= ${PAGE}; got "${raw}"`);
  }
  return list;
}

/**
 * The middle value, or the mean of the two middle ones (an even count).
 * @param {number[]} values  not empty
 * @returns {number}
 */
export function median(values) {
  const sorted = [...values].sort((x, y) => x - y);
  const m = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
}

/** Every order of `keys` (so many distinct texts of one body). */
function permutations(keys) {
  if (keys.length <= 1) return [keys];
  return keys.flatMap((k, i) => permutations([...keys.slice(0, i), ...keys.slice(i + 1)]).map((rest) => [k, ...rest]));
}

/** Bodies equal to `body` in meaning, each with its keys in another order. */
function variants(body) {
  return permutations(Object.keys(body)).map((order) =>
    JSON.stringify(Object.fromEntries(order.map((k) => [k, body[k]]))),
  );
}

/**
 * Starts the simulator in its own process on `dataDir`.
 * @returns {Promise<{ url: string, startupMs: number, ask: (m: string) => Promise<any>, stop: () => Promise<void> }>}
 *   `startupMs`: from the fork to its first answer of an image list
 */
async function startChild(dataDir, tls, agent) {
  const started = performance.now();
  const child = fork(
    fileURLToPath(new URL('./sim-child.mjs', import.meta.url)),
    [dataDir, PASSWORD, JSON.stringify({ cert: tls.cert, key: tls.private })],
    { execArgv: ['--max-semi-space-size=4'] },
  );
  const [{ url }] = await once(child, 'message');
  await post(agent, `${url}/api/svc/v3/images/list`, JSON.stringify({ kind: 'image', length: 1 }));
  const startupMs = performance.now() - started;
  return {
    url,
    startupMs,
    async ask(message) {
      child.send(message);
      return (await once(child, 'message'))[0];
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.send('stop');
      await exited;
    },
  };
}

/** POSTs `body` (JSON text) and resolves to the answer's status and text; rejects on a network error. */
function post(agent, url, body) {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      url,
      {
        method: 'POST',
        agent,
        headers: { authorization: AUTH, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Creates images `from`..`to - 1` through the API, 16 at a time; returns creates per second. */
async function seed(agent, url, from, to) {
  const started = performance.now();
  let next = from;
  const worker = async () => {
    while (next < to) {
      const i = next++;
      const body = JSON.stringify({
        api_version: '3.1.0',
        metadata: { kind: 'image' },
        spec: { name: `bench-${String(i).padStart(6, '0')}`, resources: { image_type: 'DISK_IMAGE' } },
      });
      const res = await post(agent, `${url}/api/svc/v3/images`, body);
      if (res.status !== 202) throw new Error(`seeding image ${i}: HTTP ${res.status} ${res.text.slice(0, 300)}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return (to - from) / ((performance.now() - started) / 1000);
}

/**
 * p50 and p99 (ms) of one list form at every size, side by side: in each round one request to each
 * size's process, one after the other (the order turned each round), bodies cycling through their
 * `texts`; the first WARM_UP rounds are not counted.
 * @param {import('node:https').Agent} agent
 * @param {{ url: string, texts: string[], want: number }[]} targets  one per size
 * @returns {Promise<{ p50: number, p99: number, n: number }[]>} in the order of `targets`
 * @throws {Error} when an answer is not 200 or has another number of entities than `want`
 */
async function serviceTimes(agent, targets) {
  const times = targets.map(() => /** @type {number[]} */ ([]));
  let started = 0;
  for (let round = 0; round < WARM_UP + SAMPLES; round++) {
    if (round === WARM_UP) started = performance.now();
    if (round >= WARM_UP + 10 && performance.now() - started > SAMPLE_MS * targets.length) break;
    for (let k = 0; k < targets.length; k++) {
      const index = (round + k) % targets.length;
      const { url, texts, want } = targets[index];
      const t = performance.now();
      const res = await post(agent, url, texts[round % texts.length]);
      if (round >= WARM_UP) times[index].push(performance.now() - t);
      if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status} ${res.text.slice(0, 300)}`);
      const length = JSON.parse(res.text).entities.length;
      if (length !== want) throw new Error(`${url}: ${length} entities, expected ${want}`);
    }
  }
  return times.map((list) => {
    list.sort((x, y) => x - y);
    const at = (q) => list[Math.min(list.length - 1, Math.ceil(q * list.length) - 1)];
    return { p50: at(0.5), p99: at(0.99), n: list.length };
  });
}

/** The list forms at `size` entities: [label, path, body, entities expected]. */
function forms(size) {
  const last = { offset: size - PAGE, length: PAGE };
  return [
    [
      'images first page',
      '/api/svc/v3/images/list',
      { kind: 'image', offset: 0, length: PAGE, filter: '', sort_order: 'ASCENDING' },
      PAGE,
    ],
    [
      'images last page',
      '/api/svc/v3/images/list',
      { kind: 'image', ...last, filter: '', sort_order: 'ASCENDING' },
      PAGE,
    ],
    [
      'images filter name==',
      '/api/svc/v3/images/list',
      { kind: 'image', offset: 0, length: PAGE, filter: 'name==bench-000042', sort_order: 'ASCENDING' },
      1,
    ],
    [
      'images sort name desc',
      '/api/svc/v3/images/list',
      { kind: 'image', offset: 0, length: PAGE, sort_attribute: 'name', sort_order: 'DESCENDING' },
      PAGE,
    ],
    [
      'tasks first page',
      '/api/svc/v3/tasks/list',
      { kind: 'task', offset: 0, length: PAGE, filter: '', sort_order: 'ASCENDING' },
      PAGE,
    ],
    ['tasks last page', '/api/svc/v3/tasks/list', { kind: 'task', ...last, filter: '', sort_order: 'ASCENDING' }, PAGE],
    [
      'tasks filter status==',
      '/api/svc/v3/tasks/list',
      { kind: 'task', offset: 0, length: PAGE, filter: 'status==SUCCEEDED', sort_order: 'ASCENDING' },
      PAGE,
    ],
    [
      'tasks sort time desc',
      '/api/svc/v3/tasks/list',
      { kind: 'task', offset: 0, length: PAGE, sort_attribute: 'creation_time', sort_order: 'DESCENDING' },
      PAGE,
    ],
  ];
}

/** requests/s of one autocannon round against `url` over HTTPS. */
async function rps(url, body, ca) {
  const { default: autocannon } = await import('autocannon');
  const result = await autocannon({
    url,
    method: 'POST',
    connections: CONNECTIONS,
    duration: fromEnv('simulator bench', USAGE, 'BENCH_SECONDS', 4, integer(1)),
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    body,
    tlsOptions: { ca },
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.requests.average;
}

/**
 * Runs the scale curve and the bare-server comparison and prints them.
 * @returns {Promise<void>}
 * @throws {Error} when an answer is not the expected one (status, number of entities)
 */
export async function scaleBench() {
  const list = scaleSizes();
  const rounds = fromEnv('simulator bench', USAGE, 'BENCH_ROUNDS', 5, integer(1));
  const { default: selfsigned } = await import('selfsigned'); // loaded here: bad settings are answered first
  const tls = await selfsigned.generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 16, ca: tls.cert });
  const work = mkdtempSync(join(tmpdir(), 'svc-sim-scale-'));
  const dataDir = join(work, 'seeded');
  /** one process per size, on a copy of the data dir at that size */
  const sims = [];
  const curve = [];
  let bare;
  let seeder;
  try {
    let seeded = 0;
    for (const size of list) {
      seeder = await startChild(dataDir, tls, agent);
      const createsPerSecond = await seed(agent, seeder.url, seeded, size);
      seeded = size;
      const seeding = await seeder.ask('rss');
      await seeder.stop();
      seeder = undefined;
      // start-up on the store of this size, as the seeding process left it (a copy: seeding goes on)
      const copy = join(work, String(size));
      cpSync(dataDir, copy, { recursive: true });
      const sim = await startChild(copy, tls, agent);
      sims.push(sim);
      curve.push({ size, createsPerSecond, startupMs: sim.startupMs, seedingMaxRssMB: seeding.maxRssMB, forms: {} });
    }
    for (const [index, [label, path]] of forms(PAGE).entries()) {
      const targets = curve.map(({ size }, k) => {
        const [, , body, want] = forms(size)[index];
        return { url: `${sims[k].url}${path}`, texts: variants(body), want };
      });
      const times = await serviceTimes(agent, targets);
      curve.forEach((row, k) => {
        row.forms[label] = times[k];
      });
    }
    for (const [k, row] of curve.entries()) Object.assign(row, await sims[k].ask('rss'));
    // (2) the cached first page of the smallest size against a bare server sending its bytes
    const simUrl = `${sims[0].url}/api/svc/v3/images/list`;
    const body = JSON.stringify({ kind: 'image', offset: 0, length: PAGE });
    const page = await post(agent, simUrl, body);
    const server = createServer({ cert: tls.cert, key: tls.private }, (req, res) => {
      if (req.headers.authorization !== AUTH) {
        res.writeHead(401, { 'www-authenticate': 'Basic realm="svc"' }).end();
        return;
      }
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(page.text));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const bareUrl = `https://127.0.0.1:${server.address().port}/api/svc/v3/images/list`;
      const ratios = [];
      const seen = { sim: [], bare: [] };
      for (let r = 0; r < rounds; r++) {
        const pair = {};
        for (const name of r % 2 ? ['bare', 'sim'] : ['sim', 'bare']) {
          pair[name] = await rps(name === 'sim' ? simUrl : bareUrl, body, tls.cert);
          seen[name].push(pair[name]);
        }
        ratios.push(pair.sim / pair.bare);
      }
      bare = { sim: median(seen.sim), bare: median(seen.bare), ratio: median(ratios) };
    } finally {
      server.close();
      server.closeAllConnections();
    }
  } finally {
    agent.destroy();
    await seeder?.stop();
    await Promise.all(sims.map((sim) => sim.stop()));
    rmSync(work, { recursive: true, force: true });
  }
  print(curve, bare, rounds);
}

function print(curve, bare, rounds) {
  const base = curve[0];
  const rows = [['figure', ...curve.map((r) => r.size.toLocaleString('en')), 'goal', 'met']];
  const fixed = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '-');
  const largest = curve.at(-1);
  rows.push(['creates/s (POST /images, 16 at a time)', ...curve.map((r) => fixed(r.createsPerSecond, 0)), '', '']);
  for (const label of Object.keys(base.forms)) {
    const within = largest.forms[label].p99 <= GOALS.listRatio * base.forms[label].p99;
    rows.push([`${label}: p50 ms`, ...curve.map((r) => fixed(r.forms[label].p50, 2)), '', '']);
    rows.push([
      `${label}: p99 ms`,
      ...curve.map((r) => fixed(r.forms[label].p99, 2)),
      `<= ${GOALS.listRatio}x at ${base.size}`,
      within ? 'yes' : 'NO',
    ]);
  }
  rows.push([
    'start-up to first answer (ms)',
    ...curve.map((r) => fixed(r.startupMs, 0)),
    `< ${GOALS.startupMs}`,
    largest.startupMs < GOALS.startupMs ? 'yes' : 'NO',
  ]);
  rows.push([
    'RSS after the lists (MB)',
    ...curve.map((r) => fixed(r.rssMB)),
    `< ${GOALS.rssMB}`,
    largest.rssMB < GOALS.rssMB ? 'yes' : 'NO',
  ]);
  rows.push(['peak RSS (MB)', ...curve.map((r) => fixed(r.maxRssMB)), '', '']);
  rows.push(['peak RSS of the seeding process (MB)', ...curve.map((r) => fixed(r.seedingMaxRssMB)), '', '']);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(
    `\n@svc/simulator scale curve (HTTPS, 1 connection; "met" compares the largest size; every size side by side, p99 of <= ${SAMPLES} requests each or ${SAMPLE_MS / 1000} s per form)`,
  );
  for (const r of rows) console.log(line(r));
  if (bare) {
    console.log(
      `\nPOST /images/list, first ${PAGE} of ${base.size} images (cached), HTTPS + basic auth, ${CONNECTIONS} connections, median of ${rounds} rounds:`,
    );
    console.log(
      `  simulator ${bare.sim.toFixed(0)} req/s, bare Node HTTPS server with the same bytes ${bare.bare.toFixed(0)} req/s`,
    );
    console.log(
      `  ratio ${bare.ratio.toFixed(3)}   goal >= ${GOALS.bareRatio} of the bare server   met: ${bare.ratio >= GOALS.bareRatio ? 'yes' : 'NO'}`,
    );
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  commandLine('simulator bench', USAGE, { options: {} }); // no options: the settings are environment variables
  await scaleBench();
}
