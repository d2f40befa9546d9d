// Every durable write of the simulator (a SQLite commit, a write to an image file, a rename, an
// unlink) calls `durable()` first. That is the seam of the crash tests (SQLite's method: stop at
// the Nth write, for every N): with `--faults kill-at=N` the process kills itself (SIGKILL, as a
// crash: no handler, no flush) just before its Nth durable write, counted from the start of the
// process. It is also where a test without a file system to fill makes the disk full
// (`fullDisk`). Off by default; a plain counter otherwise.

import { closeSync, fsyncSync, linkSync, openSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

let count = 0;
/** @type {number} 0: off */
let killAt = 0;
let full = false;

/**
 * Arms the crash seam: the process is killed just before its `n`th durable write.
 * @param {number} n  >= 1 (0 disarms)
 */
export function killAtWrite(n) {
  killAt = n;
}

/**
 * Called before each durable write.
 * @param {'commit' | 'write' | 'rename' | 'unlink'} what  the kind of write
 * @throws {Error} ENOSPC while `fullDisk` is on
 */
export function durable(what) {
  count += 1;
  if (count === killAt) process.kill(process.pid, 'SIGKILL');
  // an unlink frees space: it works on a full disk
  if (full && what !== 'unlink')
    throw Object.assign(new Error('ENOSPC: no space left on device (simulated)'), { code: 'ENOSPC', syscall: what });
}

/**
 * The tests' full disk where they cannot mount a small file system: while on, every durable write
 * but an unlink fails with ENOSPC, at the call sites a real full disk fails.
 * @param {boolean} on
 */
export function fullDisk(on) {
  full = on;
}

/** How many durable writes this process has made (or was about to make) so far. */
export const durableWrites = () => count;

/**
 * Writes a file whole or not at all, as SQLite and Git do: a temporary file beside it, written and
 * fsync'd, renamed over it, then the directory fsync'd. The write and the rename are durable writes
 * (the crash tests' seam), so a kill at either leaves the old file or none, never part of one.
 * @param {string} file
 * @param {string | Buffer} data
 * @param {{ mode?: number, exclusive?: boolean }} [o]  `exclusive`: a file already there is kept (the
 *   rename is a link, which fails with EEXIST)
 * @throws {NodeJS.ErrnoException} the file system's (ENOSPC, EEXIST with `exclusive`...), the temporary
 *   file removed
 */
export function writeWhole(file, data, { mode = 0o644, exclusive = false } = {}) {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    durable('write');
    const fd = openSync(temp, 'w', mode);
    try {
      writeFileSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    durable('rename');
    if (exclusive) {
      linkSync(temp, file);
      rmSync(temp);
    } else renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  syncDirectory(dirname(file));
}

/**
 * Puts a file written aside (`temp`, closed) in place of `file` whole: fsync of it, the rename (a
 * durable write), fsync of the directory.
 * @param {string} temp
 * @param {string} file
 * @throws {NodeJS.ErrnoException} the file system's
 */
export function renameWhole(temp, file) {
  const fd = openSync(temp, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  durable('rename');
  renameSync(temp, file);
  syncDirectory(dirname(file));
}

/**
 * Removes what a kill left of `writeWhole`s to `file`: its temporary files (`<file>.<pid>.tmp`).
 * @param {string} file
 */
export function removeLeftovers(file) {
  const name = basename(file);
  let names;
  try {
    names = readdirSync(dirname(file));
  } catch {
    return;
  }
  for (const other of names)
    if (other.startsWith(`${name}.`) && /^\d+\.tmp$/.test(other.slice(name.length + 1)))
      rmSync(join(dirname(file), other), { force: true });
}

/** fsync of a directory: a rename or a new name in it is on disk. */
function syncDirectory(dir) {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
