// The simulator's state: one SQLite database (better-sqlite3) in the data dir, holding every
// entity and task as a JSON document keyed by kind and UUID. The only module that knows SQL.
import Database from 'better-sqlite3';

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
 * @property {() => void} close
 */

/**
 * Opens (creating when missing) the state database.
 * @param {string} file  path of the SQLite file, e.g. `<data dir>/state.sqlite`
 * @returns {Store}
 * @throws {Error} when the file cannot be opened or is not a database of ours
 */
export function openStore(file) {
  const db = new Database(file);
  // WAL: readers never wait for the writer; NORMAL is durable across a process kill (not a power cut).
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`CREATE TABLE IF NOT EXISTS documents (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    uuid TEXT NOT NULL,
    doc TEXT NOT NULL,
    UNIQUE (kind, uuid)
  )`);
  const getStmt = db.prepare('SELECT doc FROM documents WHERE kind = ? AND uuid = ?');
  const listStmt = db.prepare('SELECT doc FROM documents WHERE kind = ? ORDER BY seq');
  const insertStmt = db.prepare('INSERT INTO documents (kind, uuid, doc) VALUES (?, ?, ?) ON CONFLICT (kind, uuid) DO UPDATE SET doc = excluded.doc');
  const deleteStmt = db.prepare('DELETE FROM documents WHERE kind = ? AND uuid = ?');
  const countStmt = db.prepare('SELECT count(*) AS n FROM documents WHERE kind = ?');

  const get = (kind, uuid) => {
    const row = getStmt.get(kind, uuid);
    return row ? JSON.parse(row.doc) : undefined;
  };
  const put = (kind, uuid, doc) => {
    insertStmt.run(kind, uuid, JSON.stringify(doc));
  };
  const update = db.transaction((kind, uuid, change) => {
    const doc = get(kind, uuid);
    if (doc === undefined) return undefined;
    const next = change(doc) ?? doc;
    put(kind, uuid, next);
    return next;
  });
  return {
    get,
    list: (kind) => listStmt.all(kind).map((row) => JSON.parse(row.doc)),
    put,
    update,
    remove: (kind, uuid) => deleteStmt.run(kind, uuid).changes > 0,
    count: (kind) => countStmt.get(kind).n,
    close: () => db.close(),
  };
}
