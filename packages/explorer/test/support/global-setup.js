// One build of the page for every test file of the explorer (vitest globalSetup): each file used to
// build its own copy. Test files read it with `inject('explorerDist')` (a folder nobody writes to),
// and `inject('goCache')`: the Go samples' build cache, this run's only, so nothing is kept from
// one run to the next.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apis, shownPath } from '@svc/oas/apis';
import { build } from '../../scripts/build.mjs';

/** @param {import('vitest/node').TestProject} project */
export default async function setup(project) {
  for (const api of apis()) {
    if (!existsSync(api.bundle))
      throw new Error(`${shownPath(api.bundle)} is missing: run \`npm run bundle\` at the repository root`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'explorer-dist-'));
  await build({ outDir: dir });
  project.provide('explorerDist', dir);
  const goCache = mkdtempSync(join(tmpdir(), 'explorer-go-cache-'));
  project.provide('goCache', goCache);
  return async () => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(goCache, { recursive: true, force: true });
  };
}
