// The static side of startExplorer: compression, validators, ranges, long caching of
// fingerprinted names, and the live-reload option used by `npm run dev`.

import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { EVENTS_PATH, injectReload, startExplorer } from '../src/index.js';

/** GET with exactly these headers; the body as received (not decoded). */
function get(url, headers = {}) {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

let dir;
let explorer;
let bundle;

beforeAll(async () => {
  dir = inject('explorerDist'); // built once for all the test files
  bundle = readdirSync(dir).find((f) => /^swagger-ui-bundle\.[0-9a-f]{10}\.js$/.test(f));
  explorer = await startExplorer({ dir, mocks: {} });
});

afterAll(async () => {
  await explorer?.close();
});

describe('static files', () => {
  it('fingerprints the Swagger UI files, and browsers keep them for a year', async () => {
    expect(readFileSync(join(dir, 'index.html'), 'utf8')).toContain(`src="./${bundle}"`);
    const res = await get(`${explorer.url}${bundle}`);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const path of ['', 'explorer.js', 'specs/central.json']) {
      expect((await get(`${explorer.url}${path}`)).headers['cache-control'], path).toBe('no-cache');
    }
  });

  it('compresses with brotli or gzip as the browser accepts, and says it varies', async () => {
    const original = readFileSync(join(dir, bundle));
    const br = await get(`${explorer.url}${bundle}`, { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.body.length).toBeLessThan(original.length / 3);
    expect(brotliDecompressSync(br.body).equals(original)).toBe(true);
    const gz = await get(`${explorer.url}${bundle}`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(original)).toBe(true);
    const plain = await get(`${explorer.url}${bundle}`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(original)).toBe(true);
    const spec = await get(`${explorer.url}specs/central.json`, { 'accept-encoding': 'br' });
    expect(spec.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(spec.body).toString()).openapi).toMatch(/^3\.1/);
  });

  it('answers 304 to a request that has the current ETag, for files and for the specs made here', async () => {
    for (const path of [bundle, 'explorer.js', 'specs/central.json']) {
      const first = await get(`${explorer.url}${path}`, { 'accept-encoding': 'br' });
      expect(first.headers.etag, path).toBeTruthy();
      const again = await get(`${explorer.url}${path}`, {
        'accept-encoding': 'br',
        'if-none-match': first.headers.etag,
      });
      expect(again.status, path).toBe(304);
      expect(again.body.length, path).toBe(0);
      const stale = await get(`${explorer.url}${path}`, { 'if-none-match': '"other"' });
      expect(stale.status, path).toBe(200);
    }
  });

  it('serves byte ranges, uncompressed', async () => {
    const original = readFileSync(join(dir, bundle));
    const res = await get(`${explorer.url}${bundle}`, { range: 'bytes=100-199', 'accept-encoding': 'br' });
    expect(res.status).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes 100-199/${original.length}`);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.equals(original.subarray(100, 200))).toBe(true);
  });

  it('has no live reload unless asked', async () => {
    expect((await get(explorer.url)).body.toString()).not.toContain('EventSource');
    expect((await get(new URL(EVENTS_PATH, explorer.url).href)).status).toBe(404);
  });
});

describe('live reload', () => {
  it('puts the EventSource script before </body>, or at the end', () => {
    expect(injectReload('<html><body>x</body></html>')).toMatch(
      /x<script>[^<]*new EventSource\("\/__dev\/events"\)[^<]*<\/script><\/body><\/html>$/,
    );
    expect(injectReload('<p>x')).toMatch(/^<p>x<script>/);
  });

  it('adds the reload script to the page and sends reload events to open pages', async () => {
    const dev = await startExplorer({ dir, liveReload: true });
    try {
      const page = await get(dev.url, { 'accept-encoding': 'br' });
      const html = (page.headers['content-encoding'] === 'br' ? brotliDecompressSync(page.body) : page.body).toString();
      expect(html).toMatch(new RegExp(`<script>[^<]*new EventSource\\("${EVENTS_PATH}"\\)`));
      expect(page.headers['cache-control']).toBe('no-store');
      const res = await fetch(new URL(EVENTS_PATH, dev.url));
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let text = decoder.decode((await reader.read()).value);
      expect(text).toContain(': connected');
      dev.reload('central');
      for (let i = 0; i < 10 && !text.includes('event: reload'); i++)
        text += decoder.decode((await reader.read()).value);
      expect(text).toContain('event: reload\ndata: "central"');
      await reader.cancel();
    } finally {
      await dev.close();
    }
  });
});

describe('a spec it cannot read', () => {
  it('answers 500 naming the spec and the error code, never the local path', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'explorer-unreadable-'));
    cpSync(dir, copy, { recursive: true });
    // a link to itself: Node's message would be "ELOOP: ..., open '<the path>'"
    symlinkSync('loop.json', join(copy, 'specs', 'loop.json'));
    const broken = await startExplorer({ dir: copy, mocks: {} });
    try {
      const res = await get(`${broken.url}specs/loop.json`);
      expect(res.status).toBe(500);
      expect(res.body.toString()).toBe('Cannot read /specs/loop.json: ELOOP\n');
    } finally {
      await broken.close();
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
