// Snapshots (src/control/snapshot.js): the archive written, read back, installed, and every
// hostile archive refused with the rule it broke, the data dir untouched.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createSnapshot,
  installSnapshot,
  recoverSnapshot,
  SnapshotInvalid,
  stageSnapshot,
} from '../src/control/snapshot.js';
import { DatabaseSync } from '../src/domain/store.js';
import {
  archiveOf,
  bytesOf,
  documentsOf,
  entriesOf,
  fingerprint,
  makeDataDir,
  manifestOf,
  SCHEMA,
  tarOf,
} from './support/snapshot.js';

const A = '0e09cf83-ac68-4f28-af70-6df9a43df4f0';
const B = 'c2d4b1f5-8a3e-4c6b-9f1d-2e7a5b3c9d10';
const C = '7f3c2a1e-5b4d-4e8f-9a6c-1d2b3e4f5a60';
const sha = (bytes) => createHash('sha256').update(bytes).digest('hex');

const dirs = [];
const dataDir = (o) => {
  const dir = makeDataDir(o);
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** stageSnapshot of `bytes` into `dir`: the staged directory, or the error. */
const stage = (dir, bytes, o = {}) =>
  stageSnapshot(dir, Readable.from([bytes]), { schema: SCHEMA, ...o }).catch((error) => error);

describe('createSnapshot', () => {
  it('writes a tar archive: manifest.json first (format, version, schema, each file size and sha256), then the files', async () => {
    const src = dataDir({ images: { [A]: Buffer.from('disk A'), [B]: Buffer.alloc(70_000, 7) } });
    const entries = await entriesOf(await archiveOf(src));
    expect(entries.map((e) => `${e.name} ${e.type}`)).toEqual([
      'manifest.json file',
      'state.sqlite file',
      `images/${A} file`,
      `images/${B} file`,
    ]);
    const manifest = JSON.parse(entries[0].body.toString());
    expect(manifest).toMatchObject({ format: 'svc-snapshot', version: 1, schema: SCHEMA, simulator: '0.1.0-test' });
    for (const e of entries.slice(1))
      expect(manifest.files[e.name]).toEqual({ size: e.body.length, sha256: sha(e.body) });
    expect(Object.keys(manifest.files)).toHaveLength(3);
  });

  it('copies the state when called: later changes are not in the archive, and the copy is removed after it', async () => {
    const src = dataDir({ images: { [A]: Buffer.from('disk A') } });
    const stream = await createSnapshot(src, { schema: SCHEMA, simulator: 'x' });
    // the image is deleted and the state changes before a byte of the archive is read
    unlinkSync(join(src, 'images', A));
    const db = new DatabaseSync(join(src, 'state.sqlite'));
    db.exec("DELETE FROM documents WHERE kind = 'note'");
    db.close();
    const entries = await entriesOf(await bytesOf(stream));
    expect(entries.find((e) => e.name === `images/${A}`)?.body.toString()).toBe('disk A');
    const copy = dataDir();
    const staged = await stage(copy, await tarOf(entries.map(({ name, body }) => ({ name, body }))));
    installSnapshot(copy, staged.dir);
    expect(documentsOf(copy).filter((d) => d.startsWith('note/'))).toHaveLength(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(readdirSync(join(src, 'snapshots'))).toEqual([]);
  });

  it('removes its copy when the stream is destroyed half-way', async () => {
    const src = dataDir({ images: { [A]: Buffer.alloc(4 * 1024 * 1024, 1) } });
    const stream = await createSnapshot(src, { schema: SCHEMA, simulator: 'x' });
    await new Promise((resolve) => stream.once('data', resolve));
    stream.destroy();
    await new Promise((resolve) => stream.once('close', resolve));
    expect(readdirSync(join(src, 'snapshots'))).toEqual([]);
  });
});

describe('stageSnapshot and installSnapshot', () => {
  it("replaces the state and the images by the archive's, keeps the password and tls/, leaves nothing in snapshots/", async () => {
    const src = dataDir({ images: { [A]: Buffer.from('disk A'), [B]: Buffer.from('disk B') }, name: 'new' });
    const dst = dataDir({ images: { [C]: Buffer.from('old disk') }, name: 'old', wal: true });
    const wanted = documentsOf(src);
    const staged = await stage(dst, await archiveOf(src));
    expect(staged.manifest.schema).toBe(SCHEMA);
    // staged, not installed: the data dir is as it was
    expect(documentsOf(dst)).not.toEqual(wanted);
    installSnapshot(dst, staged.dir);
    // the old state is deleted behind the install: wait for it
    for (let i = 0; i < 400 && fingerprint(dst).snapshots.length; i++) await new Promise((r) => setTimeout(r, 10));
    const after = fingerprint(dst);
    expect(documentsOf(dst)).toEqual(wanted);
    expect(after).toMatchObject({
      wal: false,
      images: { [A]: sha('disk A'), [B]: sha('disk B') },
      password: 'kept\n',
      cert: 'cert',
      snapshots: [],
    });
    expect(recoverSnapshot(dst)).toBe('none');
  });

  it('takes an empty state (no image) and then has no image', async () => {
    const src = dataDir();
    rmSync(join(src, 'images'), { recursive: true });
    const dst = dataDir({ images: { [C]: Buffer.from('old') } });
    const staged = await stage(dst, await archiveOf(src));
    installSnapshot(dst, staged.dir);
    expect(fingerprint(dst).images).toEqual({});
  });
});

describe('stageSnapshot refuses a damaged or foreign archive, naming the rule; the data dir is untouched', () => {
  const state = () => {
    const src = makeDataDir();
    const db = join(src, 'staged.sqlite');
    const live = new DatabaseSync(join(src, 'state.sqlite'));
    live.prepare('VACUUM INTO ?').run(db);
    live.close();
    const bytes = Buffer.from(new Uint8Array(require_bytes(db)));
    rmSync(src, { recursive: true, force: true });
    return bytes;
  };
  const db = state();
  const image = Buffer.from('image bytes');
  const good = { 'state.sqlite': db, [`images/${A}`]: image };
  const entries = (files, manifest = manifestOf(files)) => [
    { name: 'manifest.json', body: manifest },
    ...Object.entries(files).map(([name, body]) => ({ name, body })),
  ];
  const foreignDb = (() => {
    const dir = makeDataDir();
    const file = join(dir, 'other.sqlite');
    const other = new DatabaseSync(file);
    other.exec('CREATE TABLE things (x)');
    other.close();
    const bytes = Buffer.from(require_bytes(file));
    rmSync(dir, { recursive: true, force: true });
    return bytes;
  })();
  const triggered = (() => {
    const dir = makeDataDir();
    const file = join(dir, 'trig.sqlite');
    const live = new DatabaseSync(join(dir, 'state.sqlite'));
    live.prepare('VACUUM INTO ?').run(file);
    live.close();
    const t = new DatabaseSync(file);
    t.exec('CREATE TRIGGER evil AFTER INSERT ON documents BEGIN DELETE FROM documents; END');
    t.close();
    const bytes = Buffer.from(require_bytes(file));
    rmSync(dir, { recursive: true, force: true });
    return bytes;
  })();

  /** [name, the archive's bytes (or a function of them), the rule the message must name, limits] */
  const cases = [
    [
      'path traversal',
      async () => tarOf(entries(good).concat({ name: '../escape', body: 'x' })),
      /entry 4 "..\/escape": an entry path must be/,
    ],
    [
      'absolute path',
      async () => tarOf(entries(good).concat({ name: '/etc/passwd', body: 'x' })),
      /"\/etc\/passwd": an entry path must be/,
    ],
    [
      'dot-dot inside images/',
      async () => tarOf(entries(good).concat({ name: 'images/../../x', body: 'x' })),
      /an entry path must be/,
    ],
    [
      'a name the manifest does not list',
      async () => tarOf(entries({ 'state.sqlite': db }).concat({ name: `images/${B}`, body: 'x' })),
      /the manifest does not list it/,
    ],
    [
      'symlink',
      async () => tarOf(entries(good).concat({ name: `images/${B}`, type: 'symlink', linkname: '/etc/passwd' })),
      /type symlink is not allowed/,
    ],
    [
      'hardlink',
      async () => tarOf(entries(good).concat({ name: `images/${B}`, type: 'link', linkname: 'state.sqlite' })),
      /type link is not allowed/,
    ],
    [
      'directory',
      async () => tarOf([entries(good)[0], { name: 'images', type: 'directory' }]),
      /type directory is not allowed/,
    ],
    [
      'device',
      async () => tarOf([entries(good)[0], { name: 'state.sqlite', type: 'character-device', devmajor: 1 }]),
      /type character-device is not allowed/,
    ],
    ['fifo', async () => tarOf([entries(good)[0], { name: 'state.sqlite', type: 'fifo' }]), /type fifo is not allowed/],
    ['an entry twice', async () => tarOf(entries(good).concat({ name: `images/${A}`, body: image })), /holds it twice/],
    [
      'a huge declared size (pax)',
      async () => tarOf([entries(good)[0], { name: 'state.sqlite', body: 'x', pax: { size: '99999999999999' } }]),
      /99999999999999 bytes where the manifest says/,
    ],
    [
      'a huge size in the manifest',
      async () =>
        tarOf(entries(good, manifestOf(good, { files: { 'state.sqlite': { size: 2 ** 50, sha256: sha(db) } } }))),
      /an entry is at most/,
    ],
    ['past the total limit', async () => tarOf(entries(good)), /a snapshot is at most 100 bytes/, { totalBytes: 100 }],
    ['too many entries', async () => tarOf(entries(good)), /holds at most 1/, { entries: 2 }],
    [
      'a manifest past its limit',
      async () => tarOf(entries(good)),
      /a manifest is at most 10 bytes/,
      { manifestBytes: 10 },
    ],
    ['truncated inside an entry', async () => (await tarOf(entries(good))).subarray(0, 512 * 4 + 100), /truncated/],
    [
      'truncated between entries',
      async () =>
        (await tarOf(entries(good))).subarray(
          0,
          512 + Math.ceil(Buffer.byteLength(manifestOf(good)) / 512) * 512 + 512 + Math.ceil(db.length / 512) * 512,
        ),
      /not in the archive \(truncated\?\), the first "images\//,
    ],
    [
      'the manifest not first',
      async () => tarOf([{ name: 'state.sqlite', body: db }, ...entries(good)]),
      /the first entry must be manifest.json, not "state.sqlite"/,
    ],
    [
      'a foreign tar',
      async () => tarOf([{ name: 'README.md', body: '# hello' }]),
      /the first entry must be manifest.json, not "README.md"/,
    ],
    [
      'a foreign manifest',
      async () => tarOf(entries(good, manifestOf(good, { format: 'docker' }))),
      /format is "docker", not "svc-snapshot"/,
    ],
    [
      'a newer layout',
      async () => tarOf(entries(good, manifestOf(good, { version: 2 }))),
      /version 2 is not one this simulator reads/,
    ],
    [
      'a newer state schema',
      async () => tarOf(entries(good, manifestOf(good, { schema: SCHEMA + 1 }))),
      /newer than this simulator's/,
    ],
    ['a manifest that is not JSON', async () => tarOf(entries(good, '{ nope')), /manifest.json is not JSON/],
    [
      'a manifest without the state',
      async () => tarOf(entries({ [`images/${A}`]: image })),
      /does not list state.sqlite/,
    ],
    [
      'a size the manifest does not say',
      async () => tarOf(entries(good, manifestOf({ ...good, [`images/${A}`]: 'other bytes!' }))),
      /11 bytes where the manifest says 12/,
    ],
    [
      'a sha256 mismatch',
      async () => tarOf(entries(good, manifestOf({ ...good, [`images/${A}`]: 'IMAGE BYTES' }))),
      /its sha256 is [0-9a-f]{64} where the manifest says/,
    ],
    [
      'a state that is not SQLite',
      async () => tarOf(entries({ 'state.sqlite': 'not a database at all, but long enough to look at: '.repeat(3) })),
      /state.sqlite is not an SQLite database/,
    ],
    ['a database that is not ours', async () => tarOf(entries({ 'state.sqlite': foreignDb })), /no documents table/],
    ['a database with a trigger', async () => tarOf(entries({ 'state.sqlite': triggered })), /has a trigger \(evil\)/],
    [
      'gzip (a bomb or not, compression is refused)',
      async () => gzipSync(await tarOf(entries(good))),
      /gzip-compressed/,
    ],
    ['bytes that are not tar', async () => Buffer.alloc(2048, 0x41), /not a tar archive/],
    ['nothing', async () => Buffer.alloc(0), /empty/],
  ];

  it.each(cases)('%s', async (_, make, rule, limits) => {
    const dst = dataDir({ images: { [C]: Buffer.from('old') } });
    const before = fingerprint(dst);
    const error = await stage(dst, await make(), limits ? { limits } : {});
    expect(error).toBeInstanceOf(SnapshotInvalid);
    expect(error.message).toMatch(rule);
    expect(fingerprint(dst)).toEqual({ ...before, snapshots: [] });
  });

  it('takes the good archive these cases break', async () => {
    const dst = dataDir();
    const staged = await stage(dst, await tarOf(entries(good)));
    expect(staged).not.toBeInstanceOf(Error);
    installSnapshot(dst, staged.dir);
    expect(fingerprint(dst).images).toEqual({ [A]: sha(image) });
  });
});

describe('stageSnapshot of a body that stops arriving', () => {
  it('gives up after idleMs with SOURCE_IDLE (408), removes its staging, and leaves the input open', async () => {
    const dst = dataDir();
    const bytes = await archiveOf(makeAndForget());
    // half the archive, then silence
    const input = new Readable({ read() {} });
    input.push(bytes.subarray(0, 1024));
    const error = await stageSnapshot(dst, input, { schema: SCHEMA, idleMs: 50 }).catch((e) => e);
    expect(error.code).toBe('SOURCE_IDLE');
    expect(error.message).toMatch(/no byte of the archive arrived for 0.05 s/);
    expect(input.destroyed).toBe(false);
    expect(fingerprint(dst).snapshots).toEqual([]);
  });
});

describe('recoverSnapshot', () => {
  it('rolls back a staging that did not commit, and finishes nothing else', async () => {
    const dst = dataDir({ images: { [C]: Buffer.from('old') } });
    const before = fingerprint(dst);
    const staged = await stage(dst, await archiveOf(makeAndForget()));
    expect(existsSync(staged.dir)).toBe(true);
    expect(recoverSnapshot(dst)).toBe('rolled-back');
    expect(fingerprint(dst)).toEqual({ ...before, snapshots: [] });
  });
});

function makeAndForget() {
  const dir = makeDataDir({ images: { [A]: Buffer.from('a') } });
  dirs.push(dir);
  return dir;
}

/** The bytes of a file (kept apart: the cases above read theirs when the table is built). */
function require_bytes(file) {
  return process.getBuiltinModule('node:fs').readFileSync(file);
}
