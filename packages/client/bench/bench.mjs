// `npm run bench` for @svc/client: measured side by side in one run against the same loopback server,
// (1) the client's time per request over raw fetch, (2) peak memory and throughput of a streamed
// 1 GiB upload through the client against a raw streamed fetch. Prints a table with the targets.
import { execFile, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { commandLine, fromEnv, integer } from '@svc/args';

const run = promisify(execFile);
const here = (f) => fileURLToPath(new URL(f, import.meta.url));
const USAGE = 'Usage: [BENCH_UPLOAD_BYTES=1073741824] [BENCH_ROUNDS=200] npm run bench -w @svc/client   (no options)';
commandLine('client bench', USAGE, { options: {} }); // no options: the settings are environment variables
const UPLOAD_BYTES = fromEnv('client bench', USAGE, 'BENCH_UPLOAD_BYTES', 1024 ** 3, integer(1));
const ROUNDS = fromEnv('client bench', USAGE, 'BENCH_ROUNDS', 200, integer(1));
// after the checks, so that a bad argument is answered without a build
const { createCentralClient } = await import('../dist/index.js');
const BATCH = 20;
const GC_EVERY_MIB = 16;

const server = fork(here('./server.mjs'));
const { port } = await new Promise((resolve) => server.once('message', resolve));
const base = `http://127.0.0.1:${port}`;

try {
  // ---- (1) per-request time: POST /images/list, the same body and headers both ways
  const body = { kind: 'image', offset: 0, length: 20 };
  const auth = `Basic ${btoa('admin:bench')}`;
  async function raw() {
    const response = await fetch(`${base}/api/svc/v3/images/list`, {
      method: 'POST',
      headers: { Authorization: auth, 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`raw: HTTP ${response.status}`);
    return response.json();
  }
  const central = createCentralClient({ baseUrl: `${base}/api/svc/v3`, username: 'admin', password: 'bench' });
  async function client() {
    const { data, error } = await central.POST('/images/list', { body });
    if (error) throw new Error('client: error answer');
    return data;
  }
  // The same with a time limit of its own: the client then routes through its own undici Agent.
  const timed = createCentralClient({
    baseUrl: `${base}/api/svc/v3`,
    username: 'admin',
    password: 'bench',
    timeoutMs: 30_000,
  });
  async function clientTimed() {
    const { data, error } = await timed.POST('/images/list', { body });
    if (error) throw new Error('client: error answer');
    return data;
  }
  async function batch(fn, n) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await fn();
    return Number(process.hrtime.bigint() - t) / n / 1000;
  }
  const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  await batch(raw, 500);
  await batch(client, 500);
  await batch(clientTimed, 500);
  // Short batches back to back, order rotating: adjacent batches share the machine's load (other
  // processes), so the median of their ratios is steadier than a ratio of medians.
  const times = { raw: [], client: [], clientTimed: [] };
  const ratios = { client: [], clientTimed: [] };
  const fns = { raw, client, clientTimed };
  for (let r = 0; r < ROUNDS; r++) {
    const pair = {};
    const order = ['raw', 'client', 'clientTimed'];
    for (let k = 0; k < 3; k++) {
      const name = order[(r + k) % 3];
      pair[name] = await batch(fns[name], BATCH);
    }
    for (const name of Object.keys(times)) times[name].push(pair[name]);
    for (const name of Object.keys(ratios)) ratios[name].push(pair[name] / pair.raw);
  }
  const perRequest = {
    raw: median(times.raw),
    client: median(times.client),
    ratio: median(ratios.client),
    timed: median(times.clientTimed),
    timedRatio: median(ratios.clientTimed),
  };

  // ---- (2) streamed upload: one fresh process per attempt, so each peak RSS is its own
  async function upload(variant, gcEveryMiB = GC_EVERY_MIB) {
    const { stdout } = await run(
      process.execPath,
      ['--expose-gc', here('./upload-child.mjs'), variant, base, String(UPLOAD_BYTES), String(gcEveryMiB)],
      { maxBuffer: 1 << 20 },
    );
    const result = JSON.parse(stdout);
    if (result.sent !== UPLOAD_BYTES)
      throw new Error(`${variant}: server received ${result.sent} of ${UPLOAD_BYTES} bytes`);
    return result;
  }
  const uploads = { raw: [], client: [] };
  for (let r = 0; r < 3; r++)
    for (const v of r % 2 ? ['raw', 'client'] : ['client', 'raw']) uploads[v].push(await upload(v));
  // Once more each without the generator's collections: what a plain run shows, garbage included.
  const plain = { raw: await upload('raw', 0), client: await upload('client', 0) };
  const best = (v) => Math.min(...uploads[v].map((u) => u.ms));
  const peak = (v) => Math.max(...uploads[v].map((u) => u.maxRssMB));
  const mbps = (v) => UPLOAD_BYTES / 1024 ** 2 / (best(v) / 1000);

  const ratio = perRequest.ratio;
  const throughput = mbps('client') / mbps('raw');
  const rows = [
    ['measure', 'client', 'raw fetch', 'ratio', 'target', 'met'],
    [
      'time per request, POST /images/list (µs, median; ratio: median of adjacent batches)',
      perRequest.client.toFixed(1),
      perRequest.raw.toFixed(1),
      ratio.toFixed(3),
      'ratio <= 1.10',
      ratio <= 1.1 ? 'yes' : 'NO',
    ],
    [
      '  same, with timeoutMs set (own undici Agent)',
      perRequest.timed.toFixed(1),
      perRequest.raw.toFixed(1),
      perRequest.timedRatio.toFixed(3),
      '(for reference)',
      '',
    ],
    [
      `peak RSS, streamed upload of ${(UPLOAD_BYTES / 1024 ** 3).toFixed(2)} GiB (MB)`,
      peak('client').toFixed(1),
      peak('raw').toFixed(1),
      (peak('client') / peak('raw')).toFixed(3),
      'client < 100 MB',
      peak('client') < 100 ? 'yes' : 'NO',
    ],
    [
      '  same, without forced GC in the generator (MB, 1 run)',
      plain.client.maxRssMB.toFixed(1),
      plain.raw.maxRssMB.toFixed(1),
      (plain.client.maxRssMB / plain.raw.maxRssMB).toFixed(3),
      '(for reference)',
      '',
    ],
    [
      'throughput, same upload (MiB/s, best of 3)',
      mbps('client').toFixed(0),
      mbps('raw').toFixed(0),
      throughput.toFixed(3),
      'ratio >= 0.80',
      throughput >= 0.8 ? 'yes' : 'NO',
    ],
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  console.log(
    `\n@svc/client benchmark (node ${process.version}, ${ROUNDS} rounds of ${BATCH}-request batches; loopback server in its own process)`,
  );
  console.log(
    `upload: one fresh process per run, 3 runs each, raw = fetch with a streamed body, duplex 'half', redirect 'error'; bytes made in ${64} KiB chunks, GC every ${GC_EVERY_MIB} MiB in both`,
  );
  for (const r of rows)
    console.log(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '));
} finally {
  server.send('stop');
}
