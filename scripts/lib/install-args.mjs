// What `npm start` installs (scripts/start.mjs): only node: modules, as it runs before any install.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What `npm install` must do for `npm start`, judged as npm does from its hidden lockfile
 * (`node_modules/.package-lock.json`, written at every install after package-lock.json).
 * @param {string} root the repository (its package.json, package-lock.json, packages/ and node_modules/)
 * @returns {null | string[]} null when node_modules is current; else npm's arguments: `--omit=dev`
 *   for a fresh clone or a start-only tree, the full install for any other tree (one with the dev
 *   packages, or one npm did not record)
 */
export function installArgs(root) {
  const base = ['install', '--no-audit', '--no-fund'];
  const hidden = join(root, 'node_modules', '.package-lock.json');
  // a fresh clone; a tree npm did not record is installed whole (--omit=dev would prune it)
  if (!existsSync(join(root, 'node_modules'))) return [...base, '--omit=dev'];
  if (!existsSync(hidden)) return base;
  const installed = statSync(hidden).mtimeMs;
  const manifests = [
    'package.json',
    'package-lock.json',
    ...readdirSync(join(root, 'packages')).map((p) => join('packages', p, 'package.json')),
  ];
  const current = manifests.every((f) => !existsSync(join(root, f)) || statSync(join(root, f)).mtimeMs <= installed);
  if (current) return null;
  const full = Object.values(JSON.parse(readFileSync(hidden, 'utf8')).packages ?? {}).some((p) => p.dev);
  return full ? base : [...base, '--omit=dev'];
}
