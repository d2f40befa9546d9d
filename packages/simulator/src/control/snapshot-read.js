// Reading a snapshot archive (`PUT /_svc/snapshot`, `--snapshot FILE`): untrusted input. The
// archive is checked whole while it is unpacked into a staging directory of the data dir
// (`snapshots/staging-<id>/`), every path, type, size and hash before a byte is kept, and the
// staged files fsync'd at the end; snapshot.js installs it.
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import tar from 'tar-stream';
import { durable } from '../domain/durable.js';
import { DatabaseSync } from '../domain/store.js';
import {
  entryLabel,
  isStateName,
  newDir,
  SHA256,
  SNAPSHOT_FORMAT,
  SNAPSHOT_LIMITS,
  SNAPSHOT_VERSION,
  SnapshotInvalid,
  syncDir,
} from './snapshot.js';

/** @typedef {import('./snapshot.js').SnapshotLimits} SnapshotLimits */
/** @typedef {import('./snapshot.js').Manifest} Manifest */

/** How many staged files are fsync'd at once (each waits on the disk, not the CPU). */
const SYNCS_AT_ONCE = 16;

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
    /** @type {string[]} the files written, fsync'd together once all are there */
    const written = [];
    const manifest = await unpack(input, dir, dataDir, limits, schema, idleMs ?? Infinity, written);
    await syncAll(written);
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
function unpack(input, dir, dataDir, limits, schema, idleMs, written) {
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
      // written as the bytes come, each in one call of its own: a chunk goes to the page cache at
      // once, and the fsyncs wait for the end (syncAll)
      const fd = openSync(file, 'wx', 0o600);
      written.push(file);
      try {
        for await (const chunk of stream) {
          hash.update(chunk);
          for (let at = 0; at < chunk.length; ) at += writeSync(fd, chunk, at);
        }
      } finally {
        closeSync(fd);
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

/** fsync of every file, SYNCS_AT_ONCE at a time: the disk takes them together, not one after another. */
async function syncAll(files) {
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const handle = await open(files[next++], 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    }
  };
  await Promise.all(Array.from({ length: SYNCS_AT_ONCE }, worker));
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
