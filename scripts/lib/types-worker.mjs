// The thread of `npm run dev` that regenerates the client's types after a save: openapi-typescript
// and TypeScript stay loaded between saves (a child process loaded them again each time), and the
// generation runs beside the explorer's rebuild, on the other core.
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

/**
 * Starts the thread; it loads the generator at once, before the first save.
 * @param {string} generateScript absolute path of packages/client/scripts/generate.mjs
 * @returns {{ generate: (names: string[]) => Promise<void>, close: () => Promise<void> }}
 *   `generate` writes these APIs' types (operations.ts always); it rejects with the generator's
 *   message when it fails. `close` ends the thread.
 */
export function startTypesWorker(generateScript) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { generateScript } });
  worker.unref(); // never what keeps `npm run dev` alive
  let next = 0;
  const pending = new Map();
  const failAll = (error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };
  worker.on('message', ({ id, message }) => {
    const call = pending.get(id);
    pending.delete(id);
    if (message === undefined) call?.resolve();
    else call?.reject(new Error(message));
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`the types thread ended (exit code ${code})`)));
  return {
    generate: (names) =>
      new Promise((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, names });
      }),
    close: async () => {
      await worker.terminate();
    },
  };
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  const { generate, loadGenerator } = await import(pathToFileURL(workerData.generateScript).href);
  // loaded now, while the first build bundles: the first save finds them ready
  loadGenerator().catch(() => {}); // a failure shows on the first generation
  port.on('message', async ({ id, names }) => {
    const problems = [];
    try {
      const stale = await generate({ only: names, log: () => {}, error: (line) => problems.push(line) });
      port.postMessage({ id, message: stale ? problems.join('\n') : undefined });
    } catch (e) {
      port.postMessage({ id, message: [...problems, e?.message ?? String(e)].join('\n') });
    }
  });
}
