// What `npm run serve` and `npm run dev` share: a free-port fallback and the mocks.
import { startMock } from '@svc/mock';
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
 * Starts a Prism mock of every bundled API, on consecutive ports from `firstPort` (free ports
 * for 0, or where one is taken).
 * @param {number} firstPort
 * @returns {Promise<Map<string, import('@svc/mock').RunningMock>>} by API name, in redocly.yaml order
 */
export async function startMocks(firstPort) {
  const mocks = new Map();
  let n = 0;
  for (const api of apis()) {
    const port = firstPort === 0 ? 0 : firstPort + n++;
    mocks.set(api.name, await onPortOrFree((p) => startMock({ document: api.bundle, port: p || undefined }), port));
  }
  return mocks;
}
