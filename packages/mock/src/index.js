import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';

const require = createRequire(import.meta.url);

/**
 * Asks the kernel for a free TCP port on 127.0.0.1.
 * @returns {Promise<number>} the port number
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/**
 * @typedef {object} RunningMock
 * @property {string} url   origin of the mock, e.g. `http://127.0.0.1:43121` (no base path)
 * @property {number} port  the TCP port it listens on
 * @property {() => Promise<void>} close   stops it (and its Prism process, when it has its own)
 * @property {() => Promise<void>} reload  reads the document again and listens anew on the same port
 *   (Prism reads it once per start); connections are refused meanwhile. Rejects when Prism cannot
 *   read the document: the mock then stays down until a reload succeeds
 * @property {string} log  what its Prism process printed so far (stdout and stderr), for a failure message
 */

/**
 * @typedef {object} PrismProcess
 * @property {(options: MockOptions) => Promise<RunningMock>} mock  `prism mock` of a document
 * @property {(options: ProxyOptions) => Promise<RunningMock>} proxy  `prism proxy --errors` of a document
 * @property {() => Promise<void>} close  stops every mock and proxy, and the process
 * @property {string} log  what the process printed so far (stdout and stderr, the last 20,000 characters)
 */

/**
 * @typedef {object} MockOptions
 * @property {string} document  path to the bundle (`dist/central.yaml`)
 * @property {number} [port]    port to listen on; a free one when omitted
 * @property {boolean} [dynamic] generate bodies from schemas instead of examples (default false)
 */

/**
 * @typedef {object} ProxyOptions
 * @property {string} document  path to the bundle (`dist/central.json`)
 * @property {string} upstream  the target's origin plus the API's base path, e.g. `https://pc:9440/api/svc/v3`
 * @property {number} [port]    port to listen on; a free one when omitted
 */

const PRISM_PROCESS = require.resolve('./prism-process.cjs');

/**
 * Starts one Prism process, on which mocks and validating proxies of several documents run side by
 * side on 127.0.0.1: Prism is loaded once for all of them (`npm start`'s three mocks: 2.4 CPU-s and
 * 212 MB, against 7.0 CPU-s and 611 MB as three processes). Each start resolves once its
 * server listens, however long a busy machine takes.
 *
 * Prism 5 ignores the servers' base path: it serves the document's paths as they are
 * (`/images/list`, not `/api/svc/v3/images/list`), so a client's `baseUrl` is a mock's `url` itself.
 * The process never outlives the one that started it: it ends when its IPC channel closes, which
 * the kernel does when this process ends, even on SIGKILL.
 *
 * @param {{ insecure?: boolean }} [options] `insecure`: the proxies accept the upstream's self-signed
 *   certificate (NODE_TLS_REJECT_UNAUTHORIZED=0 in the Prism process only, never in this one)
 * @returns {PrismProcess}
 */
export function startPrism({ insecure = false } = {}) {
  const env = { ...process.env };
  if (insecure) env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
  const child = spawn(process.execPath, [PRISM_PROCESS], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], env });
  let output = '';
  const collect = (chunk) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  /** @type {Map<number, { resolve: () => void, reject: (e: Error) => void }>} */
  const pending = new Map();
  let exited = '';
  let rid = 0;
  let sid = 0;
  child.on('message', (/** @type {any} */ m) => {
    const waiter = pending.get(m.rid);
    pending.delete(m.rid);
    if (m.error) waiter?.reject(new Error(m.error));
    else waiter?.resolve();
  });
  const ended = (/** @type {string} */ why) => {
    exited ||= why;
    for (const waiter of pending.values()) waiter.reject(new Error(`Prism ${exited}:\n${output}`));
    pending.clear();
  };
  child.once('exit', (code, signal) => ended(`exited with ${signal ?? `code ${code}`}`));
  child.once('error', (error) => ended(`could not start (${error.message})`));

  /** Resolves once the process has ended, when it is ending (its channel closed); else rejects with `error`. */
  const unlessGone = (/** @type {unknown} */ error) =>
    /** @type {Promise<void>} */ (
      new Promise((resolve, reject) => {
        if (exited) return resolve();
        if (child.connected) return reject(error);
        child.once('exit', () => resolve());
      })
    );

  /** Sends one request to the process; resolves when it is done. */
  const ask = (/** @type {object} */ message) =>
    /** @type {Promise<void>} */ (
      new Promise((resolve, reject) => {
        if (exited) return reject(new Error(`Prism ${exited}:\n${output}`));
        const id = ++rid;
        pending.set(id, { resolve, reject });
        child.send({ ...message, rid: id }, (error) => {
          if (error && pending.delete(id)) reject(error);
        });
      })
    );

  /**
   * @param {string} label
   * @param {string} document
   * @param {number | undefined} port
   * @param {object} options the CLI's options of the command
   * @returns {Promise<RunningMock>}
   */
  const serve = async (label, document, port, options) => {
    if (!existsSync(document)) {
      throw new Error(`${label}: document "${document}" does not exist; run \`npm run bundle\` first`);
    }
    return onFreePort(port, async (listenPort) => {
      const id = ++sid;
      try {
        await ask({ op: 'start', sid: id, options: { ...options, document, port: listenPort } });
      } catch (error) {
        throw new Error(`${label}: Prism did not listen on port ${listenPort}: ${error.message}`);
      }
      return {
        url: `http://127.0.0.1:${listenPort}`,
        port: listenPort,
        // a process that ends meanwhile (Ctrl-C reaches it too) closed the mock with it
        close: () => (exited ? Promise.resolve() : ask({ op: 'close', sid: id }).catch(unlessGone)),
        reload: () => ask({ op: 'reload', sid: id }),
        get log() {
          return output;
        },
      };
    });
  };

  return {
    mock: ({ document, port, dynamic = false }) => serve('prism mock', document, port, { dynamic, errors: false }),
    proxy: ({ document, upstream, port }) => serve('prism proxy', document, port, { upstream, errors: true }),
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
      }),
    get log() {
      return output;
    },
  };
}

/**
 * Starts `prism mock` on a bundled OpenAPI document in a Prism process of its own (see startPrism).
 * @param {MockOptions} options
 * @returns {Promise<RunningMock>} whose `close()` also ends the process
 * @throws {Error} when the document does not exist or Prism cannot listen (the message names the port
 *   and Prism's error, e.g. EADDRINUSE)
 */
export async function startMock(options) {
  const prism = startPrism();
  try {
    const running = await prism.mock(options);
    // its own process: closing the mock ends it
    running.close = () => prism.close();
    return running;
  } catch (error) {
    await prism.close();
    throw error;
  }
}

/**
 * Runs `start` on `port`, or on a free port when `port` is undefined. A free port can be taken by
 * another process between the kernel's answer and Prism's bind (many servers start at once in
 * tests): then it tries again with a new one, a few times.
 * @template T
 * @param {number | undefined} port
 * @param {(port: number) => Promise<T>} start
 * @param {() => Promise<number>} [pick] where free ports come from (`freePort`)
 * @returns {Promise<T>}
 * @throws what `start` throws: at once unless it is EADDRINUSE on a port picked here, else on the third try
 */
export async function onFreePort(port, start, pick = freePort) {
  if (port !== undefined) return start(port);
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await pick());
    } catch (error) {
      if (attempt === 3 || !/EADDRINUSE/.test(error.message)) throw error;
    }
  }
}
