// The files of a data dir beside the state: the directory itself, the kept password and the
// self-signed certificate, each written whole or not at all (durable.js `writeWhole`), so that a
// kill or a full disk at any instant of a first start leaves a file whole or absent, never an
// empty certificate that every later start serves. Errors name the code and the file's place in
// the data dir, never a local path.
import { createPrivateKey, randomBytes, X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statfsSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { removeLeftovers, writeWhole } from './domain/durable.js';
import { isStorageFull } from './domain/errors.js';

/**
 * What a file system or SQLite error means for a data dir: the disk is full, or the error's code.
 * @param {any} error
 * @param {string} [dir]  the data dir: an I/O error of SQLite there with little space left is a full disk
 * @returns {string} e.g. `the disk is full (ENOSPC)`, `EACCES`
 */
export function storageProblem(error, dir) {
  const sqlite = error?.code === 'ERR_SQLITE_ERROR';
  const code = sqlite ? `SQLite: ${error.errstr ?? error.message}` : String(error?.code ?? error?.message ?? error);
  if (isStorageFull(error)) return `the disk is full (${sqlite ? 'SQLITE_FULL' : code})`;
  // SQLite says "disk I/O error" where a write of its log or index found no room (SQLITE_IOERR)
  if (sqlite && (error.errcode & 0xff) === 10 && dir && freeBytes(dir) < LOW_SPACE)
    return `the disk is full (SQLITE_IOERR: ${freeBytes(dir)} bytes free)`;
  return code;
}

/** Free space below which an I/O error of SQLite is taken for a full disk, in bytes. */
const LOW_SPACE = 1024 * 1024;

/** The bytes an unprivileged writer may still use on `dir`'s file system (Infinity when unknown). */
function freeBytes(dir) {
  try {
    const { bavail, bsize } = statfsSync(dir);
    return bavail * bsize;
  } catch {
    return Infinity;
  }
}

/**
 * `mkdir -p`, one level at a time: Node's recursive mkdir spins forever where a parent exists but
 * takes no children (under /proc, mkdir answers ENOENT and the parent EEXIST, again and again).
 * @param {string} dir
 * @throws {NodeJS.ErrnoException} the first level that cannot be made (ENOENT, EACCES...), or ENOTDIR
 *   when `dir` is there but is not a directory
 */
export function makeDirectory(dir) {
  const missing = [];
  for (let d = resolve(dir); !existsSync(d); d = dirname(d)) {
    missing.unshift(d);
    if (dirname(d) === d) break; // a root that is not there (a Windows drive)
  }
  for (const d of missing) {
    try {
      mkdirSync(d);
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
  }
  if (!statSync(dir).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
}

/**
 * The password of a data dir when none is chosen: the one kept in `<dataDir>/password` (beside
 * `tls/`, mode 0600), else a new one, generated and kept there; so a client authorized before a
 * restart still is after it.
 * @param {string} dataDir
 * @returns {{ password: string, created: boolean }} `created`: generated now
 * @throws {Error} naming the problem (the disk is full, a code), not the path, when the file cannot be
 *   read or written
 */
export function keptPassword(dataDir) {
  const file = join(dataDir, 'password');
  const read = () => {
    try {
      return readFileSync(file, 'utf8').trim();
    } catch (error) {
      if (error.code === 'ENOENT') return '';
      throw new Error(`the kept password cannot be read (${error.code})`);
    }
  };
  const kept = read();
  if (kept) return { password: kept, created: false };
  const password = randomBytes(12).toString('base64url');
  try {
    makeDirectory(dataDir);
    removeLeftovers(file);
    // empty (an older version's write cut short): replaced; absent: created, and a start that got
    // there first keeps its password, which this one takes
    const empty = existsSync(file);
    writeWhole(file, `${password}\n`, { mode: 0o600, exclusive: !empty });
  } catch (error) {
    if (error.code !== 'EEXIST')
      throw new Error(`the password cannot be kept in the data dir: ${storageProblem(error)}`);
    const theirs = read();
    if (theirs) return { password: theirs, created: false };
    throw new Error('the kept password cannot be read (an empty file appeared while it was written)');
  }
  return { password, created: true };
}

/** Whether a PEM certificate and key are a pair that a TLS server can serve. */
function servable(cert, key) {
  try {
    return new X509Certificate(cert).checkPrivateKey(createPrivateKey(key));
  } catch {
    return false;
  }
}

/**
 * The self-signed certificate in `<dataDir>/tls/`, made at the first start (for `localhost`,
 * 127.0.0.1, ::1 and the listening host), and made again when what is there is not a pair that
 * can be served (a write an older version left empty, or half of a pair).
 * @param {string} dataDir
 * @param {string} host
 * @returns {Promise<{ cert: string, key: string }>} PEM
 * @throws {Error} naming the problem (the disk is full, a code) when it cannot be read or written
 */
export async function certificate(dataDir, host) {
  const dir = join(dataDir, 'tls');
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  try {
    if (existsSync(certFile) && existsSync(keyFile)) {
      const kept = { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
      if (servable(kept.cert, kept.key)) return kept;
    }
    mkdirSync(dir, { recursive: true });
    for (const file of [certFile, keyFile]) removeLeftovers(file);
    const pems = await generate(host);
    // the key first: a stop before the certificate's rename leaves no pair, made again at the next start
    writeWhole(keyFile, pems.private, { mode: 0o600 });
    writeWhole(certFile, pems.cert);
    return { cert: pems.cert, key: pems.private };
  } catch (error) {
    throw new Error(`the certificate in tls/ cannot be kept: ${storageProblem(error)}`);
  }
}

/** A new self-signed EC certificate for the listening host. */
async function generate(host) {
  /** @type {any[]} */
  const altNames = [
    { type: 2, value: 'localhost' },
    { type: 7, ip: '127.0.0.1' },
    { type: 7, ip: '::1' },
  ];
  if (isIP(host) && !['127.0.0.1', '::1', '0.0.0.0', '::'].includes(host)) altNames.push({ type: 7, ip: host });
  else if (!isIP(host) && host !== 'localhost') altNames.push({ type: 2, value: host });
  // imported here: only a first start needs it, and it weighs some 17 MB of memory
  const { generate: make } = await import('selfsigned');
  return make([{ name: 'commonName', value: 'svc-simulator' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + 825 * 24 * 3600 * 1000), // selfsigned 5 has no `days`
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'subjectAltName', altNames },
    ],
  });
}

/**
 * A deliberate fresh start (`--fresh`): the state and the image bytes are removed; the password
 * and the certificate stay.
 * @param {string} dataDir
 */
export function discardState(dataDir) {
  for (const name of ['state.sqlite', 'state.sqlite-wal', 'state.sqlite-shm', 'state.sqlite-journal', 'images'])
    rmSync(join(dataDir, name), { recursive: true, force: true });
}
