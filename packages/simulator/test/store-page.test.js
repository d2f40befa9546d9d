// The store's indexed pages (store.page: SQL) against the lists' reference walk (lists.js pageOf:
// filter, sort, slice in JS) over the same documents, after random puts, updates and removes:
// every form (no sort, sort either order, filter terms, offsets near either end and beyond it,
// total_matches), with text SQL can order (printable ASCII in any case and punctuation) and text
// it cannot (other scripts, numbers mixed with strings: the JS fallback). Bounded: a fixed seed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { listQuery, pageOf } from '../src/apis/lists.js';
import { collationKey } from '../src/domain/collation.js';
import { openStore } from '../src/domain/store.js';

const RUNS = Number(process.env.STORE_RUNS ?? 60);
// `tag`: filtered on, not sorted on (no sort index)
const valuesOf = (d) => ({ name: d.name, size: d.size, label: d.label, tag: d.label && `t${d.label}` });
const ATTRIBUTES = { filter: ['name', 'size', 'label', 'tag'], sort: ['name', 'size', 'label'] };

let dir;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});
let files = 0;
const fresh = (file = 'state.sqlite') => {
  dir ??= mkdtempSync(join(tmpdir(), 'svc-store-page-'));
  return openStore(join(dir, file), {
    indexes: { thing: { values: valuesOf, sort: ATTRIBUTES.sort, count: ['label', 'tag'] } },
  });
};

const ascii = fc.constantFrom('a', 'A', 'b', 'B', 'a-b', 'a_b', 'ab', 'a b', 'Ab', '10', '9', '', 'z.1', 'Z');
const text = fc.oneof(ascii, fc.constantFrom('é', 'E', 'ä', 'Ω', 'b\u0301'));
const doc = (onlyAscii) =>
  fc.record(
    {
      name: onlyAscii ? ascii : text,
      size: fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constant(1e12), ...(onlyAscii ? [] : [ascii])),
      label: fc.constantFrom('x', 'y', 'X'),
    },
    { requiredKeys: [] },
  );
const step = (onlyAscii) =>
  fc.oneof(
    fc.record({ op: fc.constant('put'), id: fc.nat(30), doc: doc(onlyAscii) }),
    fc.record({ op: fc.constant('remove'), id: fc.nat(30) }),
  );
const body = fc.record(
  {
    filter: fc.oneof(
      fc.constant(''),
      fc.constantFrom(
        'name==a',
        'name==',
        'size==1',
        'label==x',
        'label==x;size==0',
        'name==b;label==y',
        'tag==tx',
        'tag==;size==1',
      ),
    ),
    sort_attribute: fc.constantFrom(undefined, null, 'name', 'size', 'label'),
    sort_order: fc.constantFrom(undefined, null, 'ASCENDING', 'DESCENDING'),
    offset: fc.nat(45),
    length: fc.integer({ min: 1, max: 12 }),
  },
  { requiredKeys: [] },
);

/** Applies the steps; every query then answers as the reference walk over the same documents. */
function check(onlyAscii) {
  fc.assert(
    fc.property(
      fc.array(step(onlyAscii), { maxLength: 60 }),
      fc.array(body, { minLength: 1, maxLength: 8 }),
      (steps, bodies) => {
        const store = fresh(`s${files++}.sqlite`);
        try {
          for (const s of steps) {
            if (s.op === 'put') store.put('thing', `u${s.id}`, { id: s.id, ...s.doc });
            else store.remove('thing', `u${s.id}`);
          }
          for (const b of bodies) {
            const want = pageOf(store.list('thing'), valuesOf, b, ATTRIBUTES);
            const query = listQuery(b, ATTRIBUTES);
            const got = store.page('thing', query);
            expect({ body: b, total: got.total, page: got.docs }).toEqual({
              body: b,
              total: want.total,
              page: want.page,
            });
          }
        } finally {
          store.close();
        }
      },
    ),
    { seed: 23, numRuns: RUNS },
  );
}

describe('store pages', () => {
  it('answer as the lists walk over printable ASCII text and numbers (the SQL path)', () => check(true));
  it('answer as the lists walk over other scripts and mixed types (the JS fallback)', () => check(false));

  it('orders printable ASCII keys as localeCompare does', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) }),
        fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) }),
        (a, b) => {
          const [ka, kb] = [collationKey(a), collationKey(b)];
          expect(Math.sign(a.localeCompare(b))).toBe(ka < kb ? -1 : ka > kb ? 1 : 0);
        },
      ),
      { seed: 23, numRuns: 2000 },
    );
  });

  it('pages a store of more documents than a page from either end, with counts kept through updates', () => {
    const store = fresh();
    const n = 1_000;
    store.batch(() => {
      for (let i = 0; i < n; i++)
        store.put('thing', `u${i}`, {
          name: `n-${String(n - i).padStart(4, '0')}`,
          size: i % 7,
          label: i % 2 ? 'x' : 'y',
        });
    });
    expect(store.count('thing')).toBe(n);
    const names = (docs) => docs.map((d) => d.name);
    expect(names(store.page('thing', { offset: 0, length: 3 }).docs)).toEqual(['n-1000', 'n-0999', 'n-0998']);
    expect(names(store.page('thing', { offset: n - 2, length: 5 }).docs)).toEqual(['n-0002', 'n-0001']);
    expect(store.page('thing', { offset: n, length: 5 })).toEqual({ total: n, docs: [] });
    expect(names(store.page('thing', { sort: 'name', offset: 0, length: 2 }).docs)).toEqual(['n-0001', 'n-0002']);
    expect(names(store.page('thing', { sort: 'name', descending: true, offset: n - 1, length: 2 }).docs)).toEqual([
      'n-0001',
    ]);
    expect(store.page('thing', { terms: [{ attribute: 'label', value: 'x' }], offset: 0, length: 1 }).total).toBe(
      n / 2,
    );
    // an update moves a document between filter values; a remove takes it out of every count
    store.update('thing', 'u1', (d) => {
      d.label = 'y';
    });
    store.remove('thing', 'u2');
    expect(store.page('thing', { terms: [{ attribute: 'label', value: 'x' }], offset: 0, length: 1 }).total).toBe(
      n / 2 - 1,
    );
    expect(store.page('thing', { terms: [{ attribute: 'label', value: 'y' }], offset: 0, length: 1 }).total).toBe(
      n / 2,
    );
    expect(store.count('thing')).toBe(n - 1);
    expect(store.page('thing', { offset: 0, length: 1 }).total).toBe(n - 1);
    store.close();
  });

  it('computes the attributes of documents stored without them at the next open', () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-store-page-'));
    const file = join(dir, 'old.sqlite');
    const plain = openStore(file);
    plain.put('thing', 'a', { name: 'b' });
    plain.put('thing', 'b', { name: 'a', label: 'x' });
    plain.close();
    const indexed = openStore(file, {
      indexes: { thing: { values: valuesOf, sort: ATTRIBUTES.sort, count: ['label', 'tag'] } },
    });
    try {
      const got = indexed.page('thing', { sort: 'name', offset: 0, length: 5 });
      expect(got.docs.map((d) => d.name)).toEqual(['a', 'b']);
      expect(indexed.having('thing', 'label')).toEqual([{ name: 'a', label: 'x' }]);
    } finally {
      indexed.close();
    }
  });
});
