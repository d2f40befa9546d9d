// One simulator per data dir: an OS-level lock on an open file, held for the life of the process
// and released by the kernel when it dies (so a lock left by a killed simulator is taken over at
// the next start). SQLite's own file locking (POSIX advisory locks, which it also keeps apart
// between connections of one process) does the locking: an exclusive transaction on
// `<data dir>/lock`, never committed. The holder's PID is written beside it, for the message.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { storageProblem } from './datadir.js';
import { DatabaseSync } from './domain/store.js';

/** The data dir is held by another simulator. */
export class DataDirLocked extends Error {
  /** @param {number | undefined} pid  the holder's, when it could be read */
  constructor(pid) {
    super(`the data dir is in use by another simulator${pid ? ` (PID ${pid})` : ''}`);
    this.pid = pid;
  }
}

/**
 * Takes the data dir's lock.
 * @param {string} dataDir  an existing directory
 * @returns {{ release: () => void }}
 * @throws {DataDirLocked} when another simulator (another process, or another instance in this one) holds it
 */
export function lockDataDir(dataDir) {
  const pidFile = join(dataDir, 'simulator.pid');
  let db;
  try {
    db = new DatabaseSync(join(dataDir, 'lock'));
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db?.close();
    // SQLITE_BUSY (5): the lock is held; anything else (a full disk, no permission) is the data dir's
    if (/** @type {any} */ (error.errcode & 0xff) !== 5)
      throw new Error(`the data dir's lock cannot be taken: ${storageProblem(error)}`);
    let pid;
    try {
      pid = Number.parseInt(readFileSync(pidFile, 'utf8'), 10) || undefined;
    } catch {
      // not written yet, or removed
    }
    throw new DataDirLocked(pid);
  }
  try {
    writeFileSync(pidFile, `${process.pid}\n`);
  } catch (error) {
    db.close();
    throw new Error(`the data dir's lock cannot be taken: ${storageProblem(error)}`);
  }
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      rmSync(pidFile, { force: true });
      db.close();
    },
  };
}
