// The threads of `npm run dev`: each keeps one slow tool loaded between saves (openapi-typescript,
// Redocly's lint with Spectral) and runs it off the main thread, where the explorer server answers
// the reloaded page. A call is a message with an id; the answer carries the id back.
import { parentPort, Worker } from 'node:worker_threads';

/**
 * @typedef {object} Thread
 * @property {(request: unknown) => Promise<any>} call  sends `request` (structured-cloned) to the
 *   thread; resolves to its handler's value, rejects with an Error of the handler's message, or of
 *   the thread's end when it ends first (every pending and later call then rejects)
 * @property {() => Promise<void>} close  ends the thread; what is pending rejects (`was stopped`)
 */

/**
 * Starts `module` in a thread; the module answers with `answerCalls`. The thread never keeps the
 * process alive.
 * @param {URL} module
 * @param {unknown} [data] the thread's `workerData`
 * @returns {Thread}
 */
export function startThread(module, data) {
  const worker = new Worker(module, { workerData: data });
  worker.unref();
  let next = 0;
  /** @type {Map<number, { resolve: (value: any) => void, reject: (error: Error) => void }>} */
  const pending = new Map();
  /** @type {Error | undefined} */
  let ended;
  const end = (error) => {
    ended ??= error;
    for (const { reject } of pending.values()) reject(/** @type {Error} */ (ended));
    pending.clear();
  };
  worker.on('message', ({ id, value, error }) => {
    const call = pending.get(id);
    pending.delete(id);
    if (error === undefined) call?.resolve(value);
    else call?.reject(new Error(error));
  });
  const name = module.pathname.split('/').pop();
  worker.on('error', (error) => end(new Error(`${name}: ${error.message}`)));
  worker.on('exit', (code) => end(new Error(`the thread ${name} ended (exit code ${code})`)));
  return {
    call: (request) =>
      new Promise((resolve, reject) => {
        if (ended) return reject(ended);
        const id = next++;
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, request });
      }),
    close: async () => {
      end(new Error(`the thread ${name} was stopped`));
      await worker.terminate();
    },
  };
}

/**
 * In a thread started by `startThread`: answers each call with `handler(request)`, calls side by
 * side; a throw rejects that call with the error's message.
 * @param {(request: any) => unknown} handler
 */
export function answerCalls(handler) {
  const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
  port.on('message', async ({ id, request }) => {
    try {
      port.postMessage({ id, value: await handler(request) });
    } catch (e) {
      port.postMessage({ id, error: e?.message ?? String(e) });
    }
  });
}
