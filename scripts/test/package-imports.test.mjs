// Small packages with one job each, imported by name: no file of a package reaches out of its own
// folder by a relative path (into scripts/ or another package); what two of them share has a
// package of its own (`@svc/serve` for what npm start, serve, dev and the explorer's tests share).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { root } from '@svc/oas/apis';
import { expect, it } from 'vitest';

const SKIP = new Set(['node_modules', 'dist', 'generated', 'bundles', 'conformance']);
const CODE = /\.(c|m)?(j|t)s$/;
// `from '../x'`, `import('../x')`, `require('../x')`, `import '../x'`, JSDoc `import('../x')` included
const RELATIVE = /(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+)(['"])(\.\.?\/[^'"]+)\1/g;

/** Every code file under `dir`, skipping installed, built and generated folders. */
function* codeFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* codeFiles(path);
    else if (CODE.test(entry.name)) yield path;
  }
}

/**
 * The relative imports of the packages' files that leave their package's folder.
 * @param {string} packagesDir
 * @returns {string[]} `<file>: <specifier>`, relative to `packagesDir`
 */
function escapingImports(packagesDir) {
  const found = [];
  for (const name of readdirSync(packagesDir)) {
    const pkg = join(packagesDir, name);
    for (const file of codeFiles(pkg)) {
      for (const [, , specifier] of readFileSync(file, 'utf8').matchAll(RELATIVE)) {
        const target = relative(pkg, resolve(dirname(file), specifier));
        if (target.startsWith('..')) found.push(`${relative(packagesDir, file)}: ${specifier}`);
      }
    }
  }
  return found;
}

it("no package's file imports a file outside its package by a relative path", () => {
  expect(escapingImports(join(root, 'packages'))).toEqual([]);
});
