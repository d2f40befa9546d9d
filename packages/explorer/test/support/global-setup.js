// What every test file of the explorer shares (vitest globalSetup): one build of the page and one
// Chromium. Test files read them with `inject('explorerDist')` (a folder nobody writes to) and
// `inject('browserEndpoint')` (openBrowser() connects to it), and `inject('goCache')`: the Go
// samples' build cache, this run's only, so nothing is kept from one run to the next.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apis, shownPath } from '@svc/oas/apis';
import { chromium } from 'playwright-core';
import { build } from '../../scripts/build.mjs';
import { CHROMIUM } from './chromium.js';

/** @param {import('vitest/node').TestProject} project */
export default async function setup(project) {
  for (const api of apis()) {
    if (!existsSync(api.bundle))
      throw new Error(`${shownPath(api.bundle)} is missing: run \`npm run bundle\` at the repository root`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'explorer-dist-'));
  const goCache = mkdtempSync(join(tmpdir(), 'explorer-go-cache-'));
  // One Chromium for every browser test file (each has a context of its own): started once, not
  // per file. Missing, the browser tests say how to install it (openBrowser) and the others run.
  const [server] = await Promise.all([
    existsSync(CHROMIUM.path)
      ? chromium.launchServer({
          executablePath: CHROMIUM.path,
          host: '127.0.0.1',
          // Nothing leaves this machine: every name but 127.0.0.1 fails to resolve.
          args: [...CHROMIUM.args, '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'],
        })
      : undefined,
    build({ outDir: dir }),
  ]);
  project.provide('explorerDist', dir);
  project.provide('goCache', goCache);
  project.provide('browserEndpoint', server?.wsEndpoint() ?? '');
  return async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(goCache, { recursive: true, force: true });
  };
}
