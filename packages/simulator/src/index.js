// @svc/simulator: a local svc. One HTTP(S) listener serves every API at its production base path,
// routed and validated from the bundles, with state in SQLite and image bytes as files.

import { createServer as createHttpsServer } from 'node:https';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { root } from '@svc/oas/apis';
import { adapters } from './apis/index.js';
import { loadApis, packed } from './bundles.js';
import { createControl, prepareState } from './control/index.js';
import { createJournal } from './control/journal.js';
import { certificate, discardState, makeDirectory, storageProblem } from './datadir.js';
import { killAtWrite } from './domain/durable.js';
import { createDomain } from './domain/index.js';
import { createFaultRules, faultRulesOf } from './faults.js';
import { HEADERS_TIMEOUT_MS, IDLE_TIMEOUT_MS, JSON_BODY_TIMEOUT_MS, UPLOAD_IDLE_TIMEOUT_MS } from './limits.js';
import { lockDataDir } from './lock.js';
import { upgrade } from './migrate.js';
import { SAMPLE_PATH, sampleImage } from './samples.js';
import { serve } from './wire/connection.js';
import { isOrigin } from './wire/cors.js';

export { keptPassword } from './datadir.js';
export { killAtWrite } from './domain/durable.js';
export { StoreUnexplained } from './domain/errors.js';
export { parseFaults } from './faults.js';
export { DataDirLocked } from './lock.js';

// Not `import ... from 'node:http'`: on Node 26 an ES import of node:http reads every export, and
// its lazy `WebSocket` getter loads undici and node:http2 (some 100 ms of start-up and 16 MB of
// RSS) that the simulator never uses.
const { createServer: createHttpServer } = process.getBuiltinModule('node:http');

/**
 * The default data dir: `.simulator/` at the repository root (gitignored) in a checkout, `.simulator/`
 * in the working directory when installed from npm.
 */
export const DEFAULT_DATA_DIR = packed ? resolve('.simulator') : join(root, '.simulator');

/**
 * @typedef {object} SimulatorOptions
 * @property {string} [host]      address to listen on; default `127.0.0.1`
 * @property {number} [port]      TCP port; default 9440 (0: a free one)
 * @property {string} [dataDir]   where the state (`state.sqlite`), image bytes (`images/`) and the
 *   certificate (`tls/`) live; default `DEFAULT_DATA_DIR`
 * @property {string} [user]      basic-auth user; default `admin`
 * @property {string} password    basic-auth password (required)
 * @property {number} [taskSeconds] how long a task takes at least, in seconds; default 3 (0 for tests)
 * @property {boolean} [http]     plain HTTP instead of HTTPS
 * @property {string} [cert]      PEM certificate to serve instead of the generated one (with `key`)
 * @property {string} [key]       PEM private key of `cert`
 * @property {import('./faults.js').FaultOptions} [faults]  faults on demand; none by default
 * @property {number} [seed]      seeds the faults and, at the first start of a data dir, the topology's UUIDs
 * @property {import('./domain/topology.js').TopologySpec} [topology]  the clusters and subnets to serve (they
 *   replace the stored ones at each start); default: the data dir's, seeded with DEFAULT_TOPOLOGY at its first start
 * @property {number} [sourceLimitBytes] largest `source_uri` fetched, in bytes; default 20 GiB
 * @property {number} [sourceTimeoutMs]  time limit of one `source_uri` fetch; default 10 minutes
 * @property {number} [uploadIdleTimeoutMs]  how long an upload's body (v3 `PUT /images/{uuid}/file`, v0.8
 *   `PUT /images/{uuid}/upload`) may be silent, in ms, before the upload is abandoned as a cut connection is
 *   (nothing kept, the image takes an upload, an update or a delete again; answered 408); default 60 s
 * @property {number} [headersTimeoutMs]  how long a request's line and headers may take to arrive, in ms
 *   (408 after it); default 20 s
 * @property {number} [bodyTimeoutMs]  how long a JSON request body may take to arrive whole, in ms (408
 *   after it); default 30 s
 * @property {number} [idleTimeoutMs]  how long a connection with nothing to do (before its first request,
 *   or with an answer the client does not read) may be silent, in ms; default 120 s. Keep it past
 *   `headersTimeoutMs` and a second: a connection silent mid-headers is then answered 408 before it closes
 * @property {string[]} [cors]  origins whose browser pages may call the APIs (`http://127.0.0.1:8000`): their
 *   preflights are answered without credentials, and answers to them carry the CORS headers; default none
 * @property {string} [snapshot]  an archive of `GET /_svc/snapshot` to start from (`--snapshot`): it replaces
 *   the data dir's state before it opens; a damaged or foreign one is refused (SnapshotInvalid), nothing changed
 * @property {boolean} [fresh]  a deliberate fresh start: the data dir's state and image bytes are removed first
 *   (its password and certificate stay). Without it, a data dir whose store cannot explain its image files
 *   refuses to start (`StoreUnexplained`) rather than lose them
 * @property {(api: string, operationId: string, status: number, body: any) => any} [tamper]
 *   changes JSON answers before they are sent; only for tests of the contract check
 */

/**
 * @typedef {object} RunningSimulator
 * @property {string} url    origin, e.g. `https://127.0.0.1:9440`
 * @property {string | undefined} ca  PEM certificate of the server, for clients to trust (undefined with `http`)
 * @property {string} user
 * @property {number} port
 * @property {string} dataDir
 * @property {() => Promise<void>} close  stops listening and closes the state; running tasks resume at the next start
 * @property {() => Resources} resources  what it holds now, for leak checks
 */

/**
 * @typedef {object} Resources  what a running simulator holds (each 0 when no request is in flight,
 *   the caches bounded)
 * @property {number} streams     answers' streams being written (a download)
 * @property {number} heldBytes   bytes of the batch budget reserved (BATCH_MEMORY_LIMIT in all)
 * @property {number} parkedBytes what batches waiting on a long poll keep of their answers, in bytes
 * @property {number} cacheBytes  bytes the wire's caches hold (ANSWER_CACHE_BYTES and 2 MiB beside at most)
 * @property {number} waits       long polls waiting on a task
 */

/**
 * Starts the simulator: listens on `host:port`, serves every API of the bundles (those the package
 * carries, or the repository's `dist/` in a checkout) and keeps its state in `dataDir`.
 * Resolves once it listens; `close()` stops it (tasks left running resume at the next start on
 * the same `dataDir`). The README shows it in a vitest `globalSetup` and under `node --test`.
 * @example
 * const sim = await startSimulator({ port: 0, dataDir: mkdtempSync(join(tmpdir(), 'sim-')), password: 's3cret', taskSeconds: 0 });
 * // sim.url: 'https://127.0.0.1:40123'; trust sim.ca (PEM); basic auth sim.user / 's3cret'
 * await sim.close();
 * @param {SimulatorOptions} options
 * @returns {Promise<RunningSimulator>}
 * @throws {DataDirLocked} when another simulator uses `dataDir`
 * @throws {Error} naming the option when one is invalid, `dataDir` cannot be made a directory, a bundle is
 *   missing, or the port is taken
 */
export async function startSimulator(options) {
  const {
    host = '127.0.0.1',
    port = 9440,
    dataDir = DEFAULT_DATA_DIR,
    user = 'admin',
    password,
    taskSeconds = 3,
    http = false,
    faults: faultOptions,
    seed,
    topology,
    sourceLimitBytes = 20 * 1024 ** 3,
    sourceTimeoutMs = 10 * 60_000,
    uploadIdleTimeoutMs = UPLOAD_IDLE_TIMEOUT_MS,
    headersTimeoutMs = HEADERS_TIMEOUT_MS,
    bodyTimeoutMs = JSON_BODY_TIMEOUT_MS,
    idleTimeoutMs = IDLE_TIMEOUT_MS,
    fresh = false,
    snapshot,
    cors = [],
    tamper,
  } = options ?? {};
  if (typeof password !== 'string' || password === '')
    throw new Error('startSimulator: password is required (a non-empty string)');
  if (typeof user !== 'string' || user === '' || user.includes(':'))
    throw new Error('startSimulator: user must be a non-empty string without ":"');
  if (!(Number.isFinite(taskSeconds) && taskSeconds >= 0))
    throw new Error(`startSimulator: taskSeconds must be a number >= 0, not ${taskSeconds}`);
  if (!(Number.isInteger(port) && port >= 0 && port <= 65535))
    throw new Error(`startSimulator: port must be an integer 0-65535, not ${port}`);
  if ((options.cert === undefined) !== (options.key === undefined))
    throw new Error('startSimulator: cert and key go together');
  for (const origin of cors)
    if (!isOrigin(origin))
      throw new Error(
        `startSimulator: cors: "${origin}" is not an origin: give scheme, host and port, as a browser sends them (http://127.0.0.1:8000)`,
      );
  for (const [name, ms] of Object.entries({ uploadIdleTimeoutMs, headersTimeoutMs, bodyTimeoutMs, idleTimeoutMs }))
    if (!(Number.isFinite(ms) && ms > 0))
      throw new Error(`startSimulator: ${name} must be a number of ms > 0, not ${ms}`);

  try {
    makeDirectory(dataDir);
  } catch (error) {
    // the code, not Node's message: that one carries the local path
    throw new Error(`startSimulator: dataDir cannot be made a directory (${storageProblem(error)})`);
  }
  const lock = lockDataDir(dataDir);
  /** @type {ReturnType<typeof createControl> | undefined} */
  let state;
  let apis;
  let tls;
  try {
    if (fresh) discardState(dataDir);
    // a restore a stop cut is finished or rolled back; --snapshot installed
    await prepareState(dataDir, snapshot);
    apis = await loadApis();
    tls = http ? undefined : options.cert ? { cert: options.cert, key: options.key } : await certificate(dataDir, host);
  } catch (error) {
    lock.release();
    throw error;
  }
  if (faultOptions?.killAt) killAtWrite(faultOptions.killAt);
  const faults = createFaultRules({ rules: faultRulesOf(faultOptions), seed });
  const journal = createJournal();
  /** @type {number | undefined} the bound port, once listening: the simulator's own URLs are fetched trusting its certificate */
  let bound;
  const own = (u) => ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname) && Number(u.port) === bound;
  /** Opens the state (at the start, and again after a reset or a restore). */
  const openDomain = (seconds) => {
    try {
      return createDomain({
        dataDir,
        taskMs: seconds * 1000,
        faults,
        seed,
        topology,
        sourceLimitBytes,
        sourceTimeoutMs,
        trust: (u) => (tls && own(u) ? tls.cert : undefined),
        upgrade,
      });
    } catch (error) {
      // the database's or the file system's words, without the path they may carry
      if (error?.code === 'ERR_SQLITE_ERROR' || error?.syscall)
        throw new Error(`the state in state.sqlite cannot be opened: ${storageProblem(error, dataDir)}`);
      throw error;
    }
  };
  const mounted = apis.map((api) => {
    const adapter = adapters[api.name];
    if (!adapter) throw new Error(`startSimulator: no adapter in src/apis/ for the API "${api.name}"`);
    return { ...api, adapter };
  });
  // allowHalfOpen: a TLS socket would end our side at the client's FIN, before the answer (connection.js)
  const server = tls ? createHttpsServer({ cert: tls.cert, key: tls.key, allowHalfOpen: true }) : createHttpServer();
  // the handlers, timeouts and limits of every connection (wire/connection.js, limits.js)
  const served = serve(server, {
    apis: mounted,
    domain: () => /** @type {any} */ (state).domain(),
    control: () => /** @type {any} */ (state).control,
    journal,
    user,
    password,
    faults,
    secrets: [dataDir, password],
    files: { [SAMPLE_PATH]: { type: 'application/octet-stream', bytes: sampleImage() } },
    cors,
    timeouts: {
      headersMs: headersTimeoutMs,
      bodyMs: bodyTimeoutMs,
      idleMs: idleTimeoutMs,
      uploadIdleMs: uploadIdleTimeoutMs,
    },
    tamper,
  });
  try {
    state = createControl({ dataDir, open: openDomain, taskSeconds, journal, faults, pause: served.pause });
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve(undefined);
      });
    });
  } catch (error) {
    state?.stop();
    lock.release();
    throw state ? new Error(`startSimulator: cannot listen on ${host}:${port}: ${error.message}`) : error;
  }
  bound = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
  const running = state;
  running.domain().start();
  const hostInUrl = isIP(host) === 6 ? `[${host}]` : host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  let closing;
  return {
    url: `${tls ? 'https' : 'http'}://${hostInUrl}:${bound}`,
    ca: tls?.cert,
    user,
    port: bound,
    dataDir,
    resources: () => ({
      streams: served.streams(),
      heldBytes: served.heldBytes(),
      parkedBytes: served.parkedBytes(),
      cacheBytes: served.cacheBytes(),
      waits: running.domain().tasks.waiting(),
    }),
    close() {
      closing ??= (async () => {
        // long polls answer now, jobs stop: their tasks run again at the next start
        running.domain().stopTasks();
        await new Promise((resolve) => {
          server.close(() => resolve(undefined));
          server.closeAllConnections();
        });
        running.stop();
        lock.release();
      })();
      return closing;
    },
  };
}
