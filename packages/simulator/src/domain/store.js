// The simulator's state: one SQLite database (Node's built-in `node:sqlite`) in the data dir, holding
// every entity and task as a JSON document keyed by kind and UUID. The only module that knows SQL.
// Nothing is mirrored in memory: `get` reads the row, and a list page is one indexed query. The
// attributes a list filters and sorts on (given per kind at open) are stored beside each document
// on every write, in the `attributes` table, so that a page costs about the same at 100 documents
// as at 100,000 (see `page`).
import { createRequire } from 'node:module';
import { COLLATION, collationKey } from './collation.js';
import { durable } from './durable.js';

/** Writes of every store of this process, counted: the numbers of `generation`. */
let writes = 0;

/** `node:sqlite`'s DatabaseSync (the data dir's lock uses it too). @type {typeof import('node:sqlite').DatabaseSync} */
export const DatabaseSync = loadSqlite();

/**
 * `node:sqlite` without its one ExperimentalWarning (Node 22 prints it at load; 24 and later do
 * not): every other warning of the process still shows.
 */
function loadSqlite() {
  const emitWarning = process.emitWarning;
  process.emitWarning = (warning, ...rest) => {
    const type = typeof rest[0] === 'string' ? rest[0] : rest[0]?.type;
    if (type === 'ExperimentalWarning' && String(warning).includes('SQLite')) return;
    emitWarning.call(process, warning, ...rest);
  };
  try {
    return createRequire(import.meta.url)('node:sqlite').DatabaseSync;
  } finally {
    process.emitWarning = emitWarning;
  }
}

// The class of an attribute's value, which orders it first: numbers and strings SQL can order as
// lists.js does (numbers as numbers, printable ASCII by its collation key), then values only JS can
// order (any other string or type), then no value at all (last in either order).
const NUMBER = 1;
const ASCII = 2;
const OTHER = 3;
const MISSING = 9;
/** Printable ASCII only: the strings whose collation key orders them as `localeCompare` does. */
const PRINTABLE = /^[\x20-\x7e]*$/;

/**
 * The row of one attribute value.
 * @param {unknown} value
 * @param {boolean} sortable  false: the row answers filters only (rank null, out of the sort indexes)
 * @returns {{ text: string, cls: number, rank: number | string | null }}
 *   `text`: what a filter compares (`String(value ?? '')`); `rank`: the sort key of its class
 */
function attributeRow(value, sortable) {
  const text = String(value ?? '');
  if (!sortable) return { text, cls: 0, rank: null };
  if (value === undefined) return { text, cls: MISSING, rank: 0 };
  if (typeof value === 'number') return { text, cls: NUMBER, rank: value };
  if (typeof value === 'string' && COLLATION.exact && PRINTABLE.test(value))
    return { text, cls: ASCII, rank: collationKey(value) };
  return { text, cls: OTHER, rank: String(value) };
}

/**
 * @typedef {object} PageQuery  one page of a kind's documents (the list calls' semantics, lists.js)
 * @property {{ attribute: string, value: string }[]} [terms]  ANDed: the attribute's value as text (`''` when it has none) equals `value`
 * @property {string} [sort]  an indexed attribute: ascending (numbers as numbers, text by `localeCompare`), documents without it last, ties in creation order
 * @property {boolean} [descending]  with `sort`: its order reversed (ties and documents without it as above); without: newest first
 * @property {number} [offset]  documents skipped, >= 0
 * @property {number} length  documents at most, >= 0
 */

/**
 * @typedef {object} Store
 * @property {(kind: string, uuid: string) => any | undefined} get  the document (a fresh copy), or undefined
 * @property {(kind: string) => any[]} list  every document of a kind, oldest first (reads them all: not for hot paths)
 * @property {(kind: string, query: PageQuery) => { total: number, docs: any[] }} page
 *   one page of an indexed kind, and how many documents match the terms; throws on a kind without indexes
 * @property {(kind: string, attribute: string) => any[]} having  the documents of an indexed kind that have a value of `attribute`, oldest first (an index range, not a scan)
 * @property {(kind: string, uuid: string, doc: any) => void} put  inserts or replaces
 * @property {(kind: string, uuid: string, change: (doc: any) => any) => any | undefined} update
 *   reads, changes and writes one document in a transaction; returns the new document, or
 *   undefined when there is none (`change` is not called then). `change` changes the document
 *   it is given or returns a new one; returning `false` writes nothing (the document as read is returned)
 * @property {(kind: string, uuid: string) => boolean} remove  true when a document was removed
 * @property {(kind: string) => number} count
 * @property {(kind: string) => number} generation  changes whenever a document of the kind is written or removed
 *   (a number no other store of the process has given)
 * @property {(kind: string) => void} clear  removes every document of a kind, in one transaction
 * @property {<T>(fn: () => T) => T} batch  runs `fn` in one transaction: every write in it commits
 *   together or not at all (the domain's one transaction per transition)
 * @property {(run: () => void) => void} afterCommit  runs `run` once the open transaction has
 *   committed (never when it rolls back); at once outside a transaction
 * @property {() => void} close
 */

/**
 * Opens (creating when missing) the state database.
 * @param {string} file  path of the SQLite file, e.g. `<data dir>/state.sqlite`
 * @param {object} [o]
 * @param {Record<string, { values: (doc: any) => Record<string, unknown>, sort: string[], count?: string[] }>} [o.indexes]
 *   kind -> `values`: the attributes of a document that `page` filters on (an undefined value: none);
 *   `sort`: those of them that `page` sorts on and `having` finds (kept in sort indexes, which cost
 *   a write each: name only these); `count`: those whose documents are counted per value, so that a
 *   filter on one of them has its total without a count over its matches (for attributes of few
 *   values, each shared by many documents: state, status; the others are counted when asked)
 * @param {number} [o.version]  of `indexes`: raise it when an attribute function changes, and the
 *   stored attributes are computed again at the next open (once, over every document)
 * @returns {Store}
 * @throws {Error} when the file cannot be opened or is not a database of ours
 */
export function openStore(file, { indexes = {}, version = 0 } = {}) {
  const db = new DatabaseSync(file);
  // WAL: readers never wait for the writer; NORMAL is durable across a process kill (not a power cut).
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');
  // A checkpoint (the WAL copied into the database, then fsync) every 10,000 pages, not SQLite's
  // 1,000: each create commits three times (the image with its task, RUNNING, the end) and its
  // attribute rows dirty some 20 pages, so the default checkpointed every ~20 creates, and the
  // fsyncs held creates at 141/s here, against 426/s with this (and 502/s with no fsync at all).
  // The WAL file is cut back to 64 MiB after a checkpoint.
  db.exec('PRAGMA wal_autocheckpoint = 10000');
  db.exec(`PRAGMA journal_size_limit = ${64 * 1024 * 1024}`);
  db.exec(`CREATE TABLE IF NOT EXISTS documents (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    uuid TEXT NOT NULL,
    doc TEXT NOT NULL,
    UNIQUE (kind, uuid)
  )`);
  db.exec('CREATE INDEX IF NOT EXISTS documents_kind ON documents (kind, seq)');
  // cls and rank order a sort (see attributeRow); text answers a filter; seq is the document's
  db.exec(`CREATE TABLE IF NOT EXISTS attributes (
    kind TEXT NOT NULL,
    seq INTEGER NOT NULL,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    cls INTEGER NOT NULL,
    rank,
    PRIMARY KEY (kind, seq, name)
  ) WITHOUT ROWID`);
  db.exec('CREATE INDEX IF NOT EXISTS attributes_filter ON attributes (kind, name, text, seq)');
  db.exec('DROP INDEX IF EXISTS attributes_up');
  db.exec('DROP INDEX IF EXISTS attributes_down');
  // the sortable attributes only (rank not null); a descending sort keeps its ties in creation order
  for (const [index, rank] of [
    ['attributes_sort_up', 'rank'],
    ['attributes_sort_down', 'rank DESC'],
  ])
    db.exec(`CREATE INDEX IF NOT EXISTS ${index} ON attributes (kind, name, cls, ${rank}, seq) WHERE rank IS NOT NULL`);
  // how many documents of a kind (name '') and with each attribute value: total_matches without a count
  db.exec(`CREATE TABLE IF NOT EXISTS counts (
    kind TEXT NOT NULL, name TEXT NOT NULL, text TEXT NOT NULL, n INTEGER NOT NULL,
    PRIMARY KEY (kind, name, text)
  ) WITHOUT ROWID`);
  db.exec('CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)');

  const statements = new Map();
  /** A prepared statement, kept per SQL text (a bounded set: one per query shape). */
  const sql = (text) => {
    let s = statements.get(text);
    if (!s) {
      if (statements.size >= 256) statements.clear();
      s = db.prepare(text);
      statements.set(text, s);
    }
    return s;
  };
  const S = {
    get: db.prepare('SELECT doc FROM documents WHERE kind = ? AND uuid = ?'),
    seqOf: db.prepare('SELECT seq FROM documents WHERE kind = ? AND uuid = ?'),
    bySeq: db.prepare('SELECT doc FROM documents WHERE seq = ?'),
    bySeqs: db.prepare('SELECT seq, doc FROM documents WHERE seq IN (SELECT value FROM json_each(?))'),
    list: db.prepare('SELECT doc FROM documents WHERE kind = ? ORDER BY seq'),
    insert: db.prepare('INSERT INTO documents (kind, uuid, doc) VALUES (?, ?, ?)'),
    replace: db.prepare('UPDATE documents SET doc = ? WHERE seq = ?'),
    delete: db.prepare('DELETE FROM documents WHERE seq = ?'),
    attributesOf: db.prepare('SELECT name, text, cls, rank FROM attributes WHERE kind = ? AND seq = ?'),
    insertAttribute: db.prepare('INSERT INTO attributes (kind, seq, name, text, cls, rank) VALUES (?, ?, ?, ?, ?, ?)'),
    updateAttribute: db.prepare(
      'UPDATE attributes SET text = ?, cls = ?, rank = ? WHERE kind = ? AND seq = ? AND name = ?',
    ),
    deleteAttributes: db.prepare('DELETE FROM attributes WHERE kind = ? AND seq = ?'),
    count: db.prepare('SELECT n FROM counts WHERE kind = ? AND name = ? AND text = ?'),
    addCount: db.prepare(
      'INSERT INTO counts (kind, name, text, n) VALUES (?, ?, ?, ?) ON CONFLICT (kind, name, text) DO UPDATE SET n = n + excluded.n',
    ),
    hasClass: db.prepare(
      'SELECT 1 AS x FROM attributes WHERE kind = ? AND name = ? AND cls = ? AND rank IS NOT NULL LIMIT 1',
    ),
    clearAttributes: db.prepare('DELETE FROM attributes WHERE kind = ?'),
    clearCounts: db.prepare('DELETE FROM counts WHERE kind = ?'),
    clearDocuments: db.prepare('DELETE FROM documents WHERE kind = ?'),
    setting: db.prepare('SELECT value FROM settings WHERE key = ?'),
    setSetting: db.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)'),
  };

  let depth = 0;
  /** Whether the open transaction has written: only then is its COMMIT a durable write. */
  let dirty = false;
  /** @type {(() => void)[]} what runs once the open transaction has committed (`afterCommit`) */
  let committed = [];
  /**
   * Runs `fn` in a transaction, or inside the one already open. A failed COMMIT (a full disk)
   * throws its own error, not ROLLBACK's "no transaction is active" (SQLite may have rolled back
   * already).
   */
  const atomic = (fn) => {
    if (depth > 0) return fn();
    db.exec('BEGIN IMMEDIATE');
    depth++;
    dirty = false;
    let after;
    try {
      const result = fn();
      if (dirty) durable('commit');
      db.exec('COMMIT');
      after = committed;
      return result;
    } catch (error) {
      try {
        db.exec('ROLLBACK');
      } catch {
        // rolled back by SQLite itself (SQLITE_FULL at COMMIT): the first error is the one to tell
      }
      throw error;
    } finally {
      depth--;
      committed = [];
      // after the transaction is closed: a callback may open the next one
      for (const run of after ?? []) run();
    }
  };

  /** @type {Map<string, number>} kind -> its last write's number, for caches of derived answers */
  const generations = new Map();
  // numbers no other store of this process gives: a cache kept across a store opened again
  // (a restore, a reset) never takes a new store's numbers for its old ones
  const bump = (kind) => generations.set(kind, ++writes);
  const parse = (row) => (row ? JSON.parse(String(row.doc)) : undefined);

  /** Writes the attributes of a document: all of a new one, the changed ones of an old one. */
  function writeAttributes(kind, seq, doc, fresh) {
    const index = indexes[kind];
    if (!index) return;
    const counted = (name) => index.count?.includes(name);
    const old = new Map();
    if (!fresh) for (const r of S.attributesOf.all(kind, seq)) old.set(String(r.name), r);
    for (const [name, value] of Object.entries(index.values(doc))) {
      const row = attributeRow(value, index.sort.includes(name));
      const before = old.get(name);
      old.delete(name);
      if (before === undefined) {
        S.insertAttribute.run(kind, seq, name, row.text, row.cls, row.rank);
      } else if (before.text !== row.text || before.cls !== row.cls || before.rank !== row.rank) {
        S.updateAttribute.run(row.text, row.cls, row.rank, kind, seq, name);
        if (before.text !== row.text && counted(name)) S.addCount.run(kind, name, String(before.text), -1);
      } else continue;
      if ((before === undefined || before.text !== row.text) && counted(name)) S.addCount.run(kind, name, row.text, 1);
    }
    // attributes the document had and has no more (an attribute function that returns fewer keys)
    for (const [name, before] of old) {
      sql('DELETE FROM attributes WHERE kind = ? AND seq = ? AND name = ?').run(kind, seq, name);
      if (counted(name)) S.addCount.run(kind, name, String(before.text), -1);
    }
  }

  function put(kind, uuid, doc) {
    atomic(() => {
      dirty = true;
      const found = S.seqOf.get(kind, uuid);
      const text = JSON.stringify(doc);
      if (found) {
        S.replace.run(text, found.seq);
        writeAttributes(kind, Number(found.seq), doc, false);
      } else {
        const seq = Number(S.insert.run(kind, uuid, text).lastInsertRowid);
        S.addCount.run(kind, '', '', 1);
        writeAttributes(kind, seq, doc, true);
      }
    });
    bump(kind);
  }

  function remove(kind, uuid) {
    const removed = atomic(() => {
      const found = S.seqOf.get(kind, uuid);
      if (!found) return false;
      dirty = true;
      const seq = Number(found.seq);
      for (const r of S.attributesOf.all(kind, seq))
        if (indexes[kind]?.count?.includes(String(r.name))) S.addCount.run(kind, String(r.name), String(r.text), -1);
      S.deleteAttributes.run(kind, seq);
      S.delete.run(seq);
      S.addCount.run(kind, '', '', -1);
      return true;
    });
    bump(kind);
    return removed;
  }

  /** `n` filter terms as joins on the attribute rows of the document X (arguments: name, text each). */
  const joinsOf = (n) =>
    Array.from(
      { length: n },
      (_, i) =>
        ` JOIN attributes f${i} ON f${i}.kind = X.kind AND f${i}.seq = X.seq AND f${i}.name = ? AND f${i}.text = ?`,
    ).join('');
  const countOf = (kind, name, text) => Number(S.count.get(kind, name, text)?.n ?? 0);
  /** The documents of `seqs`, in that order: one statement for a page, not one per document. */
  const docsOf = (seqs) => {
    if (seqs.length < 2) return seqs.map((seq) => parse(S.bySeq.get(seq)));
    const found = new Map();
    for (const row of S.bySeqs.all(JSON.stringify(seqs))) found.set(Number(row.seq), row);
    return seqs.map((seq) => parse(found.get(Number(seq))));
  };

  /**
   * One page (see PageQuery). Cost: an index range for the page, read from whichever end is
   * nearer (a last page is as cheap as a first); `total` from `counts` with no or one term.
   */
  function page(kind, { terms: given = [], sort, descending = false, offset = 0, length }) {
    if (!indexes[kind]) throw new Error(`store: the kind ${kind} has no indexes to page by`);
    if (sort && !indexes[kind].sort.includes(sort)) throw new Error(`store: ${kind} is not kept in ${sort} order`);
    // A document has one row per attribute: a repeated term is one term, and two values of one
    // attribute match nothing. So any number of terms is at most one join per attribute the kind
    // keeps, below SQLite's 64 tables of a join.
    const wanted = new Map();
    for (const t of given) {
      if (wanted.has(t.attribute) && wanted.get(t.attribute) !== t.value) return { total: 0, docs: [] };
      wanted.set(t.attribute, t.value);
    }
    const terms = [...wanted].map(([attribute, value]) => ({ attribute, value }));
    // the filter terms as joins on the attribute rows of the document (X is the driving table)
    const joins = joinsOf(terms.length);
    const termArgs = terms.flatMap((t) => [t.attribute, t.value]);
    let total;
    if (terms.length === 0) total = countOf(kind, '', '');
    else if (terms.length === 1 && indexes[kind].count?.includes(terms[0].attribute))
      total = countOf(kind, terms[0].attribute, terms[0].value);
    else
      total = Number(
        sql(`SELECT COUNT(*) AS n FROM documents X${joins} WHERE X.kind = ?`).get(...termArgs, kind)?.n ?? 0,
      );
    if (offset >= total || length <= 0) return { total, docs: [] };
    const take = Math.min(length, total - offset);
    // nearer the end: the same order reversed, from the other end, then turned round
    const reverse = offset > total - offset - take;
    const skip = reverse ? total - offset - take : offset;
    if (sort && !sortableInSql(kind, sort))
      return { total, docs: sortInJs(kind, sort, descending, joins, termArgs, offset, take) };
    let seqs;
    if (!sort) {
      const dir = descending !== reverse ? 'DESC' : 'ASC';
      // with terms, driven by the first one's filter index, which is in creation order already
      const rows =
        terms.length === 0
          ? sql(`SELECT X.seq FROM documents X WHERE X.kind = ? ORDER BY X.seq ${dir} LIMIT ? OFFSET ?`).all(
              kind,
              take,
              skip,
            )
          : sql(
              `SELECT X.seq FROM attributes X${joinsOf(terms.length - 1)} WHERE X.kind = ? AND X.name = ? AND X.text = ? ORDER BY X.seq ${dir} LIMIT ? OFFSET ?`,
            ).all(...termArgs.slice(2), kind, ...termArgs.slice(0, 2), take, skip);
      seqs = rows.map((r) => r.seq);
    } else {
      // documents without the attribute last in either order (cls MISSING), ties in creation order
      const [a, b] = reverse ? ['DESC', 'ASC'] : ['ASC', 'DESC'];
      const order = `X.cls ${a}, X.rank ${descending ? b : a}, X.seq ${a}`;
      seqs = sql(
        `SELECT X.seq FROM attributes X${joins} WHERE X.kind = ? AND X.name = ? AND X.rank IS NOT NULL ORDER BY ${order} LIMIT ? OFFSET ?`,
      )
        .all(...termArgs, kind, sort, take, skip)
        .map((r) => r.seq);
    }
    if (reverse) seqs.reverse();
    return { total, docs: docsOf(seqs) };
  }

  /**
   * True when SQL orders the attribute's values as lists.js does: all numbers or all printable
   * ASCII (documents without it aside). Strings of other scripts, or numbers mixed with strings,
   * are sorted by `localeCompare` in JS.
   */
  function sortableInSql(kind, name) {
    if (S.hasClass.get(kind, name, OTHER)) return false;
    return !(S.hasClass.get(kind, name, NUMBER) && S.hasClass.get(kind, name, ASCII));
  }

  /** The sort of lists.js (`sortBy`) over the matching attribute rows: every one is read. */
  function sortInJs(kind, name, descending, joins, termArgs, offset, take) {
    const rows = sql(
      `SELECT X.seq, X.cls, X.rank, X.text FROM attributes X${joins} WHERE X.kind = ? AND X.name = ? ORDER BY X.seq`,
    ).all(...termArgs, kind, name);
    const sign = descending ? -1 : 1;
    const shown = (r) => (r.cls === OTHER ? String(r.rank) : String(r.text));
    rows.sort((x, y) => {
      if (x.cls === MISSING || y.cls === MISSING) return (x.cls === MISSING ? 1 : 0) - (y.cls === MISSING ? 1 : 0);
      if (x.cls === NUMBER && y.cls === NUMBER) return (Number(x.rank) - Number(y.rank)) * sign;
      return shown(x).localeCompare(shown(y)) * sign;
    });
    return docsOf(rows.slice(offset, offset + take).map((r) => r.seq));
  }

  /** Computes every stored attribute and count again (a new data dir, an older one, or changed indexes). */
  function rebuild() {
    const kinds = Object.keys(indexes)
      .sort()
      .map((k) => [k, indexes[k].sort, indexes[k].count]);
    const stamp = JSON.stringify({ version, kinds, collation: COLLATION.fingerprint });
    if (S.setting.get('attributes')?.value === stamp) return;
    atomic(() => {
      dirty = true;
      db.exec('DELETE FROM attributes');
      db.exec('DELETE FROM counts');
      for (const row of db.prepare('SELECT seq, kind, doc FROM documents ORDER BY seq').iterate()) {
        const kind = String(row.kind);
        S.addCount.run(kind, '', '', 1);
        if (indexes[kind]) writeAttributes(kind, Number(row.seq), JSON.parse(String(row.doc)), true);
      }
      S.setSetting.run('attributes', stamp);
    });
  }
  rebuild();

  return {
    get: (kind, uuid) => parse(S.get.get(kind, uuid)),
    list: (kind) => S.list.all(kind).map(parse),
    page,
    having(kind, name) {
      if (!indexes[kind]?.sort.includes(name)) throw new Error(`store: ${kind} has no sort index of ${name}`);
      const rows = sql(
        'SELECT seq FROM attributes WHERE kind = ? AND name = ? AND cls < ? AND rank IS NOT NULL ORDER BY seq',
      ).all(kind, name, MISSING);
      return docsOf(rows.map((r) => r.seq));
    },
    put,
    update(kind, uuid, change) {
      let written = false;
      const next = atomic(() => {
        const found = S.seqOf.get(kind, uuid);
        if (!found) return undefined;
        const doc = parse(S.bySeq.get(found.seq));
        const result = change(doc);
        if (result === false) return doc;
        const changed = result ?? doc;
        written = true;
        dirty = true;
        S.replace.run(JSON.stringify(changed), found.seq);
        writeAttributes(kind, Number(found.seq), changed, false);
        return changed;
      });
      if (written) bump(kind);
      return next;
    },
    remove,
    count: (kind) => countOf(kind, '', ''),
    generation(kind) {
      if (!generations.has(kind)) bump(kind);
      return /** @type {number} */ (generations.get(kind));
    },
    clear(kind) {
      atomic(() => {
        dirty = true;
        S.clearAttributes.run(kind);
        S.clearCounts.run(kind);
        S.clearDocuments.run(kind);
      });
      bump(kind);
    },
    batch: (fn) => atomic(fn),
    afterCommit(run) {
      if (depth > 0) committed.push(run);
      else run();
    },
    close: () => db.close(),
  };
}
