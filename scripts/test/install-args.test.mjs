// What `npm start` installs: nothing on a current tree, only the start's packages on a fresh clone or
// a start-only tree, everything on a full tree (so `npm start` never prunes a developer's install).
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { installArgs } from '../lib/install-args.mjs';

const dirs = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const FULL = ['install', '--no-audit', '--no-fund'];
const START_ONLY = [...FULL, '--omit=dev'];

/**
 * A repository folder: manifests written at `manifestsAt`, and node_modules as given.
 * @param {{ nodeModules?: boolean, hidden?: { dev: boolean } , installedAt?: number, manifestsAt?: number }} shape
 *   `hidden`: npm's hidden lockfile, with or without a dev package; times in seconds since 1970
 */
function repository({ nodeModules = true, hidden, installedAt = 2000, manifestsAt = 1000 }) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-install-args-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'packages', 'simulator'), { recursive: true });
  for (const file of ['package.json', 'package-lock.json', 'packages/simulator/package.json']) {
    writeFileSync(join(dir, file), '{}\n');
    utimesSync(join(dir, file), manifestsAt, manifestsAt);
  }
  if (nodeModules) mkdirSync(join(dir, 'node_modules'));
  if (hidden) {
    const packages = { 'node_modules/yaml': {}, ...(hidden.dev ? { 'node_modules/vitest': { dev: true } } : {}) };
    const file = join(dir, 'node_modules', '.package-lock.json');
    writeFileSync(file, JSON.stringify({ packages }));
    utimesSync(file, installedAt, installedAt);
  }
  return dir;
}

describe('installArgs', () => {
  it.for([
    ['a fresh clone (no node_modules): the start-only install', { nodeModules: false }, START_ONLY],
    ['a current full tree: nothing', { hidden: { dev: true } }, null],
    ['a current start-only tree: nothing', { hidden: { dev: false } }, null],
    ['a full tree, package.json changed since: the full install', { hidden: { dev: true }, manifestsAt: 3000 }, FULL],
    [
      'a start-only tree, changed since: the start-only install',
      { hidden: { dev: false }, manifestsAt: 3000 },
      START_ONLY,
    ],
    ['node_modules that npm did not record: the full install (never pruned)', {}, FULL],
  ])('%s', ([, shape, want]) => {
    expect(installArgs(repository(/** @type {any} */ (shape)))).toEqual(want);
  });
});
