// Image bytes: one file per image in `<data dir>/images/<uuid>`, written to `<uuid>.<writer>.part`
// first and renamed when complete, so a stop never leaves a half image behind under the real name.
// Only the image domain (images.js) calls this, once it holds the image's one writer slot.

import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, WriteStream } from 'node:fs';
import { open as fsOpen, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { redact, withoutCredentials } from '../errors.js';
import { durable } from './durable.js';
import { TaskError } from './tasks.js';

/** A URL's user name or password as typed (`p%40ss` -> `p@ss`); an escape that is not UTF-8 stays as it is. */
function decoded(part) {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** The name's start of a folder of image files a reset set aside: `<data dir>/images.trash-<id>`. */
const TRASH = 'images.trash-';

/** Error codes of the local file system (as opposed to the network) while storing fetched bytes. */
const STORAGE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EACCES', 'EPERM', 'EROFS', 'EIO', 'ENOENT', 'EMFILE']);

/** A body that stopped arriving: it was silent for longer than its idle timeout (`write`'s `idleMs`). */
export class SourceIdle extends Error {
  /** @param {number} idleMs */
  constructor(idleMs) {
    super(`no byte of the body arrived for ${idleMs / 1000} s`);
    this.code = 'SOURCE_IDLE';
    this.idleMs = idleMs;
  }
}

/**
 * The bytes of `source` through a stream of their own, so that an error downstream stops the copy
 * without destroying `source`, and `source` closing early, or silent for `idleMs`, fails the copy
 * (the same way: the write is abandoned and `source` is left to its owner).
 * @param {Readable} source
 * @param {number} idleMs  Infinity: no idle timeout
 * @returns {Readable}
 */
function detached(source, idleMs) {
  const copy = new PassThrough();
  const early = () => {
    if (!source.readableEnded) copy.destroy(new Error('the connection closed before the end of the body'));
  };
  const timer = Number.isFinite(idleMs) ? setTimeout(() => copy.destroy(new SourceIdle(idleMs)), idleMs) : undefined;
  const arrived = () => timer?.refresh();
  if (timer) source.on('data', arrived);
  source.once('close', early);
  source.once('error', early);
  copy.once('close', () => {
    clearTimeout(timer);
    source.off('data', arrived);
    source.unpipe(copy);
  });
  source.pipe(copy);
  return copy;
}

// as index.js: an ES import of node:http would load undici and node:http2 with it
const { IncomingMessage } = process.getBuiltinModule('node:http');

/**
 * Frees a chunk's memory now, when the chunk is the only view of its ArrayBuffer (detaching the
 * buffer: the chunk's length becomes 0). Only for chunks nothing else holds.
 * @param {Buffer} chunk
 */
function release(chunk) {
  const buffer = chunk.buffer;
  if (chunk.byteOffset !== 0 || chunk.byteLength !== buffer.byteLength || !(buffer instanceof ArrayBuffer)) return;
  try {
    /** @type {any} */ (buffer).transfer(0); // ES2024, in every Node the package supports
  } catch {
    // not detachable: the garbage collector frees it
  }
}

/**
 * The file stream of every image file: each write is a durable write (durable.js, the crash
 * tests' seam), and, with `releasing`, each chunk is freed once it is on disk. Why free: a
 * request's body arrives in 64 KiB buffers whose JS objects are tiny, so V8 collects them only
 * after some 64 MB of them, and glibc keeps the freed memory: a 1 GiB upload raised the RSS by
 * 65 MB. Freed at once, the next chunk takes the same memory. Only for chunks that nothing else
 * holds: a request's body (Node's HTTP parser copies each into a buffer of its own).
 */
class ImageWriteStream extends WriteStream {
  releasing = false;
  /** @param {Buffer} chunk @param {BufferEncoding} encoding @param {(error?: Error | null) => void} done */
  _write(chunk, encoding, done) {
    try {
      durable('write');
    } catch (error) {
      return done(error);
    }
    super._write(chunk, encoding, (error) => {
      if (this.releasing) release(chunk);
      done(error);
    });
  }
  /** @param {{ chunk: Buffer, encoding: BufferEncoding }[]} chunks @param {(error?: Error | null) => void} done */
  _writev(chunks, done) {
    try {
      durable('write');
    } catch (error) {
      return done(error);
    }
    super._writev(chunks, (error) => {
      if (this.releasing) for (const { chunk } of chunks) release(chunk);
      done(error);
    });
  }
}

/** Removes a file, a durable write when there is one to remove. */
function unlink(path) {
  if (!existsSync(path)) return;
  durable('unlink');
  rmSync(path, { force: true });
}

/**
 * @param {string} dataDir
 */
export function createFiles(dataDir) {
  const dir = join(dataDir, 'images');
  mkdirSync(dir, { recursive: true });
  const pathOf = (uuid) => join(dir, uuid);

  /**
   * Streams bytes into the image's file, counting them and hashing them with `algorithm`.
   * @param {string} uuid
   * @param {NodeJS.ReadableStream | AsyncIterable<Uint8Array>} source
   * @param {{ writer?: 'upload' | 'stage' | 'fetch', limit?: number, algorithm?: 'sha1' | 'sha256', signal?: AbortSignal,
   *   progress?: (bytes: number) => void, idleMs?: number }} [o]  `idleMs`: how long a Readable source may
   *   be silent, in ms (default: no limit)
   * @returns {Promise<{ size: number, digest?: string, commit: () => void, discard: () => void }>}
   * @throws {RangeError} when more than `limit` bytes arrive (nothing is kept); {SourceIdle} when the
   *   source is silent for `idleMs` (nothing is kept); the stream's error otherwise
   */
  async function write(
    uuid,
    source,
    { writer = 'upload', limit = Infinity, algorithm, signal, progress, idleMs = Infinity } = {},
  ) {
    // the request's chunks are ours alone: freed as soon as they are written
    const ours = source instanceof IncomingMessage;
    // a request is piped, not handed to pipeline: a failed write (a full disk) must leave the
    // socket alive for the answer that says so
    if (source instanceof Readable) source = detached(source, idleMs);
    const part = `${pathOf(uuid)}.${writer}.part`;
    const hash = algorithm ? createHash(algorithm) : undefined;
    let size = 0;
    // 1 MiB of buffer lets fs coalesce the socket's 64 KiB chunks into fewer, larger writes
    const options = { highWaterMark: 1 << 20 };
    // @ts-expect-error fs.WriteStream takes (path, options); @types/node declares no constructor arguments
    const file = new ImageWriteStream(part, options);
    file.releasing = ours;
    // nothing to count, hash or report on the way: the shortest pipe, socket to file
    const plain = limit === Infinity && !hash && !progress;
    const count = new Transform({
      transform(chunk, _enc, done) {
        size += chunk.length;
        if (size > limit) return done(new RangeError(`more than ${limit} bytes`));
        hash?.update(chunk);
        progress?.(size);
        done(null, chunk);
      },
    });
    try {
      await (plain ? pipeline(source, file, { signal }) : pipeline(source, count, file, { signal }));
    } catch (error) {
      unlink(part);
      throw error;
    }
    return {
      size: plain ? file.bytesWritten : size,
      digest: hash?.digest('hex'),
      commit() {
        durable('rename');
        renameSync(part, pathOf(uuid));
      },
      discard: () => unlink(part),
    };
  }

  return {
    write,
    /** Size in bytes of the image's file, or undefined when it has none. */
    size: (uuid) => (existsSync(pathOf(uuid)) ? statSync(pathOf(uuid)).size : undefined),
    /**
     * The image's bytes to read: its file opened now (so that a delete after this leaves the
     * reader its bytes) and their size. The stream closes the file when it ends or is destroyed.
     * @param {string} uuid
     * @returns {Promise<{ size: number, stream: import('node:stream').Readable } | undefined>} undefined
     *   when the image has no file (never written, or removed)
     * @throws {NodeJS.ErrnoException} when the file exists but cannot be opened
     */
    async open(uuid) {
      let handle;
      try {
        handle = await fsOpen(pathOf(uuid), 'r');
      } catch (error) {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      }
      try {
        const { size } = await handle.stat();
        return { size, stream: handle.createReadStream() };
      } catch (error) {
        await handle.close();
        throw error;
      }
    },
    /** Removes the image's file and any partial one. */
    remove: (uuid) => {
      unlink(pathOf(uuid));
      for (const writer of ['upload', 'stage', 'fetch']) unlink(`${pathOf(uuid)}.${writer}.part`);
    },
    /**
     * Start-up: removes every partial file (nothing is writing yet, so each was left by a stop),
     * and every image file that `keep` does not claim but `explained` accounts for (its image is
     * there without bytes, or its delete committed). A file neither accounts for is left as it is.
     * @param {{ keep: (uuid: string) => boolean, explained: (uuid: string) => boolean }} o
     * @returns {{ removed: string[], unexplained: string[] }} the names of the files removed, and of
     *   those no one accounts for
     */
    sweep({ keep, explained }) {
      const removed = [];
      const unexplained = [];
      for (const name of readdirSync(dir)) {
        if (!name.endsWith('.part') && keep(name)) continue;
        if (!name.endsWith('.part') && !explained(name)) {
          unexplained.push(name);
          continue;
        }
        unlink(join(dir, name));
        removed.push(name);
      }
      return { removed, unexplained };
    },
    /** The names in the images folder (none when it is not there yet). */
    names: () => (existsSync(dir) ? readdirSync(dir) : []),
    /**
     * Fetches `url` (http or https) into the image's file, as the service does for `source_uri`.
     * User info in the URL (`https://user:password@host/...`) is sent as basic authentication, not
     * in the URL (fetch() takes no URL with credentials), and is never shown.
     * @param {string} uuid
     * @param {string} url
     * @param {{ limit: number, timeoutMs: number, insecure?: boolean, signal?: AbortSignal,
     *   progress?: (bytes: number, total: number) => void, trust?: (url: URL) => string | undefined }} o
     *   `trust`: the CA to trust for a URL (the simulator's own certificate for its own URLs)
     * @returns {Promise<number>} the size in bytes
     * @throws {TaskError} with error_code and error_detail (the URL without its credentials) when
     *   the source cannot be read or its bytes cannot be stored
     */
    async fetchSource(uuid, url, { limit, timeoutMs, insecure, signal, progress, trust }) {
      const shown = withoutCredentials(url);
      const failed = (detail) => new TaskError('5', `Could not access the URL ${shown}: ${redact(detail, [url])}`);
      let parsed;
      try {
        parsed = new URL(url);
      } catch {
        throw failed('not a URL');
      }
      if (!/^https?:$/.test(parsed.protocol))
        throw failed(`the scheme ${parsed.protocol} is not fetched by the simulator (http and https only)`);
      /** @type {Record<string, string>} */
      const headers = {};
      if (parsed.username || parsed.password) {
        const pair = `${decoded(parsed.username)}:${decoded(parsed.password)}`;
        headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
        parsed.username = '';
        parsed.password = '';
      }
      const timeout = AbortSignal.timeout(timeoutMs);
      const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
      // imported here: only source fetches need it (some 20 MB of memory)
      const { fetch, Agent } = await import('undici');
      const ca = trust?.(parsed);
      const dispatcher = insecure
        ? new Agent({ connect: { rejectUnauthorized: false } })
        : ca
          ? new Agent({ connect: { ca } })
          : undefined;
      try {
        // a redirect to another origin drops the authorization header (the fetch standard, undici)
        const response = await fetch(parsed.href, { signal: both, dispatcher, redirect: 'follow', headers });
        if (!response.ok || !response.body) {
          await response.body?.cancel();
          throw failed(`${response.status} ${response.statusText}`);
        }
        const declared = Number(response.headers.get('content-length'));
        if (Number.isFinite(declared) && declared > limit) {
          await response.body.cancel();
          throw failed(`the image is ${declared} bytes, more than the limit of ${limit}`);
        }
        const total = Number.isFinite(declared) && declared > 0 ? declared : 0;
        progress?.(0, total);
        let written;
        try {
          written = await write(uuid, response.body, {
            writer: 'fetch',
            limit,
            signal: both,
            progress: (bytes) => progress?.(bytes, total),
          });
        } catch (error) {
          if (STORAGE_CODES.has(error?.code))
            throw new TaskError(
              'STORAGE_ERROR',
              `The image from ${shown} could not be stored: ${error.code} (${error.syscall ?? 'write'}) in the simulator's data directory`,
            );
          throw error;
        }
        written.commit();
        return written.size;
      } catch (error) {
        if (error instanceof TaskError) throw error;
        if (signal?.aborted) throw error;
        if (timeout.aborted) throw failed(`no complete answer within ${timeoutMs} ms`);
        if (error instanceof RangeError) throw failed(`the image is more than the limit of ${limit} bytes`);
        throw failed(error.cause?.message ?? error.message);
      } finally {
        await dispatcher?.close();
      }
    },
  };
}

/**
 * Sets every image file of a data dir aside at once (a reset: one rename of the folder, a new empty
 * one in its place) and deletes them behind; what a stop leaves of them, `removeTrash` removes.
 * @param {string} dataDir
 */
export function discardImageFiles(dataDir) {
  const dir = join(dataDir, 'images');
  const trash = join(dataDir, `${TRASH}${randomBytes(6).toString('hex')}`);
  durable('rename');
  renameSync(dir, trash);
  mkdirSync(dir);
  rm(trash, { recursive: true, force: true }).catch(() => {});
}

/**
 * Start-up: removes the image files a reset set aside and a stop left undeleted.
 * @param {string} dataDir
 */
export function removeTrash(dataDir) {
  if (!existsSync(dataDir)) return;
  for (const name of readdirSync(dataDir))
    if (name.startsWith(TRASH)) rmSync(join(dataDir, name), { recursive: true, force: true });
}
