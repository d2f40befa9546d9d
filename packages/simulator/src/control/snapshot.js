// Snapshots of the local svc's state (`GET`/`PUT /_svc/snapshot`, `--snapshot FILE`): a POSIX tar
// archive (ustar, uncompressed), written and read with tar-stream, a streaming tar parser and
// generator that never touches the file system itself: every path, type and size is ours to
// check before a byte is written. The format (README "Snapshots"):
//
//   manifest.json   first: {"format": "svc-snapshot", "version": 1, "schema": <state schema>,
//                   "created", "simulator", "files": {"<name>": {"size", "sha256"}}}
//   state.sqlite    the database (SQLite, rollback journal), from VACUUM INTO
//   images/<uuid>   the bytes of each image that has them
//
// Reading is untrusted input (snapshot-read.js): an archive is checked whole while it is unpacked
// into a staging directory inside the data dir (`snapshots/staging-<id>/`, fsync'd), and only then installed,
// with the domain closed, by a protocol a kill at any instant leaves as the old state or the new
// one: a commit marker written whole, then renames that recovery at start finishes.

import { createHash, hash, randomBytes } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  createReadStream,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import tar from 'tar-stream';
import { durable, writeWhole } from '../domain/durable.js';
import { DatabaseSync } from '../domain/store.js';

export { checkManifest, checkStateFile, stageSnapshot } from './snapshot-read.js';

/** The `format` of a snapshot's manifest. */
export const SNAPSHOT_FORMAT = 'svc-snapshot';
/** The version of the archive's layout this simulator writes and reads. */
export const SNAPSHOT_VERSION = 1;
/** Where snapshots are staged, installed from and copied for a download: `<data dir>/snapshots/`. */
export const SNAPSHOTS_DIR = 'snapshots';
/** The commit marker of an install, in SNAPSHOTS_DIR. */
const MARKER = 'install.json';

/**
 * The limits an archive is read within (each refused with SnapshotInvalid naming it).
 * @typedef {object} SnapshotLimits
 * @property {number} entries  entries, the manifest included
 * @property {number} entryBytes  bytes of one entry
 * @property {number} totalBytes  bytes of every entry together
 * @property {number} manifestBytes  bytes of manifest.json
 */

/** @type {SnapshotLimits} 100,000 images of up to 20 GiB (the largest source fetched), 1 TiB in all. */
export const SNAPSHOT_LIMITS = {
  entries: 100_002,
  entryBytes: 20 * 1024 ** 3,
  totalBytes: 1024 ** 4,
  manifestBytes: 16 * 1024 * 1024,
};

/**
 * A snapshot's manifest.
 * @typedef {object} Manifest
 * @property {'svc-snapshot'} format
 * @property {number} version  SNAPSHOT_VERSION
 * @property {number} schema  the state's schema (domain SCHEMA) when it was taken
 * @property {string} [created]  RFC 3339
 * @property {string} [simulator]  the version of the simulator that wrote it
 * @property {Record<string, { size: number, sha256: string }>} files  every other entry
 */

/** An archive that is not a snapshot this simulator takes; `message` names the entry and the rule. */
export class SnapshotInvalid extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'SnapshotInvalid';
  }
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const SHA256 = /^[0-9a-f]{64}$/;
/** The names an entry after the manifest may have: the database or an image's bytes. */
export const isStateName = (name) =>
  name === 'state.sqlite' || (name.startsWith('images/') && UUID.test(name.slice(7)));
/** `entry 3 "images/x"`, the name cut and its control characters escaped (it is the sender's). */
export const entryLabel = (index, name) =>
  `entry ${index} ${JSON.stringify(name.length > 120 ? `${name.slice(0, 119)}…` : name)}`;

/** fsync of a directory: what makes a rename or a new file in it durable. */
export function syncDir(dir) {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A new directory of ours in `<data dir>/snapshots/`: `<prefix>-<random>`. */
export function newDir(dataDir, prefix) {
  const root = join(dataDir, SNAPSHOTS_DIR);
  mkdirSync(root, { recursive: true });
  const dir = join(root, `${prefix}-${randomBytes(6).toString('hex')}`);
  mkdirSync(join(dir, 'images'), { recursive: true });
  return dir;
}

/** Files up to this many bytes are hashed from one read (an image of a snapshot is mostly small). */
const WHOLE_READ = 8 * 1024 * 1024;

/** The sha256 of a file, in hex. */
async function sha256Of(file) {
  if (statSync(file).size <= WHOLE_READ) return hash('sha256', readFileSync(file), 'hex');
  const digest = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) digest.update(chunk);
  return digest.digest('hex');
}

/**
 * Takes a snapshot: a consistent copy of the state now (synchronously, so no request changes it
 * in between: `VACUUM INTO` of the database and a hard link of each image's bytes into
 * `snapshots/out-<id>/`), then streams it as the archive. The copy is removed once the stream
 * ends, fails or is destroyed.
 * @param {string} dataDir
 * @param {object} o
 * @param {number} o.schema  the state's schema (domain SCHEMA), written in the manifest
 * @param {string} o.simulator  the simulator's version, written in the manifest
 * @param {import('node:sqlite').DatabaseSync} [o.db]  the state's open connection; default: one of
 *   our own on `<dataDir>/state.sqlite`, closed again
 * @returns {Promise<Readable>} the archive's bytes
 * @throws {Error} when the state cannot be copied (a full disk: ENOSPC)
 */
export async function createSnapshot(dataDir, { schema, simulator, db }) {
  const out = newDir(dataDir, 'out');
  try {
    const names = copyState(dataDir, out, db);
    /** @type {Manifest} */
    const manifest = {
      format: SNAPSHOT_FORMAT,
      version: SNAPSHOT_VERSION,
      schema,
      created: new Date().toISOString(),
      simulator,
      files: {},
    };
    for (const name of names)
      manifest.files[name] = { size: statSync(join(out, name)).size, sha256: await sha256Of(join(out, name)) };
    return archiveStream(out, manifest);
  } catch (error) {
    rmSync(out, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The synchronous copy: the database (VACUUM INTO, a database in rollback-journal mode) and a link
 * (else a copy) of every image's bytes; names as in the archive, the database first.
 * @returns {string[]}
 */
function copyState(dataDir, out, db) {
  const source = db ?? new DatabaseSync(join(dataDir, 'state.sqlite'), { readOnly: true });
  try {
    source.prepare('VACUUM INTO ?').run(join(out, 'state.sqlite'));
  } finally {
    if (!db) source.close();
  }
  const names = ['state.sqlite'];
  const images = join(dataDir, 'images');
  const found = existsSync(images) ? readdirSync(images).filter((n) => UUID.test(n)) : [];
  for (const name of found.sort()) {
    try {
      linkSync(join(images, name), join(out, 'images', name));
    } catch (error) {
      if (error.code === 'ENOENT') continue;
      copyFileSync(join(images, name), join(out, 'images', name));
    }
    names.push(`images/${name}`);
  }
  return names;
}

/** Resolves when a stream that refused a write takes more, or closes (its listeners then gone). */
function drained(sink) {
  return new Promise((resolve) => {
    const done = () => {
      sink.off('drain', done);
      sink.off('close', done);
      resolve(undefined);
    };
    sink.once('drain', done);
    sink.once('close', done);
  });
}

/** The archive of `out`, as a Node stream; `out` is removed when the stream closes. */
function archiveStream(out, manifest) {
  const pack = tar.pack();
  const mtime = new Date(manifest.created ?? Date.now());
  const feed = async () => {
    const text = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    await new Promise((resolve, reject) =>
      pack.entry({ name: 'manifest.json', size: text.length, mode: 0o644, mtime }, text, (e) =>
        e ? reject(e) : resolve(undefined),
      ),
    );
    for (const [name, { size }] of Object.entries(manifest.files)) {
      /** @type {any} */
      let sink;
      const done = new Promise((resolve, reject) => {
        sink = pack.entry({ name, size, mode: 0o644, mtime }, (error) => (error ? reject(error) : resolve(undefined)));
      });
      // awaited below; a destroyed archive rejects it meanwhile
      done.catch(() => {});
      for await (const chunk of createReadStream(join(out, name))) {
        if (sink.destroyed) throw new Error('the archive stream was closed');
        if (!sink.write(chunk)) await drained(sink);
      }
      sink.end();
      await done;
    }
    pack.finalize();
  };
  const stream = Readable.from(pack);
  const cleanup = () => rmSync(out, { recursive: true, force: true });
  stream.once('close', cleanup);
  feed().catch((error) => {
    stream.destroy(error);
    cleanup();
  });
  return stream;
}

/** What a snapshot replaces in the data dir, by what the staging directory holds. @type {[string, string[]][]} */
const PIECES = [
  ['state.sqlite', ['state.sqlite', 'state.sqlite-wal', 'state.sqlite-shm', 'state.sqlite-journal']],
  ['images', ['images']],
];

/**
 * Installs a staged snapshot (stageSnapshot's `dir`) as the data dir's state, with the domain
 * CLOSED (no connection on `state.sqlite`, no file of `images/` open for writing).
 *
 * The commit point is the marker `snapshots/install.json`, written whole (temporary file, fsync,
 * rename, fsync of the directory). Then, for the database and for `images/`: the old one (the
 * database with its `-wal`, `-shm` and `-journal`) is renamed into `snapshots/old-<id>/`, the
 * staged one into its place, and the directories are fsync'd; then the marker is removed and the
 * old state and the staging directory deleted. A kill at any instant leaves the old state (before
 * the marker) or, once `recoverSnapshot` has run at the next start, the new one.
 * @param {string} dataDir
 * @param {string} staged  stageSnapshot's `dir`
 * @throws {Error} the file system's errors (the marker then decides what recovery does)
 */
export function installSnapshot(dataDir, staged) {
  const root = join(dataDir, SNAPSHOTS_DIR);
  const name = staged.slice(root.length + 1);
  if (!/^staging-[0-9a-f]+$/.test(name) || join(root, name) !== staged)
    throw new Error('installSnapshot: the staged directory is not one stageSnapshot made in this data dir');
  const marker = { staged: name, old: name.replace(/^staging-/, 'old-') };
  writeWhole(join(root, MARKER), JSON.stringify(marker), { mode: 0o600 });
  rollForward(dataDir, marker);
}

/**
 * Finishes an install whose marker is written: idempotent, so that it runs again after a kill
 * anywhere in it. A piece is moved only while the staging directory still holds it.
 * @param {string} dataDir
 * @param {{ staged: string, old: string }} marker
 */
function rollForward(dataDir, marker) {
  const root = join(dataDir, SNAPSHOTS_DIR);
  const staged = join(root, marker.staged);
  const old = join(root, marker.old);
  if (!existsSync(old)) {
    mkdirSync(old);
    syncDir(root);
  }
  for (const [item, pieces] of PIECES) {
    if (!existsSync(join(staged, item))) continue; // in place already
    for (const piece of pieces) {
      if (!existsSync(join(dataDir, piece))) continue;
      durable('rename');
      renameSync(join(dataDir, piece), join(old, piece));
    }
    durable('rename');
    renameSync(join(staged, item), join(dataDir, item));
    syncDir(old);
    syncDir(staged);
    syncDir(dataDir);
  }
  durable('unlink');
  unlinkSync(join(root, MARKER));
  syncDir(root);
  // the old state is deleted behind (recoverSnapshot removes what a stop leaves of it)
  durable('unlink');
  rm(old, { recursive: true, force: true }).catch(() => {});
  rmSync(staged, { recursive: true, force: true });
}

/**
 * At start, before the domain opens the state: finishes an install a stop interrupted (its marker
 * is there: roll forward) and removes what an install that did not commit, a finished one or a
 * download left in `snapshots/` (roll back: the state was never touched).
 * @param {string} dataDir
 * @returns {'none' | 'rolled-forward' | 'rolled-back'} what it found
 * @throws {Error} naming the file when the marker is there but unreadable (it is written whole:
 *   only a damaged disk makes it so; nothing is deleted then)
 */
export function recoverSnapshot(dataDir) {
  const root = join(dataDir, SNAPSHOTS_DIR);
  if (!existsSync(root)) return 'none';
  let outcome = /** @type {'none' | 'rolled-forward' | 'rolled-back'} */ ('none');
  const markerFile = join(root, MARKER);
  if (existsSync(markerFile)) {
    let marker;
    try {
      marker = JSON.parse(readFileSync(markerFile, 'utf8'));
    } catch {
      marker = undefined;
    }
    if (!/^staging-[0-9a-f]+$/.test(marker?.staged ?? '') || !/^old-[0-9a-f]+$/.test(marker?.old ?? ''))
      throw new Error(`the snapshot install marker ${SNAPSHOTS_DIR}/${MARKER} is damaged; the data dir needs a look`);
    rollForward(dataDir, marker);
    outcome = 'rolled-forward';
  }
  for (const name of readdirSync(root)) {
    if (outcome === 'none' && (name.startsWith('staging-') || name.startsWith(`${MARKER}.`))) outcome = 'rolled-back';
    durable('unlink');
    rmSync(join(root, name), { recursive: true, force: true });
  }
  return outcome;
}

/**
 * Removes a staged snapshot that will not be installed.
 * @param {string} staged  stageSnapshot's `dir`
 */
export function discardStaged(staged) {
  rmSync(staged, { recursive: true, force: true });
}
