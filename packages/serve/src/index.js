// What `npm run serve` and `npm run dev` share: a free-port fallback and the mocks.
import { readFileSync } from 'node:fs';
import { startPrism } from '@svc/mock';
import { basePathOf } from '@svc/oas';
import { apis } from '@svc/oas/apis';

/**
 * Starts a server on the wanted port, or on a free one (with a warning) when that fails.
 * @template T
 * @param {(port: number) => Promise<T>} start
 * @param {number} port 0 for any free port
 * @returns {Promise<T>}
 */
export async function onPortOrFree(start, port) {
  try {
    return await start(port);
  } catch (error) {
    if (port === 0) throw error;
    console.warn(`port ${port} is not free (${(error.code ?? error.message).split('\n')[0]}); using a free port`);
    return start(0);
  }
}

/**
 * What `npm start` and `npm run dev` say of an API's mock: Prism serves the paths without the first
 * server's base path (`/images/list`, and 404 to `/api/svc/v3/images/list`), and takes any basic
 * credentials.
 * @param {string} name an API of redocly.yaml
 * @returns {string} e.g. `Prism: paths without /api/svc/v3; any user and password`
 * @throws {Error} when the API's bundle cannot be read (not built)
 */
export function mockNote(name) {
  const api = apis().find((a) => a.name === name);
  const basePath = api ? basePathOf(JSON.parse(readFileSync(api.bundleJson, 'utf8'))) : '';
  return `Prism: ${basePath ? `paths without ${basePath}` : 'paths as written'}; any user and password`;
}

/**
 * Starts a Prism mock of every bundled API in one Prism process (Prism loaded once), side by side,
 * on consecutive ports from `firstPort` (free ports for 0, or where one is taken).
 * @param {number} firstPort
 * @param {Map<string, import('@svc/mock').RunningMock>} [mocks] filled as each mock starts (so that
 *   `stopOnExit` sees them before all have started)
 * @returns {Promise<Map<string, import('@svc/mock').RunningMock>>} `mocks`, by API name, in redocly.yaml order
 * @throws {Error} the first start that failed, once the others have ended (those started stay in `mocks`)
 */
export async function startMocks(firstPort, mocks = new Map()) {
  const list = apis();
  const prism = startPrism();
  const started = await Promise.allSettled(
    list.map(async (api, n) => {
      const port = firstPort === 0 ? 0 : firstPort + n;
      const mock = await onPortOrFree((p) => prism.mock({ document: api.bundle, port: p || undefined }), port);
      mocks.set(api.name, mock);
      return mock;
    }),
  );
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  // in redocly.yaml order, as they were listed before they started side by side
  const byName = new Map(mocks);
  mocks.clear();
  for (const api of list) mocks.set(api.name, /** @type {any} */ (byName.get(api.name)));
  return mocks;
}

/**
 * Stops what `running()` lists (mocks, explorer, watcher: anything with `close()`) however this
 * process ends, so that child processes (Prism) never outlive it: Ctrl-C, SIGTERM and SIGHUP (a
 * closed terminal) close them, print one line naming what stopped (`stopped: local svc, mock
 * central, ..., explorer`, and any that failed to close with its reason) and exit; on any other
 * exit, an uncaught error included, the synchronous part of each `close()` still runs. The Prism
 * process ends with this one, however it ends, SIGKILL included (see @svc/mock).
 * @param {() => Map<string, { close: () => unknown }>} running  what runs now, by the name the line
 *   gives it; called when stopping, so it may change meanwhile
 * @param {(line: string) => void} [say]  where the line goes; default console.log
 */
export function stopOnExit(running, say = console.log) {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, async () => {
      if (stopping) return;
      stopping = true;
      const now = [...running()];
      const ends = await Promise.allSettled(now.map(([, r]) => Promise.resolve().then(() => r.close())));
      const stopped = now.filter((_, i) => ends[i]?.status === 'fulfilled').map(([name]) => name);
      const failed = now.flatMap(([name], i) => {
        const end = ends[i];
        return end?.status === 'rejected' ? [`${name} did not close (${end.reason?.message ?? end.reason})`] : [];
      });
      if (now.length) say(`stopped: ${[stopped.join(', ') || 'nothing', ...failed].join('; ')}`);
      process.exit(failed.length ? 1 : 0);
    });
  }
  process.on('exit', () => {
    for (const [, r] of running()) {
      try {
        r.close();
      } catch {
        // exiting anyway: the next one must still be closed
      }
    }
  });
}

/** The environment variables every code sample of the explorer reads the credentials from. */
export const CREDENTIAL_ENV = { user: 'SVC_USER', password: 'SVC_PASSWORD' };

/**
 * The line `npm start` prints for the local svc's credentials, to paste into a shell before the
 * explorer's samples: `export SVC_USER=admin SVC_PASSWORD=<password>` (a value quoted when the
 * shell needs it). A password chosen in the environment is never echoed: from $SVC_PASSWORD the
 * line leaves it out (it is set already); from another variable it names that variable
 * (`SVC_PASSWORD="$SVC_SIM_PASSWORD"`).
 * @param {string} user
 * @param {string | null} password the generated password; null when the user chose it
 * @param {string} [from] the variable a chosen password came from; default SVC_PASSWORD
 * @returns {string}
 */
export function credentialsLine(user, password, from = CREDENTIAL_ENV.password) {
  // Quoted only when the shell needs it, so that the line reads as the explorer's 401 text says.
  const quote = (text) =>
    /^[A-Za-z0-9_.-]+$/.test(String(text)) ? String(text) : `'${String(text).replace(/'/g, `'\\''`)}'`;
  if (password !== null)
    return `export ${CREDENTIAL_ENV.user}=${quote(user)} ${CREDENTIAL_ENV.password}=${quote(password)}`;
  return from === CREDENTIAL_ENV.password
    ? `export ${CREDENTIAL_ENV.user}=${quote(user)}   # ${CREDENTIAL_ENV.password} is set already`
    : `export ${CREDENTIAL_ENV.user}=${quote(user)} ${CREDENTIAL_ENV.password}="$${from}"`;
}
