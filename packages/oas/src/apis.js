// The APIs of this repository, read from redocly.yaml so that a new API is added in one place.
import { readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** Absolute path of the repository root (this package lives in `packages/oas`). */
export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/**
 * One API of the repository, as `redocly.yaml` declares it; all paths absolute.
 * @typedef {object} ApiEntry
 * @property {string} name       the key in `redocly.yaml` (`central`, `element`, `objects`)
 * @property {string} root       the source root document, `spec/<api>/openapi.yaml`
 * @property {string} bundle     the bundled YAML, `dist/<api>.yaml`
 * @property {string} bundleJson the bundled JSON, `dist/<api>.json`
 */

/**
 * The APIs declared in `<dir>/redocly.yaml` (this repository's by default).
 * @param {string} [dir] a checkout of this repository, e.g. the merge base unpacked by `npm run breaking`
 * @returns {ApiEntry[]}
 * @throws {Error} when `<dir>/redocly.yaml` is missing or is not YAML
 */
export function apis(dir = root) {
  const config = parse(readFileSync(join(dir, 'redocly.yaml'), 'utf8'));
  return Object.entries(config.apis ?? {}).map(([name, /** @type {{ root: string }} */ api]) => ({
    name,
    root: join(dir, api.root),
    bundle: join(dir, 'dist', `${name}.yaml`),
    bundleJson: join(dir, 'dist', `${name}.json`),
  }));
}

/**
 * A path as output shows it: relative to the checkout `dir` when inside it (`dist/central.json`),
 * else by its file name only, so that no local path is printed.
 * @param {string} path an absolute path
 * @param {string} [dir] the checkout; this repository by default
 * @returns {string} with `/` separators
 */
export function shownPath(path, dir = root) {
  const inside = relative(dir, path);
  if (inside === '') return '.';
  const outside = inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside);
  return outside ? basename(path) : inside.split(sep).join('/');
}
