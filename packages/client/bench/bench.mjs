// `npm run bench` for @svc/client: against one loopback server in its own process, measured side by
// side in one run: (1) the client's CPU time per request against global fetch's and plain
// openapi-fetch's, each variant in a fresh process of its own (cpu-child.mjs), (2) peak memory and
// throughput of a streamed 1 GiB upload through the client against a raw streamed fetch, each run
// in a fresh process (upload-child.mjs). Prints a table with the goals and whether each is met.
import { execFile, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { commandLine, fromEnv, integer } from '@svc/args';

const run = promisify(execFile);
const here = (f) => fileURLToPath(new URL(f, import.meta.url));
const USAGE =
  'Usage: [BENCH_UPLOAD_BYTES=1073741824] [BENCH_UPLOAD_ROUNDS=5] [BENCH_ROUNDS=5] [BENCH_REQUESTS=2000] npm run bench -w @svc/client   (no options)';
commandLine('client bench', USAGE, { options: {} }); // no options: the settings are environment variables
const UPLOAD_BYTES = fromEnv('client bench', USAGE, 'BENCH_UPLOAD_BYTES', 1024 ** 3, integer(1));
const ROUNDS = fromEnv('client bench', USAGE, 'BENCH_ROUNDS', 5, integer(1));
const REQUESTS = fromEnv('client bench', USAGE, 'BENCH_REQUESTS', 2000, integer(1));
const UPLOAD_ROUNDS = fromEnv('client bench', USAGE, 'BENCH_UPLOAD_ROUNDS', 5, integer(1));
const WARMUP = Math.ceil(REQUESTS / 4);
const GC_EVERY_MIB = 16;

const server = fork(here('./server.mjs'));
const { port } = await new Promise((resolve) => server.once('message', resolve));
const base = `http://127.0.0.1:${port}`;
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];

try {
  // ---- (1) CPU per request, POST /images/list: a round runs each variant once, in rotating order,
  // so the variants of a round share the machine's load; the ratio is the median of the rounds'.
  const variants = ['fetch', 'openapi-fetch', 'client', 'client-timed'];
  const cpu = Object.fromEntries(variants.map((v) => [v, []]));
  const wall = Object.fromEntries(variants.map((v) => [v, []]));
  const ratios = { fetch: [], 'openapi-fetch': [], timed: [] };
  for (let r = 0; r < ROUNDS; r++) {
    const round = {};
    for (let k = 0; k < variants.length; k++) {
      const variant = variants[(r + k) % variants.length];
      const { stdout } = await run(process.execPath, [
        here('./cpu-child.mjs'),
        variant,
        base,
        String(WARMUP),
        String(REQUESTS),
      ]);
      round[variant] = JSON.parse(stdout);
      cpu[variant].push(round[variant].cpuUs);
      wall[variant].push(round[variant].wallUs);
    }
    ratios.fetch.push(round.client.cpuUs / round.fetch.cpuUs);
    ratios['openapi-fetch'].push(round.client.cpuUs / round['openapi-fetch'].cpuUs);
    ratios.timed.push(round['client-timed'].cpuUs / round.fetch.cpuUs);
  }

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
  // Rounds of one run each, back to back in alternating order: a round's two runs share the
  // machine's load, so the throughput ratio is the median of the rounds' (as for the CPU).
  const uploads = { raw: [], client: [] };
  const speedRatios = [];
  for (let r = 0; r < UPLOAD_ROUNDS; r++) {
    for (const v of r % 2 ? ['raw', 'client'] : ['client', 'raw']) uploads[v].push(await upload(v));
    speedRatios.push(uploads.raw.at(-1).ms / uploads.client.at(-1).ms);
  }
  // Once more each without the generator's collections: what a plain run shows, garbage included.
  const plain = { raw: await upload('raw', 0), client: await upload('client', 0) };
  const peak = (v) => Math.max(...uploads[v].map((u) => u.maxRssMB));
  const mbps = (v) => UPLOAD_BYTES / 1024 ** 2 / (median(uploads[v].map((u) => u.ms)) / 1000);

  const throughput = median(speedRatios);
  const vsFetch = median(ratios.fetch);
  const vsOpenapi = median(ratios['openapi-fetch']);
  const us = (v) => median(cpu[v]).toFixed(1);
  const rows = [
    ['measure', 'client', 'reference', 'ratio', 'goal', 'met'],
    [
      'CPU per request, POST /images/list, vs global fetch (µs, median)',
      us('client'),
      us('fetch'),
      vsFetch.toFixed(3),
      'ratio <= 0.70',
      vsFetch <= 0.7 ? 'met' : 'NOT met',
    ],
    [
      'CPU per request, same, vs plain openapi-fetch (µs, median)',
      us('client'),
      us('openapi-fetch'),
      vsOpenapi.toFixed(3),
      'ratio <= 0.60',
      vsOpenapi <= 0.6 ? 'met' : 'NOT met',
    ],
    [
      '  same, client with timeoutMs (its own undici Agent), vs global fetch',
      us('client-timed'),
      us('fetch'),
      median(ratios.timed).toFixed(3),
      '(for reference)',
      '',
    ],
    [
      '  wall time per request (µs, median): client, global fetch',
      median(wall.client).toFixed(1),
      median(wall.fetch).toFixed(1),
      (median(wall.client) / median(wall.fetch)).toFixed(3),
      '(for reference)',
      '',
    ],
    [
      `peak RSS, streamed upload of ${(UPLOAD_BYTES / 1024 ** 3).toFixed(2)} GiB (MB)`,
      peak('client').toFixed(1),
      peak('raw').toFixed(1),
      (peak('client') / peak('raw')).toFixed(3),
      'client < 100 MB',
      peak('client') < 100 ? 'met' : 'NOT met',
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
      `throughput, same upload (MiB/s, median of ${UPLOAD_ROUNDS}; ratio: median of the rounds')`,
      mbps('client').toFixed(0),
      mbps('raw').toFixed(0),
      throughput.toFixed(3),
      'ratio >= 0.80',
      throughput >= 0.8 ? 'met' : 'NOT met',
    ],
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  console.log(
    `\n@svc/client benchmark (node ${process.version}; loopback server in its own process; CPU: ${ROUNDS} rounds, each variant in a fresh process, ${REQUESTS} requests after ${WARMUP} unmeasured)`,
  );
  console.log(
    `upload: one fresh process per run, ${UPLOAD_ROUNDS} rounds of one run each, raw = fetch with a streamed body, duplex 'half', redirect 'error'; bytes made in ${64} KiB chunks, GC every ${GC_EVERY_MIB} MiB in both`,
  );
  for (const r of rows)
    console.log(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '));
} finally {
  server.send('stop');
}
