// Starts one Prism mock per bundled API on a free 127.0.0.1 port, shared by every test file.

import { startMock } from '@svc/mock';
import { apis } from '@svc/oas/apis';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the Prism mock per API name, e.g. `{ central: 'http://127.0.0.1:43121' }`. */
    mocks: Record<string, string>;
  }
}

export default async function setup(project: TestProject) {
  const running = await Promise.all(
    apis().map(async (api) => [api.name, await startMock({ document: api.bundle })] as const),
  );
  project.provide('mocks', Object.fromEntries(running.map(([name, mock]) => [name, mock.url])));
  return async () => {
    await Promise.all(running.map(([, mock]) => mock.close()));
  };
}
