// Every durable write of the simulator (a SQLite commit, a write to an image file, a rename, an
// unlink) calls `durable()` first. That is the seam of the crash tests (SQLite's method: stop at
// the Nth write, for every N): with `--faults kill-at=N` the process kills itself (SIGKILL, as a
// crash: no handler, no flush) just before its Nth durable write, counted from the start of the
// process. Off by default; a plain counter otherwise.

let count = 0;
/** @type {number} 0: off */
let killAt = 0;

/**
 * Arms the crash seam: the process is killed just before its `n`th durable write.
 * @param {number} n  >= 1 (0 disarms)
 */
export function killAtWrite(n) {
  killAt = n;
}

/**
 * Called before each durable write.
 * @param {'commit' | 'write' | 'rename' | 'unlink'} _what  the kind of write (for a reader of a core dump)
 */
export function durable(_what) {
  count += 1;
  if (count === killAt) process.kill(process.pid, 'SIGKILL');
}

/** How many durable writes this process has made (or was about to make) so far. */
export const durableWrites = () => count;
