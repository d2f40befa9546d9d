// Every durable write of the simulator (a SQLite commit, a write to an image file, a rename, an
// unlink) calls `durable()` first. That is the seam of the crash tests (SQLite's method: stop at
// the Nth write, for every N): with `--faults kill-at=N` the process kills itself (SIGKILL, as a
// crash: no handler, no flush) just before its Nth durable write, counted from the start of the
// process. It is also where a test without a file system to fill makes the disk full
// (`fullDisk`). Off by default; a plain counter otherwise.

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
