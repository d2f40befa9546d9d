// The SQLite store on Node's built-in driver: WAL, a rolled-back update, the state after a reopen,
// and no ExperimentalWarning at load (Node 22 prints one for node:sqlite; CI runs this on 22).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../src/domain/store.js';

const storeModule = fileURLToPath(new URL('../src/domain/store.js', import.meta.url));
let dir;
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));
const fresh = () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-store-'));
  return join(dir, 'state.sqlite');
};

describe('store', () => {
  it('keeps documents across a reopen, in WAL mode', () => {
    const file = fresh();
    const store = openStore(file);
    store.put('image', 'a', { n: 1 });
    store.put('image', 'b', { n: 2 });
    expect(store.remove('image', 'a')).toBe(true);
    expect(store.remove('image', 'a')).toBe(false);
    store.close();
    const again = openStore(file);
    expect(again.list('image')).toEqual([{ n: 2 }]);
    again.close();
    // the journal mode is stored in the file: a second connection reads it
    const mode = execFileSync(
      process.execPath,
      [
        '--no-warnings',
        '-e',
        `const { DatabaseSync } = require('node:sqlite'); const db = new DatabaseSync(${JSON.stringify(file)});
         console.log(db.prepare('PRAGMA journal_mode').get().journal_mode); db.close();`,
      ],
      { encoding: 'utf8' },
    ).trim();
    expect(mode).toBe('wal');
  });

  it('rolls an update back when its change throws, in memory and on disk', () => {
    const file = fresh();
    const store = openStore(file);
    store.put('image', 'a', { spec_version: 1 });
    expect(() =>
      store.update('image', 'a', (doc) => {
        doc.spec_version = 2;
        throw new Error('stale');
      }),
    ).toThrow('stale');
    expect(store.get('image', 'a')).toEqual({ spec_version: 1 });
    // the connection is usable again (no transaction left open)
    expect(store.update('image', 'a', (doc) => ({ ...doc, spec_version: 3 }))).toEqual({ spec_version: 3 });
    expect(store.update('image', 'missing', () => ({}))).toBeUndefined();
    store.close();
    const again = openStore(file);
    expect(again.get('image', 'a')).toEqual({ spec_version: 3 });
    again.close();
  });

  it('loads without an ExperimentalWarning, and other warnings still show', () => {
    const r = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `await import(${JSON.stringify(storeModule)}); process.emitWarning('a later warning', 'ExperimentalWarning');`,
      ],
      { encoding: 'utf8' },
    );
    expect(r.status).toBe(0);
    expect(r.stderr).not.toMatch(/SQLite/);
    expect(r.stderr).toMatch(/a later warning/);
  });
});
