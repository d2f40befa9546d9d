// Image bytes: one file per image in `<data dir>/images/<uuid>`, written to `<uuid>.part` first and
// renamed when complete, so a stop never leaves a half image behind under the real name.

import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { TaskError } from './tasks.js';

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
   * @param {{ limit?: number, algorithm?: 'sha1' | 'sha256', signal?: AbortSignal }} [o]
   * @returns {Promise<{ size: number, digest?: string }>}
   * @throws {RangeError} when more than `limit` bytes arrive (nothing is kept)
   */
  async function write(uuid, source, { limit = Infinity, algorithm, signal } = {}) {
    const part = `${pathOf(uuid)}.part`;
    if (limit === Infinity && !algorithm) {
      // nothing to count or hash on the way: the shortest pipe, socket to file
      // 1 MiB of buffer lets fs coalesce the socket's 64 KiB chunks into fewer, larger writes
      const file = createWriteStream(part, { highWaterMark: 1 << 20 });
      try {
        await pipeline(source, file, { signal });
      } catch (error) {
        rmSync(part, { force: true });
        throw error;
      }
      return {
        size: file.bytesWritten,
        digest: undefined,
        commit: () => renameSync(part, pathOf(uuid)),
        discard: () => rmSync(part, { force: true }),
      };
    }
    const hash = algorithm ? createHash(algorithm) : undefined;
    let size = 0;
    const count = new Transform({
      transform(chunk, _enc, done) {
        size += chunk.length;
        if (size > limit) return done(new RangeError(`more than ${limit} bytes`));
        hash?.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(source, count, createWriteStream(part, { highWaterMark: 1 << 20 }), { signal });
    } catch (error) {
      rmSync(part, { force: true });
      throw error;
    }
    return {
      size,
      digest: hash?.digest('hex'),
      commit: () => renameSync(part, pathOf(uuid)),
      discard: () => rmSync(part, { force: true }),
    };
  }

  return {
    write,
    /** Size in bytes of the image's file, or undefined when it has none. */
    size: (uuid) => (existsSync(pathOf(uuid)) ? statSync(pathOf(uuid)).size : undefined),
    read: (uuid) => createReadStream(pathOf(uuid)),
    remove: (uuid) => {
      rmSync(pathOf(uuid), { force: true });
      rmSync(`${pathOf(uuid)}.part`, { force: true });
    },
    /**
     * Fetches `url` (http or https) into the image's file, as the service does for `source_uri`.
     * @param {string} uuid
     * @param {string} url
     * @param {{ limit: number, timeoutMs: number, insecure?: boolean, signal?: AbortSignal }} o
     * @returns {Promise<number>} the size in bytes
     * @throws {TaskError} with error_code and error_detail when the source cannot be read
     */
    async fetchSource(uuid, url, { limit, timeoutMs, insecure, signal }) {
      const failed = (detail) => new TaskError('5', `Could not access the URL ${url}: ${detail}`);
      let parsed;
      try {
        parsed = new URL(url);
      } catch {
        throw failed('not a URL');
      }
      if (!/^https?:$/.test(parsed.protocol))
        throw failed(`the scheme ${parsed.protocol} is not fetched by the simulator (http and https only)`);
      const timeout = AbortSignal.timeout(timeoutMs);
      const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
      // imported here: only source fetches need it (some 20 MB of memory)
      const { fetch, Agent } = await import('undici');
      const dispatcher = insecure ? new Agent({ connect: { rejectUnauthorized: false } }) : undefined;
      try {
        const response = await fetch(url, { signal: both, dispatcher, redirect: 'follow' });
        if (!response.ok || !response.body) {
          await response.body?.cancel();
          throw failed(`${response.status} ${response.statusText}`);
        }
        const declared = Number(response.headers.get('content-length'));
        if (Number.isFinite(declared) && declared > limit) {
          await response.body.cancel();
          throw failed(`the image is ${declared} bytes, more than the limit of ${limit}`);
        }
        const written = await write(uuid, response.body, { limit, signal: both });
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
