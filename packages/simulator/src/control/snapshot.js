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
// Reading is untrusted input: an archive is checked whole while it is unpacked into a staging
// directory inside the data dir (`snapshots/staging-<id>/`, fsync'd), and only then installed,
// with the domain closed, by a protocol a kill at any instant leaves as the old state or the new
// one: a commit marker written whole, then renames that recovery at start finishes.

import { createHash, randomBytes } from 'node:crypto';
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
  readSync,
  renameSync,
  rmSync,
  statfsSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import tar from 'tar-stream';
import { durable } from '../domain/durable.js';
import { DatabaseSync } from '../domain/store.js';

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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SHA256 = /^[0-9a-f]{64}$/;
/** The names an entry after the manifest may have: the database or an image's bytes. */
const isStateName = (name) => name === 'state.sqlite' || (name.startsWith('images/') && UUID.test(name.slice(7)));
/** `entry 3 "images/x"`, the name cut and its control characters escaped (it is the sender's). */
const entryLabel = (index, name) =>
  `entry ${index} ${JSON.stringify(name.length > 120 ? `${name.slice(0, 119)}…` : name)}`;

/** fsync of a directory: what makes a rename or a new file in it durable. */
function syncDir(dir) {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A new directory of ours in `<data dir>/snapshots/`: `<prefix>-<random>`. */
function newDir(dataDir, prefix) {
  const root = join(dataDir, SNAPSHOTS_DIR);
  mkdirSync(root, { recursive: true });
  const dir = join(root, `${prefix}-${randomBytes(6).toString('hex')}`);
  mkdirSync(join(dir, 'images'), { recursive: true });
  return dir;
}

/** The sha256 of a file, in hex. */
async function sha256Of(file) {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk);
  return hash.digest('hex');
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
        if (!sink.write(chunk))
          await new Promise((resolve) => {
            sink.once('drain', resolve);
            sink.once('close', resolve);
          });
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

/**
 * Reads an archive into a staging directory of the data dir, checking everything first-hand:
 * - the bytes are a tar archive, not a compressed one (gzip, bzip2, xz, zstd are refused whole)
 * - the first entry is `manifest.json` (at most `manifestBytes`), of format `svc-snapshot`,
 *   version SNAPSHOT_VERSION, a state schema no newer than `schema`, listing `state.sqlite` and
 *   each other file with its size and sha256, within the limits (count, each, total) and the
 *   data dir's free space (ENOSPC otherwise)
 * - every other entry is a regular file named `state.sqlite` or `images/<uuid>` (no absolute
 *   path, `..`, other name, link, directory or device), listed in the manifest, once, with the
 *   size the manifest gives (checked before its bytes are read) and then the sha256
 * - nothing listed is missing (a truncated archive), and the database is one of ours (`checkState`)
 *
 * Files are written only under `<data dir>/snapshots/staging-<id>/`, created for this call,
 * and fsync'd with their directories. On any refusal or error the staging directory is removed
 * and the data dir's state is untouched. `input` is read with listeners, never destroyed: an
 * HTTP request's connection stays for its answer (the rest of a refused body is not read).
 * @param {string} dataDir
 * @param {import('node:stream').Readable} input  the archive's bytes
 * @param {object} o
 * @param {number} o.schema  the state schema this simulator runs (newer archives are refused)
 * @param {Partial<SnapshotLimits>} [o.limits]  default SNAPSHOT_LIMITS
 * @param {(file: string, manifest: Manifest) => void} [o.checkState]  throws SnapshotInvalid when
 *   the staged database is not a state of ours; default `checkStateFile`
 * @param {number} [o.idleMs]  how long the input may be silent, in ms (an upload's idle limit,
 *   `ctx.uploadIdleMs`); default none
 * @returns {Promise<{ dir: string, manifest: Manifest }>} the staging directory, for installSnapshot
 * @throws {SnapshotInvalid} naming the entry and the rule it broke
 * @throws {Error} ENOSPC when the data dir lacks the room; code SOURCE_IDLE when the input was
 *   silent for `idleMs` (errors.js answers it 408); the input's or the disk's own errors
 */
export async function stageSnapshot(dataDir, input, { schema, limits: given, checkState = checkStateFile, idleMs }) {
  const limits = { ...SNAPSHOT_LIMITS, ...given };
  const dir = newDir(dataDir, 'staging');
  try {
    const manifest = await unpack(input, dir, dataDir, limits, schema, idleMs ?? Infinity);
    const state = join(dir, 'state.sqlite');
    try {
      checkState(state, manifest);
    } finally {
      // a check may leave a journal beside it; the state file itself is what is installed
      for (const extra of ['-journal', '-wal', '-shm']) rmSync(`${state}${extra}`, { force: true });
    }
    syncDir(join(dir, 'images'));
    syncDir(dir);
    return { dir, manifest };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** First bytes of compressed streams: gzip, bzip2, xz, zstd. @type {[string, number[]][]} */
const COMPRESSED = [
  ['gzip', [0x1f, 0x8b]],
  ['bzip2', [0x42, 0x5a, 0x68]],
  ['xz', [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]],
  ['zstd', [0x28, 0xb5, 0x2f, 0xfd]],
];

/**
 * The unpacking itself (see stageSnapshot).
 * @returns {Promise<Manifest>}
 */
function unpack(input, dir, dataDir, limits, schema, idleMs) {
  return new Promise((resolve, reject) => {
    const extract = tar.extract();
    /** @type {Manifest | undefined} */
    let manifest;
    const seen = new Set();
    let index = 0;
    let settled = false;
    /** @type {any} the entry being read, destroyed on a failure so that its reader ends */
    let current;
    /** The entry being read: a failure is told once it has closed its file (the staging dir is then removed). */
    let working = Promise.resolve();
    /** @type {Buffer | null} the first bytes, until there are enough to tell a compressed stream */
    let head = Buffer.alloc(0);
    const idle = Number.isFinite(idleMs)
      ? setTimeout(
          () =>
            fail(
              Object.assign(new Error(`no byte of the archive arrived for ${idleMs / 1000} s`), {
                code: 'SOURCE_IDLE',
              }),
            ),
          idleMs,
        )
      : undefined;
    const stopInput = () => {
      clearTimeout(idle);
      input.off('data', onData);
      input.off('end', onEnd);
      input.off('error', onFail);
      input.off('close', onClose);
      input.pause();
    };
    const fail = (error) => {
      if (settled) return;
      settled = true;
      stopInput();
      current?.destroy(error);
      extract.destroy();
      working.finally(() => reject(error));
    };
    const onFail = (error) => fail(error);
    const onClose = () => fail(new SnapshotInvalid('the archive ended before its end (the connection closed)'));
    const onEnd = () => {
      clearTimeout(idle);
      input.off('close', onClose);
      // fewer bytes than a compression's magic: the tar parser says what they are
      extract.end(head ?? Buffer.alloc(0));
    };
    /** Refuses a compressed stream at its first bytes, before the tar parser reads them. */
    const checkHead = (bytes) => {
      for (const [kind, magic] of COMPRESSED)
        if (bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b))
          throw new SnapshotInvalid(`the archive is ${kind}-compressed: send the tar archive itself (uncompressed)`);
    };
    const onData = (chunk) => {
      idle?.refresh();
      try {
        if (head !== null) {
          head = Buffer.concat([head, chunk]);
          if (head.length < 6) return;
          checkHead(head);
          chunk = head;
          head = null;
        }
      } catch (error) {
        fail(error);
        return;
      }
      if (!extract.write(chunk)) {
        input.pause();
        extract.once('drain', () => {
          if (!settled) input.resume();
        });
      }
    };
    extract.on('entry', (header, stream, next) => {
      index += 1;
      current = stream;
      // its error reaches the reader below
      stream.on('error', () => {});
      working = entry(header, stream, index).then(
        () => {
          current = undefined;
          next();
        },
        (error) => fail(error),
      );
    });
    extract.on('error', (error) => fail(error instanceof SnapshotInvalid ? error : notTar(error)));
    extract.on('finish', () => {
      if (settled) return;
      if (!manifest) return fail(new SnapshotInvalid('the archive holds no entry: it is empty, not a snapshot'));
      const missing = Object.keys(manifest.files).filter((name) => !seen.has(name));
      if (missing.length)
        return fail(
          new SnapshotInvalid(
            `${missing.length} file(s) the manifest lists are not in the archive (truncated?), the first "${missing[0]}"`,
          ),
        );
      settled = true;
      stopInput();
      resolve(manifest);
    });

    /** One entry: checked, then read (the manifest) or written to the staging directory. */
    async function entry(header, stream, at) {
      const { name, type, size } = header;
      const label = entryLabel(at, name);
      if (at > limits.entries)
        throw new SnapshotInvalid(`${label}: an archive holds at most ${limits.entries} entries`);
      if (type !== 'file')
        throw new SnapshotInvalid(`${label}: type ${type} is not allowed; a snapshot holds regular files only`);
      if (at === 1) {
        if (name !== 'manifest.json')
          throw new SnapshotInvalid(`the first entry must be manifest.json, not ${JSON.stringify(name)}`);
        if (size > limits.manifestBytes)
          throw new SnapshotInvalid(`${label}: ${size} bytes; a manifest is at most ${limits.manifestBytes} bytes`);
        manifest = checkManifest(await readAll(stream), limits, schema);
        const needed = Object.values(manifest.files).reduce((n, f) => n + f.size, 0);
        const { bavail, bsize } = statfsSync(dataDir);
        if (needed > bavail * bsize)
          throw Object.assign(
            new Error(`ENOSPC: the snapshot needs ${needed} bytes; the data dir has ${bavail * bsize} free`),
            { code: 'ENOSPC' },
          );
        return;
      }
      if (!isStateName(name))
        throw new SnapshotInvalid(`${label}: an entry path must be manifest.json, state.sqlite or images/<uuid>`);
      if (seen.has(name)) throw new SnapshotInvalid(`${label}: the archive holds it twice`);
      const listed = manifest?.files[name];
      if (!listed) throw new SnapshotInvalid(`${label}: the manifest does not list it`);
      if (size !== listed.size)
        throw new SnapshotInvalid(`${label}: ${size} bytes where the manifest says ${listed.size}`);
      seen.add(name);
      const file = join(dir, name);
      const hash = createHash('sha256');
      durable('write');
      const handle = await open(file, 'wx', 0o600);
      try {
        for await (const chunk of stream) {
          hash.update(chunk);
          await handle.write(chunk);
        }
        await handle.sync();
      } finally {
        await handle.close();
      }
      const sha256 = hash.digest('hex');
      if (sha256 !== listed.sha256)
        throw new SnapshotInvalid(`${label}: its sha256 is ${sha256} where the manifest says ${listed.sha256}`);
    }

    input.on('data', onData);
    input.once('end', onEnd);
    input.once('error', onFail);
    input.once('close', onClose);
    input.resume();
  });
}

/** A tar parser's refusal as the sender reads it. */
function notTar(error) {
  const m = String(error?.message ?? error);
  if (/unexpected end/i.test(m)) return new SnapshotInvalid('the archive is truncated: it ends inside an entry');
  return new SnapshotInvalid(`the bytes are not a tar archive (${m.replace(/\. Maybe.*$/, '')})`);
}

/** An entry's bytes (bounded by its declared size, checked before). */
async function readAll(stream) {
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * Checks a manifest's text.
 * @param {Buffer} bytes
 * @param {SnapshotLimits} limits
 * @param {number} schema  the newest state schema accepted
 * @returns {Manifest}
 * @throws {SnapshotInvalid}
 */
export function checkManifest(bytes, limits, schema) {
  let m;
  try {
    m = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new SnapshotInvalid('manifest.json is not JSON');
  }
  if (m === null || typeof m !== 'object' || Array.isArray(m))
    throw new SnapshotInvalid('manifest.json is not an object');
  if (m.format !== SNAPSHOT_FORMAT)
    throw new SnapshotInvalid(
      `manifest.json: format is ${JSON.stringify(m.format)}, not "${SNAPSHOT_FORMAT}": not a snapshot of the local svc`,
    );
  if (m.version !== SNAPSHOT_VERSION)
    throw new SnapshotInvalid(
      `manifest.json: version ${JSON.stringify(m.version)} is not one this simulator reads (${SNAPSHOT_VERSION})`,
    );
  if (!(Number.isInteger(m.schema) && m.schema >= 1))
    throw new SnapshotInvalid('manifest.json: schema must be an integer >= 1 (the state schema)');
  if (m.schema > schema)
    throw new SnapshotInvalid(
      `manifest.json: the state is of schema ${m.schema}, newer than this simulator's (${schema}): take it with a newer simulator`,
    );
  if (m.files === null || typeof m.files !== 'object' || Array.isArray(m.files))
    throw new SnapshotInvalid('manifest.json: files must be an object of name -> { size, sha256 }');
  const names = Object.keys(m.files);
  if (names.length + 1 > limits.entries)
    throw new SnapshotInvalid(`manifest.json: ${names.length} files; a snapshot holds at most ${limits.entries - 1}`);
  if (!names.includes('state.sqlite')) throw new SnapshotInvalid('manifest.json: files does not list state.sqlite');
  let total = 0;
  for (const name of names) {
    const f = m.files[name];
    const at = `manifest.json: files[${JSON.stringify(name.slice(0, 120))}]`;
    if (!isStateName(name)) throw new SnapshotInvalid(`${at}: a name must be state.sqlite or images/<uuid>`);
    if (f === null || typeof f !== 'object') throw new SnapshotInvalid(`${at} must be { size, sha256 }`);
    if (!(Number.isSafeInteger(f.size) && f.size >= 0)) throw new SnapshotInvalid(`${at}.size must be an integer >= 0`);
    if (f.size > limits.entryBytes)
      throw new SnapshotInvalid(`${at}.size: ${f.size} bytes; an entry is at most ${limits.entryBytes} bytes`);
    if (typeof f.sha256 !== 'string' || !SHA256.test(f.sha256))
      throw new SnapshotInvalid(`${at}.sha256 must be 64 lower-case hex digits`);
    total += f.size;
  }
  if (total > limits.totalBytes)
    throw new SnapshotInvalid(`manifest.json: ${total} bytes in all; a snapshot is at most ${limits.totalBytes} bytes`);
  return m;
}

/**
 * The default check of a staged database: an SQLite file in rollback-journal mode (as snapshots
 * write it) that passes `PRAGMA quick_check`, has no trigger or view, has the store's `documents`
 * table, and whose `meta/simulator` document names the manifest's schema.
 * @param {string} file
 * @param {Manifest} manifest
 * @throws {SnapshotInvalid} naming the rule
 */
export function checkStateFile(file, manifest) {
  const head = Buffer.alloc(100);
  const fd = openSync(file, 'r');
  let read;
  try {
    read = readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (read < 100 || head.toString('latin1', 0, 16) !== 'SQLite format 3\0')
    throw new SnapshotInvalid('state.sqlite is not an SQLite database');
  if (head[18] !== 1 || head[19] !== 1)
    throw new SnapshotInvalid(
      'state.sqlite is in WAL mode; a snapshot holds a rollback-journal database (VACUUM INTO)',
    );
  let db;
  try {
    db = new DatabaseSync(file, { readOnly: true });
  } catch (error) {
    throw new SnapshotInvalid(`state.sqlite cannot be opened: ${error.message}`);
  }
  try {
    db.exec('PRAGMA trusted_schema = OFF');
    const check = db.prepare('PRAGMA quick_check').all();
    if (check.length !== 1 || check[0].quick_check !== 'ok')
      throw new SnapshotInvalid(`state.sqlite is damaged: ${String(check[0]?.quick_check ?? 'quick_check failed')}`);
    const odd = db.prepare("SELECT type, name FROM sqlite_master WHERE type IN ('trigger', 'view')").all();
    if (odd.length)
      throw new SnapshotInvalid(`state.sqlite has a ${odd[0].type} (${odd[0].name}): not a state of ours`);
    const columns = db
      .prepare("SELECT name FROM pragma_table_info('documents')")
      .all()
      .map((c) => c.name);
    if (!['kind', 'uuid', 'doc'].every((c) => columns.includes(c)))
      throw new SnapshotInvalid('state.sqlite has no documents table (kind, uuid, doc): not a state of ours');
    const meta = db.prepare("SELECT doc FROM documents WHERE kind = 'meta' AND uuid = 'simulator'").get();
    let stored;
    try {
      stored = JSON.parse(String(meta?.doc)).schema;
    } catch {
      stored = undefined;
    }
    if (stored !== manifest.schema)
      throw new SnapshotInvalid(
        `state.sqlite is of schema ${JSON.stringify(stored)} where the manifest says ${manifest.schema}`,
      );
  } catch (error) {
    if (error instanceof SnapshotInvalid) throw error;
    throw new SnapshotInvalid(`state.sqlite cannot be read: ${error.message}`);
  } finally {
    db.close();
  }
}

/** What a snapshot replaces in the data dir, by what the staging directory holds. @type {[string, string[]][]} */
const PIECES = [
  ['state.sqlite', ['state.sqlite', 'state.sqlite-wal', 'state.sqlite-shm', 'state.sqlite-journal']],
  ['images', ['images']],
];

/**
 * Writes a file whole or not at all: a temporary file, fsync, rename, fsync of the directory.
 * @param {string} file
 * @param {string} text
 */
function writeWhole(file, text) {
  const temp = `${file}.tmp`;
  durable('write');
  const fd = openSync(temp, 'w', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  durable('rename');
  renameSync(temp, file);
  syncDir(join(file, '..'));
}

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
  writeWhole(join(root, MARKER), JSON.stringify(marker));
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
  durable('unlink');
  rmSync(old, { recursive: true, force: true });
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
    if (outcome === 'none' && (name.startsWith('staging-') || name === `${MARKER}.tmp`)) outcome = 'rolled-back';
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
