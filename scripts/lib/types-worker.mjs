// The thread of `npm run dev` that regenerates the client's types after a save: openapi-typescript
// and TypeScript stay loaded between saves (a child process loaded them again each time), and the
// generation runs beside the explorer's rebuild, on the other core.
import { pathToFileURL } from 'node:url';
import { isMainThread, workerData } from 'node:worker_threads';
import { answerCalls, startThread } from './thread.mjs';

/**
 * Starts the thread; it loads the generator at once, before the first save.
 * @param {string} generateScript absolute path of packages/client/scripts/generate.mjs
 * @returns {{ generate: (names: string[]) => Promise<void>, close: () => Promise<void> }}
 *   `generate` writes these APIs' types (operations.ts always); it rejects with the generator's
 *   message when it fails. `close` ends the thread.
 */
export function startTypesWorker(generateScript) {
  const thread = startThread(new URL(import.meta.url), { generateScript });
  return { generate: (names) => thread.call(names), close: thread.close };
}

if (!isMainThread) {
  const { generate, loadGenerator } = await import(pathToFileURL(workerData.generateScript).href);
  // loaded now, while the first build bundles: the first save finds them ready
  loadGenerator().catch(() => {}); // a failure shows on the first generation
  answerCalls(async (/** @type {string[]} */ names) => {
    const problems = [];
    let stale;
    try {
      stale = await generate({ only: names, log: () => {}, error: (line) => problems.push(line) });
    } catch (e) {
      throw new Error([...problems, e?.message ?? String(e)].join('\n'));
    }
    if (stale) throw new Error(problems.join('\n'));
  });
}
