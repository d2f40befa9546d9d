// The simulator's state: one SQLite database (Node's built-in `node:sqlite`) in the data dir, holding
// every entity and task as a JSON document keyed by kind and UUID. The only module that knows SQL.
// Reads come from an in-memory copy (write-through): the database is the durable state, the copy
// spares a JSON.parse of every document on every list. Documents handed out are shared: callers
// must not change them except inside `update`.
import { createRequire } from 'node:module';

/** @type {typeof import('node:sqlite').DatabaseSync} */
const DatabaseSync = loadSqlite();

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

/**
 * @typedef {object} Store
 * @property {(kind: string, uuid: string) => any | undefined} get  the document, or undefined
 * @property {(kind: string) => any[]} list  every document of a kind, oldest first
 * @property {(kind: string, uuid: string, doc: any) => void} put  inserts or replaces
 * @property {(kind: string, uuid: string, change: (doc: any) => any) => any | undefined} update
 *   reads, changes and writes one document in a transaction; returns the new document, or
 *   undefined when there is none (`change` is not called then)
 * @property {(kind: string, uuid: string) => boolean} remove  true when a document was removed
 * @property {(kind: string) => number} count
 * @property {(kind: string) => number} generation  changes whenever a document of the kind is written or removed
 * @property {() => void} close
 */

/**
 * Opens (creating when missing) the state database.
 * @param {string} file  path of the SQLite file, e.g. `<data dir>/state.sqlite`
 * @returns {Store}
 * @throws {Error} when the file cannot be opened or is not a database of ours
 */
export function openStore(file) {
  const db = new DatabaseSync(file);
  // WAL: readers never wait for the writer; NORMAL is durable across a process kill (not a power cut).
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec(`CREATE TABLE IF NOT EXISTS documents (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    uuid TEXT NOT NULL,
    doc TEXT NOT NULL,
    UNIQUE (kind, uuid)
  )`);
  const listStmt = db.prepare('SELECT uuid, doc FROM documents WHERE kind = ? ORDER BY seq');
  const insertStmt = db.prepare(
    'INSERT INTO documents (kind, uuid, doc) VALUES (?, ?, ?) ON CONFLICT (kind, uuid) DO UPDATE SET doc = excluded.doc',
  );
  const deleteStmt = db.prepare('DELETE FROM documents WHERE kind = ? AND uuid = ?');

  /** @type {Map<string, Map<string, any>>} kind -> uuid -> document, in insertion order */
  const cache = new Map();
  const docs = (kind) => {
    let m = cache.get(kind);
    if (!m) {
      m = new Map(
        listStmt.all(kind).map((row) => {
          const d = JSON.parse(row.doc);
          return [row.uuid, d];
        }),
      );
      cache.set(kind, m);
    }
    return m;
  };
  /** @type {Map<string, number>} kind -> write counter, for caches of derived answers */
  const generations = new Map();
  const bump = (kind) => generations.set(kind, (generations.get(kind) ?? 0) + 1);
  const get = (kind, uuid) => docs(kind).get(uuid);
  const put = (kind, uuid, doc) => {
    insertStmt.run(kind, uuid, JSON.stringify(doc));
    docs(kind).set(uuid, doc);
    bump(kind);
  };
  /** Read, change and write in one transaction: rolled back when `change` throws. */
  const transaction = (kind, uuid, change) => {
    const current = get(kind, uuid);
    if (current === undefined) return undefined;
    db.exec('BEGIN IMMEDIATE');
    try {
      // a copy: when `change` throws, nothing of it shows
      const doc = structuredClone(current);
      const next = change(doc) ?? doc;
      insertStmt.run(kind, uuid, JSON.stringify(next));
      db.exec('COMMIT');
      return next;
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  };
  return {
    get,
    list: (kind) => [...docs(kind).values()],
    put,
    update(kind, uuid, change) {
      const next = transaction(kind, uuid, change);
      if (next !== undefined) {
        docs(kind).set(uuid, next);
        bump(kind);
      }
      return next;
    },
    remove(kind, uuid) {
      docs(kind).delete(uuid);
      bump(kind);
      return deleteStmt.run(kind, uuid).changes > 0;
    },
    count: (kind) => docs(kind).size,
    generation: (kind) => generations.get(kind) ?? 0,
    close: () => db.close(),
  };
}
