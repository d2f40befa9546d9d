// Image bytes on disk (src/domain/files.js): a request's body chunks are freed as soon as they are
// written (so a 1 GiB upload does not leave some 65 MB of dead socket buffers in the RSS: the bench
// holds that figure), while buffers of any other source, which their owner may still use, are
// left as they are. Either way the file holds the bytes sent, byte for byte.
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFiles } from '../src/domain/files.js';

let dir;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-sim-files-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Bytes 0..n-1 of a repeating pattern that shows a chunk out of place. */
const pattern = (n) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7 + (i >> 12)) % 251));

describe('files.write', () => {
  it("frees a request body's chunks once written, and stores every byte", async () => {
    const files = createFiles(dir);
    const sent = pattern(3 * 1024 * 1024 + 123);
    const seen = [];
    const server = createServer(async (req, res) => {
      req.on('data', (chunk) => seen.push({ chunk, length: chunk.length }));
      const written = await files.write('u1', req);
      written.commit();
      res.end(String(written.size));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const answer = await new Promise((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: server.address().port, method: 'PUT', path: '/' }, (res) => {
          let text = '';
          res.on('data', (c) => {
            text += c;
          });
          res.on('end', () => resolve(text));
        });
        req.on('error', reject);
        // in pieces, so that the server reads many chunks
        for (let at = 0; at < sent.length; at += 100_000) req.write(sent.subarray(at, at + 100_000));
        req.end();
      });
      expect(answer).toBe(String(sent.length));
    } finally {
      server.close();
      server.closeAllConnections();
    }
    expect(readFileSync(join(dir, 'images', 'u1')).equals(sent)).toBe(true);
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.reduce((n, s) => n + s.length, 0)).toBe(sent.length);
    // every chunk the request delivered is released (detached: length 0)
    expect(seen.filter((s) => s.chunk.length !== 0)).toEqual([]);
  });

  it("leaves another source's buffers as they are", async () => {
    const files = createFiles(dir);
    const block = pattern(64 * 1024);
    const written = await files.write('u2', Readable.from([block, block, block]));
    written.commit();
    expect(block.length).toBe(64 * 1024);
    expect(block.equals(pattern(64 * 1024))).toBe(true);
    expect(readFileSync(join(dir, 'images', 'u2')).equals(Buffer.concat([block, block, block]))).toBe(true);
  });
});
