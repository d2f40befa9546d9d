import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { pathToFileURL } from 'node:url';

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
 * @property {() => Promise<void>} close  stops the Prism process
 * @property {string} log  what Prism printed so far (stdout and stderr), for a failure message
 */

/**
 * Starts `prism mock` on a bundled OpenAPI document, listening on 127.0.0.1 only.
 *
 * Prism 5 ignores the servers' base path: it serves the document's paths as they are
 * (`/images/list`, not `/api/svc/v3/images/list`), so a client's `baseUrl` is `url` itself.
 *
 * @param {object} options
 * @param {string} options.document  path to the bundle (`dist/central.yaml`)
 * @param {number} [options.port]    port to listen on; a free one when omitted
 * @param {boolean} [options.dynamic] generate bodies from schemas instead of examples (default false)
 * @param {number} [options.timeoutMs] how long to wait for Prism to listen; 0 (the default): until it
 *   listens or exits, however long a busy machine takes
 * @returns {Promise<RunningMock>}
 * @throws {Error} when the document does not exist, Prism exits early or does not listen in time
 */
export async function startMock({ document, port, dynamic = false, timeoutMs = 0 }) {
  if (!existsSync(document)) {
    throw new Error(`startMock: document "${document}" does not exist; run \`npm run bundle\` first`);
  }
  return onFreePort(port, (listenPort) => {
    const args = ['mock', document, '-h', '127.0.0.1', '-p', String(listenPort)];
    if (dynamic) args.push('--dynamic');
    return startPrism({ args, port: listenPort, label: 'startMock', timeoutMs });
  });
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

/**
 * Starts `prism proxy --errors` on a bundled OpenAPI document, on 127.0.0.1, in front of a real
 * server: requests and responses are forwarded and validated, and a response that breaks the
 * spec comes back as a 500 with Prism's `sl-violations` (contract mode, `npm run contract`).
 *
 * @param {object} options
 * @param {string} options.document   path to the bundle (`dist/central.json`)
 * @param {string} options.upstream   the target's origin plus the API's base path, e.g. `https://pc:9440/api/svc/v3`
 * @param {boolean} [options.insecure] accept the upstream's self-signed certificate
 *   (NODE_TLS_REJECT_UNAUTHORIZED=0 in the Prism process only, never in this one)
 * @param {number} [options.port]     port to listen on; a free one when omitted
 * @param {number} [options.timeoutMs] how long to wait for Prism to listen; 0 (the default): until it
 *   listens or exits
 * @returns {Promise<RunningMock>}
 * @throws {Error} when the document does not exist, Prism exits early or does not listen in time
 */
export async function startProxy({ document, upstream, insecure = false, port, timeoutMs = 0 }) {
  if (!existsSync(document)) {
    throw new Error(`startProxy: document "${document}" does not exist; run \`npm run bundle\` first`);
  }
  const env = { ...process.env };
  if (insecure) env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
  return onFreePort(port, (listenPort) => {
    const args = ['proxy', document, upstream, '--errors', '-h', '127.0.0.1', '-p', String(listenPort)];
    return startPrism({ args, env, port: listenPort, label: 'startProxy', timeoutMs });
  });
}

/**
 * Runs the Prism CLI with `args` and resolves once it listens on `port`.
 * @param {{ args: string[], port: number, label: string, timeoutMs: number, env?: NodeJS.ProcessEnv }} options
 * @returns {Promise<RunningMock>}
 */
async function startPrism({ args, port, label, timeoutMs, env = process.env }) {
  const cli = require.resolve('@stoplight/prism-cli/dist/index.js');
  // stdin is a pipe only so that Prism ends with this process, on any exit (exit-with-parent.js)
  const preload = pathToFileURL(require.resolve('./exit-with-parent.js')).href;
  const child = spawn(process.execPath, [`--import=${preload}`, cli, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env,
  });
  let output = '';
  const collect = (chunk) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);

  /** @returns {Promise<void>} */
  const close = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
    });

  await /** @type {Promise<void>} */ (
    new Promise((resolve, reject) => {
      // Readiness is Prism's own "listening" line; a clock only when the caller asks for one.
      const timer =
        timeoutMs > 0
          ? setTimeout(() => {
              close();
              reject(new Error(`${label}: Prism did not listen on port ${port} within ${timeoutMs} ms:\n${output}`));
            }, timeoutMs)
          : undefined;
      const onData = () => {
        if (/Prism is listening/.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${label}: Prism exited with code ${code} before listening:\n${output}`));
      });
    })
  );

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close,
    get log() {
      return output;
    },
  };
}
