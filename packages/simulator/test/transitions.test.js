// The transition tables are the ones docs/service.md shows, and the domain moves by them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '@svc/oas/apis';
import { describe, expect, it } from 'vitest';
import { IMAGE, OBJECT_STORE, rowOf, TABLES, withTables } from '../src/domain/transitions.js';

describe('the transition tables', () => {
  it('are what docs/service.md shows (npm run docs -w @svc/simulator writes them)', () => {
    const text = readFileSync(join(root, 'docs', 'service.md'), 'utf8');
    expect(withTables(text)).toBe(text);
  });

  it('name only states they define, and each task a row starts ends by rows of its own', () => {
    for (const table of TABLES) {
      const states = Object.keys(table.states);
      for (const row of table.rows) {
        for (const s of row.from) expect(states, `${table.kind}: ${row.event} from ${s}`).toContain(s);
        if (row.task)
          expect(
            table.rows.some((r) => r.event.startsWith(`${row.task} `)),
            `${table.kind}: no row ends ${row.task}`,
          ).toBe(true);
      }
    }
  });

  it('refuse what runs beside another operation: an update while the create fetches, a delete while an update runs', () => {
    expect(rowOf(IMAGE, { state: 'CREATING', sourceUri: 'http://x/' }, 'update')).toBeUndefined();
    expect(rowOf(IMAGE, { state: 'UPDATING' }, 'delete')).toBeUndefined();
    expect(rowOf(IMAGE, { state: 'COMPLETE', writer: 'upload' }, 'delete')).toBeUndefined();
    expect(rowOf(IMAGE, { state: 'CREATING', sourceUri: 'http://x/' }, 'upload')).toBeUndefined();
    expect(rowOf(IMAGE, { state: 'CREATING' }, 'upload')?.to).toBe('the same state, holding the writer slot');
    expect(rowOf(IMAGE, { state: 'COMPLETE', sizeBytes: 5 }, 'upload')).toBeUndefined();
    // found by the model test: an ERROR image (its source failed) being updated took an upload
    expect(rowOf(IMAGE, { state: 'UPDATING', before: 'ERROR', sourceUri: 'http://x/' }, 'upload')).toBeUndefined();
    expect(rowOf(OBJECT_STORE, { state: 'PENDING' }, 'delete')).toBeUndefined();
    expect(rowOf(OBJECT_STORE, { state: 'DEPLOYMENT_ERROR' }, 'delete')?.to).toBe('DELETING_INPUT');
  });
});
