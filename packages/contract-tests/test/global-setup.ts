// Starts one Prism mock per bundled API (one Prism process) on a free 127.0.0.1 port, shared by
// every test file.

import { startPrism } from '@svc/mock';
import { apis } from '@svc/oas/apis';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the Prism mock per API name, e.g. `{ central: 'http://127.0.0.1:43121' }`. */
    mocks: Record<string, string>;
  }
}

/** Prism's start of every bundle: 90 s at load 40 (vitest sets no limit on a global setup). */
const START_LIMIT_MS = 300_000;

export default async function setup(project: TestProject) {
  const prism = startPrism();
  let limit: NodeJS.Timeout | undefined;
  try {
    const running = await Promise.race([
      Promise.all(apis().map(async (api) => [api.name, await prism.mock({ document: api.bundle })] as const)),
      new Promise<never>((_, reject) => {
        limit = setTimeout(
          () => reject(new Error(`Prism did not listen on every bundle within ${START_LIMIT_MS / 1000} s`)),
          START_LIMIT_MS,
        );
      }),
    ]);
    clearTimeout(limit);
    project.provide('mocks', Object.fromEntries(running.map(([name, mock]) => [name, mock.url])));
  } catch (error) {
    clearTimeout(limit);
    await prism.close();
    throw error;
  }
  return () => prism.close();
}
