// `npm run bench` for @svc/simulator, measured side by side in one run:
// (1) requests/s and p99 latency of POST /images/list (100 images) at 32 concurrent connections,
//     the simulator against Prism (@svc/mock) on the same call;
// (2) 1 GiB streamed uploads into the simulator (PUT /images/{uuid}/file) against raw writes of
//     the same bytes to the same disk, in rounds with the order turning, and the simulator's peak
//     RSS; beside them, the same PUT to a bare Node server writing a file and to one dropping it.
// Both servers are plain HTTP on 127.0.0.1 (Prism has no TLS), each in its own process.
// (3) then the scale curve and the bare-server ratios of scale.mjs (over HTTPS), and the memory
//     under a burst of maximal batches and after 64 maximal list pages of burst.mjs; the control
//     API's snapshot, restore and reset of control.mjs.
// BENCH_PARTS (a comma-separated list; default all) runs some of them: prism (1), upload (2),
// curve and bare (scale.mjs's (1) and (2)), burst, pages, control, e.g. BENCH_PARTS=bare,burst.
import { fork, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { commandLine, fromEnv, integer } from '@svc/args';

const USAGE =
  'Usage: [BENCH_UPLOAD_BYTES=1073741824] [BENCH_SECONDS=4] [BENCH_ROUNDS=9] [BENCH_SCALE=100,1000,10000,100000] [BENCH_PARTS=prism,upload,curve,bare,burst,pages,control] npm run bench -w @svc/simulator   (no options)';
commandLine('simulator bench', USAGE, { options: {} }); // no options: the settings are environment variables
const setting = (name, fallback) => fromEnv('simulator bench', USAGE, name, fallback, integer(1));
const UPLOAD_BYTES = setting('BENCH_UPLOAD_BYTES', 1024 ** 3);
const SECONDS = setting('BENCH_SECONDS', 4);
const ROUNDS = setting('BENCH_ROUNDS', 9);
// each of the four writes (simulator, raw, bare server, transfer alone) in each place of the order twice
const UPLOAD_ROUNDS = 8;
const UPLOAD_CHILD = fileURLToPath(new URL('./upload-child.mjs', import.meta.url));
// loaded once the settings are checked: a bad one is answered at once
const [
  { startMock },
  { apis },
  { default: autocannon },
  { benchParts, median, scaleBench, scaleSizes },
  { batchBurst, listPages },
  { controlBench },
] = await Promise.all([
  import('@svc/mock'),
  import('@svc/oas/apis'),
  import('autocannon'),
  import('./scale.mjs'),
  import('./burst.mjs'),
  import('./control.mjs'),
]);
scaleSizes(); // checked before the long runs
const parts = benchParts();
if (parts.has('prism') || parts.has('upload')) await serverBench();
await scaleBench();
if (parts.has('burst')) await batchBurst();
if (parts.has('pages')) await listPages();
if (parts.has('control')) await controlBench();

/** Parts (1) and (2), as BENCH_PARTS asks: the simulator and its references over plain HTTP. */
async function serverBench() {
  // built by turbo before `bench`: after every check, so that a bad setting is answered without it
  const { createCentralClient } = await import('@svc/client');
  const CONNECTIONS = 32;
  // as `npm run simulator` runs it (root package.json): a small young generation keeps RSS low under load
  const SIM_NODE_FLAGS = ['--max-semi-space-size=4'];
  const PASSWORD = 'bench';
  const auth = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-sim-bench-'));
  const listBody = JSON.stringify({ kind: 'image', offset: 0, length: 100 });

  const child = fork(fileURLToPath(new URL('./sim-child.mjs', import.meta.url)), [dataDir, PASSWORD], {
    execArgv: SIM_NODE_FLAGS,
  });
  const ask = (message) =>
    new Promise((resolve) => {
      child.once('message', resolve);
      if (message) child.send(message);
    });
  const { url } = await ask();
  // the delete between uploads, through the client's task wait (not timed)
  const central = createCentralClient({
    baseUrl: `${url}/api/svc/v3`,
    username: 'admin',
    password: PASSWORD,
    retry: false,
  });
  /** Stops a forked server of the bench (it answers 'stop' by exiting); one that has exited is left. */
  const stop = (server) => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.send('stop');
    return exited;
  };
  let mock;
  /** the bare upload servers (upload-child.mjs) */
  const references = [];
  try {
    /** POST `body` (JSON text) to the central API; resolves to the JSON answer, throws on another status. */
    const post = async (path, body, want) => {
      const headers = { authorization: auth, 'content-type': 'application/json' };
      const res = await fetch(`${url}/api/svc/v3${path}`, { method: 'POST', headers, body });
      if (res.status !== want) throw new Error(`POST ${path}: HTTP ${res.status}`);
      return res.json();
    };
    const image = (name) =>
      JSON.stringify({
        api_version: '3.1.0',
        metadata: { kind: 'image' },
        spec: { name, resources: { image_type: 'DISK_IMAGE' } },
      });
    // 100 images, each with a task that has run
    for (let i = 0; i < 100; i++) await post('/images', image(`bench-${i}`), 202);
    const check = await post('/images/list', listBody, 200);
    if (check.entities.length !== 100) throw new Error(`the list has ${check.entities.length} images, not 100`);

    const rows = [['measure', 'simulator', 'reference', 'ratio', 'target', 'met']];
    if (parts.has('prism')) rows.push(...(await prismBench()));
    if (parts.has('upload')) rows.push(...(await uploadBench()));
    const { maxRssMB } = await ask('rss');
    rows.push([
      'simulator peak RSS over the whole run (MB)',
      maxRssMB.toFixed(1),
      '',
      '',
      '< 150 MB',
      maxRssMB < 150 ? 'yes' : 'NO',
    ]);
    const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
    console.log(
      `\n@svc/simulator benchmark (node ${process.version}; each server in its own process, plain HTTP on 127.0.0.1)`,
    );
    for (const r of rows)
      console.log(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '));

    /** Part (1): the rows of the list against Prism. */
    async function prismBench() {
      mock = await startMock({ document: apis().find((a) => a.name === 'central').bundle });
      const load = (target) =>
        autocannon({
          url: target,
          method: 'POST',
          connections: CONNECTIONS,
          duration: SECONDS,
          headers: { authorization: auth, 'content-type': 'application/json' },
          body: listBody,
        });
      // Alternating rounds, order rotating: adjacent rounds share the machine's load (other
      // processes), so the median of their ratios is steadier than a ratio of two long runs.
      const rounds = { sim: [], prism: [] };
      const ratios = [];
      const targets = { sim: `${url}/api/svc/v3/images/list`, prism: `${mock.url}/images/list` };
      for (let r = 0; r < ROUNDS; r++) {
        const pair = {};
        for (const name of r % 2 ? ['prism', 'sim'] : ['sim', 'prism']) {
          const result = await load(targets[name]);
          if (result.non2xx > 0 || result.errors > 0)
            throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
          rounds[name].push(result);
          pair[name] = result.requests.average;
        }
        ratios.push(pair.sim / pair.prism);
      }
      const afterLoad = await ask('rss');
      const sim = {
        rps: median(rounds.sim.map((r) => r.requests.average)),
        p99: median(rounds.sim.map((r) => r.latency.p99)),
      };
      const prism = {
        rps: median(rounds.prism.map((r) => r.requests.average)),
        p99: median(rounds.prism.map((r) => r.latency.p99)),
      };
      const rps = median(ratios);
      return [
        [
          `POST /images/list (100 images), ${CONNECTIONS} connections, requests/s (median of ${ROUNDS} rounds of ${SECONDS} s; reference: Prism)`,
          sim.rps.toFixed(0),
          prism.rps.toFixed(0),
          rps.toFixed(2),
          'ratio >= 3',
          rps >= 3 ? 'yes' : 'NO',
        ],
        [
          '  same, p99 latency (ms, median)',
          String(sim.p99),
          String(prism.p99),
          (sim.p99 / prism.p99).toFixed(2),
          '(for reference)',
          '',
        ],
        [
          '  of which: peak RSS after seeding 100 images and the list load (MB)',
          afterLoad.maxRssMB.toFixed(1),
          '',
          '',
          '(for reference)',
          '',
        ],
      ];
    }

    /** Part (2): the rows of the uploads against their references. */
    async function uploadBench() {
      // (2) 1 GiB: the same random 1 MiB block repeated, streamed over HTTP vs written to a file
      const block = randomBytes(1024 * 1024);
      const bytes = () =>
        Readable.from(
          (function* () {
            for (let sent = 0; sent < UPLOAD_BYTES; sent += block.length)
              yield block.subarray(0, Math.min(block.length, UPLOAD_BYTES - sent));
          })(),
        );
      /** ms of one PUT of the bytes to `target` (node:http: the client's overhead is not measured) */
      const put = async (target, headers = {}) => {
        const t = process.hrtime.bigint();
        const status = await new Promise((resolve, reject) => {
          const req = httpRequest(
            target,
            {
              method: 'PUT',
              headers: { ...headers, 'content-type': 'application/octet-stream', 'content-length': UPLOAD_BYTES },
            },
            (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode));
            },
          );
          req.on('error', reject);
          pipeline(bytes(), req).catch(reject);
        });
        if (status !== 200) throw new Error(`PUT ${target}: HTTP ${status}`);
        return Number(process.hrtime.bigint() - t) / 1e6;
      };
      /** ms of one upload of the bytes into a new image */
      const upload = async (round) => {
        const created = await post('/images', image(`bench-upload-${round}`), 202);
        const ms = await put(`${url}/api/svc/v3/images/${created.metadata.uuid}/file`, { authorization: auth });
        // the image and its file gone before the next write, as the raw write's file is
        await central.deleteImage(created.metadata.uuid, { timeoutMs: 60_000, intervalMs: 20 });
        return ms;
      };
      /** ms of one raw write of the bytes to a file beside the simulator's */
      const rawWrite = async (round) => {
        const t = process.hrtime.bigint();
        await pipeline(bytes(), createWriteStream(join(dataDir, `raw-write-${round}.bin`)));
        const ms = Number(process.hrtime.bigint() - t) / 1e6;
        rmSync(join(dataDir, `raw-write-${round}.bin`));
        return ms;
      };
      // References for what an HTTP server can reach here: a bare Node server writing the PUT to a
      // file beside the simulator's, and one dropping it (the loopback transfer alone)
      mkdirSync(join(dataDir, 'bare'));
      references.push(
        fork(UPLOAD_CHILD, [join(dataDir, 'bare')], { execArgv: SIM_NODE_FLAGS }),
        fork(UPLOAD_CHILD, [], { execArgv: SIM_NODE_FLAGS }),
      );
      const [bareUrl, dropUrl] = await Promise.all(
        references.map((c) => new Promise((resolve) => c.once('message', (m) => resolve(m.url)))),
      );
      const bare = async () => {
        const ms = await put(bareUrl);
        const gone = await fetch(bareUrl, { method: 'DELETE' });
        if (gone.status !== 200) throw new Error(`bare upload server: DELETE answered HTTP ${gone.status}`);
        return ms;
      };
      const ways = { sim: upload, raw: rawWrite, bare, drop: () => put(dropUrl) };
      const names = Object.keys(ways);
      // Rounds with the order turning, each write after a sync and with the file of the one before
      // removed. Each kind's figure is its fastest round: here a 1 GiB raw write took 0.23 to 2.7 s
      // from round to round (the page cache or the disk, as this VM has it), so a median of ratios
      // gave 0.53 in one run and 1.80 in another, set by how many raw writes were slow. In one run of
      // six no raw write was fast (1.17 s at best), and the ratio passed: the row below shows it.
      const writes = Object.fromEntries(names.map((name) => [name, []]));
      for (let r = 0; r < UPLOAD_ROUNDS; r++) {
        for (let i = 0; i < names.length; i++) {
          const name = names[(r + i) % names.length];
          spawnSync('sync');
          writes[name].push(await ways[name](r));
        }
      }
      const mibps = (ms) => UPLOAD_BYTES / 1024 ** 2 / (ms / 1000);
      const fastest = (name) => Math.min(...writes[name]);
      const rate = (name) => mibps(fastest(name)).toFixed(0);
      const disk = fastest('raw') / fastest('sim');
      const gib = (UPLOAD_BYTES / 1024 ** 3).toFixed(2);
      return [
        [
          `streamed upload of ${gib} GiB (MiB/s, fastest of ${UPLOAD_ROUNDS} rounds; reference: raw write to the same disk)`,
          rate('sim'),
          rate('raw'),
          disk.toFixed(2),
          // issue 23's goal (0.7 was the bench's own before it)
          'ratio >= 0.9',
          disk >= 0.9 ? 'yes' : 'NO',
        ],
        [
          "  same, median of each kind's rounds and of the rounds' ratios",
          mibps(median(writes.sim)).toFixed(0),
          mibps(median(writes.raw)).toFixed(0),
          median(writes.sim.map((ms, r) => writes.raw[r] / ms)).toFixed(2),
          '(for reference)',
          '',
        ],
        [
          '  same, reference: a bare Node HTTP server writing the PUT to a file',
          rate('sim'),
          rate('bare'),
          (fastest('bare') / fastest('sim')).toFixed(2),
          '(for reference)',
          '',
        ],
        [
          '  the PUT read and dropped by a bare server (the transfer alone), reference: raw write',
          rate('drop'),
          rate('raw'),
          (fastest('raw') / fastest('drop')).toFixed(2),
          '(upper bound)',
          '',
        ],
        [
          '  raw write: fastest and slowest round (ms)',
          '',
          `${fastest('raw').toFixed(0)}-${Math.max(...writes.raw).toFixed(0)}`,
          '',
          '(for reference)',
          '',
        ],
      ];
    }
  } finally {
    await Promise.all([child, ...references].map(stop));
    await mock?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
