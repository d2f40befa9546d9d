// One build of the page and one Chromium for every test file of the explorer (vitest globalSetup):
// each file used to build its own copy and start its own browser. Test files read them with
// `inject('explorerDist')` (a folder nobody writes to) and `inject('browserEndpoint')` (connect
// with playwright-core's `chromium.connect`; empty when Chromium is missing, and the browser
// tests then say how to install it), and `inject('goCache')`: the Go samples' build cache, this
// run's only, so nothing is kept from one run to the next.
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
  await build({ outDir: dir });
  project.provide('explorerDist', dir);
  const goCache = mkdtempSync(join(tmpdir(), 'explorer-go-cache-'));
  project.provide('goCache', goCache);
  const server = existsSync(CHROMIUM.path)
    ? await chromium.launchServer({ executablePath: CHROMIUM.path, args: CHROMIUM.args })
    : undefined;
  project.provide('browserEndpoint', server ? server.wsEndpoint() : '');
  return async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(goCache, { recursive: true, force: true });
  };
}
