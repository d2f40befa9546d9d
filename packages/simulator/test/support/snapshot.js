// Test support of the snapshot tests: data dirs with a real state (the domain's own store), their
// fingerprints, archives made by createSnapshot, and tar archives built entry by entry (the
// hostile ones too) with tar-stream.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tar from 'tar-stream';
import { createSnapshot } from '../../src/control/snapshot.js';
import { openState, SCHEMA } from '../../src/domain/index.js';
import { DatabaseSync } from '../../src/domain/store.js';

export { SCHEMA };

const sha = (bytes) => createHash('sha256').update(bytes).digest('hex');

/**
 * A data dir with a state (the store's documents: `meta/simulator` with the schema, one image
 * document per image) and the images' bytes; a password and tls/ beside them, as a simulator keeps.
 * @param {{ images?: Record<string, Buffer>, name?: string, wal?: boolean }} [o]  `wal`: leave a stray
 *   `state.sqlite-wal` beside the state, as a killed simulator may
 * @returns {string}
 */
export function makeDataDir({ images = {}, name = 'state', wal = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-snap-'));
  const store = openState(dir);
  store.batch(() => {
    store.put('meta', 'simulator', { seed: 1, schema: SCHEMA });
    for (const uuid of Object.keys(images)) store.put('note', uuid, { name: `${name}-${uuid}` });
  });
  store.close();
  mkdirSync(join(dir, 'images'));
  for (const [uuid, bytes] of Object.entries(images)) writeFileSync(join(dir, 'images', uuid), bytes);
  // a half-written upload: never part of a snapshot
  writeFileSync(join(dir, 'images', `${Object.keys(images)[0] ?? 'x'}.1.part`), 'partial');
  writeFileSync(join(dir, 'password'), 'kept\n');
  mkdirSync(join(dir, 'tls'));
  writeFileSync(join(dir, 'tls', 'cert.pem'), 'cert');
  if (wal) writeFileSync(join(dir, 'state.sqlite-wal'), 'a stray write-ahead log of the old state');
  return dir;
}

/** The documents of a data dir's state, in order: what the state means, whatever its bytes. */
export function documentsOf(dataDir) {
  const db = new DatabaseSync(join(dataDir, 'state.sqlite'), { readOnly: true });
  try {
    return db
      .prepare('SELECT kind, uuid, doc FROM documents ORDER BY seq')
      .all()
      .map((r) => `${r.kind}/${r.uuid} ${r.doc}`);
  } finally {
    db.close();
  }
}

/**
 * What a data dir holds that a snapshot replaces or keeps: the state file's sha256 (and whether a
 * -wal is beside it), each image's sha256, the kept password and certificate, what `snapshots/` holds.
 */
export function fingerprint(dataDir) {
  const images = existsSync(join(dataDir, 'images'))
    ? Object.fromEntries(
        readdirSync(join(dataDir, 'images'))
          .sort()
          .map((n) => [n, sha(readFileSync(join(dataDir, 'images', n)))]),
      )
    : null;
  return {
    state: existsSync(join(dataDir, 'state.sqlite')) ? sha(readFileSync(join(dataDir, 'state.sqlite'))) : null,
    wal: existsSync(join(dataDir, 'state.sqlite-wal')),
    images,
    password: readFileSync(join(dataDir, 'password'), 'utf8'),
    cert: readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8'),
    snapshots: existsSync(join(dataDir, 'snapshots')) ? readdirSync(join(dataDir, 'snapshots')) : [],
  };
}

/** The bytes of a stream. */
export async function bytesOf(stream) {
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** A snapshot of `dataDir` as bytes. */
export async function archiveOf(dataDir) {
  return bytesOf(await createSnapshot(dataDir, { schema: SCHEMA, simulator: '0.1.0-test' }));
}

/**
 * The entries of a tar archive.
 * @param {Buffer} bytes
 * @returns {Promise<{ name: string, type: string, size: number, body: Buffer }[]>}
 */
export async function entriesOf(bytes) {
  const extract = tar.extract();
  const out = [];
  const done = (async () => {
    for await (const entry of extract) out.push({ ...entry.header, body: await bytesOf(entry) });
  })();
  extract.end(bytes);
  await done;
  return out;
}

/**
 * A tar archive of the given entries, in order (tar-stream's pack: any name, type or pax header).
 * @param {{ name: string, body?: Buffer | string, type?: string, linkname?: string, pax?: Record<string, string>,
 *   devmajor?: number }[]} entries
 * @returns {Promise<Buffer>}
 */
export async function tarOf(entries) {
  const pack = tar.pack();
  const bytes = bytesOf(pack);
  for (const e of entries) {
    const { body, ...header } = e;
    await new Promise((resolve, reject) =>
      pack.entry(/** @type {any} */ (header), body ?? (header.type ? undefined : ''), (error) =>
        error ? reject(error) : resolve(undefined),
      ),
    );
  }
  pack.finalize();
  return bytes;
}

/** The manifest of `files` (name -> bytes), as a snapshot writes it; `patch` changes it. */
export function manifestOf(files, patch = {}) {
  return JSON.stringify({
    format: 'svc-snapshot',
    version: 1,
    schema: SCHEMA,
    files: Object.fromEntries(
      Object.entries(files).map(([name, body]) => [name, { size: Buffer.byteLength(body), sha256: sha(body) }]),
    ),
    ...patch,
  });
}
