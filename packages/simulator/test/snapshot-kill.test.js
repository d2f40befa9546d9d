// A restore survives a SIGKILL at any instant (issue 59): a child process stages and installs a
// snapshot and is killed just before its Nth durable write, for every N until it finishes; the
// start-up recovery then finds the old state or the new one, whole, never a mix, and nothing left
// in snapshots/. SQLite's method: every kill point, not random ones.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { recoverSnapshot } from '../src/control/snapshot.js';
import { archiveOf, documentsOf, entriesOf, fingerprint, makeDataDir, SCHEMA } from './support/snapshot.js';

const sha = (bytes) => createHash('sha256').update(bytes).digest('hex');
const CHILD = fileURLToPath(new URL('./support/snapshot-child.js', import.meta.url));
const A = '0e09cf83-ac68-4f28-af70-6df9a43df4f0';
const B = 'c2d4b1f5-8a3e-4c6b-9f1d-2e7a5b3c9d10';
const C = '7f3c2a1e-5b4d-4e8f-9a6c-1d2b3e4f5a60';
/** More writes than a restore of this archive makes: the walk must end before it. */
const MOST = 60;

const work = mkdtempSync(join(tmpdir(), 'svc-snap-kill-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('a restore killed at every durable write', () => {
  it('leaves the old state or the new one after recovery, never a mix', async () => {
    const source = makeDataDir({ images: { [A]: Buffer.alloc(100_000, 1), [B]: Buffer.from('disk B') }, name: 'new' });
    const original = makeDataDir({ images: { [C]: Buffer.from('old disk') }, name: 'old', wal: true });
    const archive = join(work, 'snapshot.tar');
    const bytes = await archiveOf(source);
    writeFileSync(archive, bytes);
    const oldState = { print: fingerprint(original), docs: documentsOf(original) };
    const newDocs = documentsOf(source);
    const staged = Object.fromEntries((await entriesOf(bytes)).map((e) => [e.name, e.body]));

    const outcomes = [];
    for (let n = 1; n <= MOST; n++) {
      const dataDir = join(work, `run-${n}`);
      cpSync(original, dataDir, { recursive: true });
      const child = spawnSync(process.execPath, [CHILD, dataDir, archive, String(n), String(SCHEMA)], {
        encoding: 'utf8',
        timeout: 120_000,
      });
      const finished = child.status === 0 && child.stdout.includes('installed');
      if (!finished) expect(child.signal, `run ${n}: ${child.stderr}`).toBe('SIGKILL');
      recoverSnapshot(dataDir);
      const print = fingerprint(dataDir);
      expect(print.snapshots, `run ${n}`).toEqual([]);
      if (print.state === oldState.print.state) {
        expect(print, `run ${n}: the old state, whole`).toEqual(oldState.print);
        expect(documentsOf(dataDir)).toEqual(oldState.docs);
        outcomes.push('old');
      } else {
        expect(print, `run ${n}: the new state, whole`).toEqual({
          ...oldState.print,
          state: sha(staged['state.sqlite']),
          wal: false,
          images: { [A]: sha(staged[`images/${A}`]), [B]: sha(staged[`images/${B}`]) },
        });
        expect(documentsOf(dataDir)).toEqual(newDocs);
        outcomes.push('new');
      }
      rmSync(dataDir, { recursive: true, force: true });
      if (finished) break;
    }
    // killed before the commit marker: old; at or after it: new (recovery rolls forward)
    const firstNew = outcomes.indexOf('new');
    expect(firstNew).toBeGreaterThan(0);
    expect(outcomes.slice(firstNew).every((o) => o === 'new')).toBe(true);
    expect(outcomes.length).toBeLessThan(MOST);
    rmSync(source, { recursive: true, force: true });
    rmSync(original, { recursive: true, force: true });
  });
});
