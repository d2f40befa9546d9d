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

export default async function setup(project: TestProject) {
  const prism = startPrism();
  try {
    const running = await Promise.all(
      apis().map(async (api) => [api.name, await prism.mock({ document: api.bundle })] as const),
    );
    project.provide('mocks', Object.fromEntries(running.map(([name, mock]) => [name, mock.url])));
  } catch (error) {
    await prism.close();
    throw error;
  }
  return () => prism.close();
}
