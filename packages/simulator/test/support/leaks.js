// Test support: what a process holds open, read from /proc (Linux), for the leak checks (Go's
// goleak and Jest's --detectOpenHandles are the anchors): a test or a test file must give back
// every descriptor it, or a simulator it started, opened.
import { readdirSync, readlinkSync } from 'node:fs';

/** Whether this machine shows descriptors under /proc (Linux); elsewhere the checks say so and skip. */
export const canCount = (() => {
  try {
    readdirSync('/proc/self/fd');
    return true;
  } catch {
    return false;
  }
})();

/**
 * The open descriptors of a process, each as its link target (`socket:[123]`, `pipe:[4]`, a file's path).
 * @param {number | 'self'} [pid]
 * @returns {Map<string, string>} descriptor number -> target
 */
export function descriptors(pid = 'self') {
  const dir = `/proc/${pid}/fd`;
  /** @type {Map<string, string>} */
  const found = new Map();
  for (const fd of readdirSync(dir)) {
    try {
      found.set(fd, readlinkSync(`${dir}/${fd}`));
    } catch {
      // closed between the listing and the read (the listing's own descriptor among them)
    }
  }
  return found;
}

/**
 * Waits until a process holds no descriptor that `baseline` does not (sockets and files close
 * once their peers have seen the close: a condition to wait on, bounded by `deadlineMs`).
 * @param {Map<string, string>} baseline  from `descriptors`
 * @param {{ pid?: number | 'self', deadlineMs?: number, ignore?: (target: string) => boolean }} [o]
 * @returns {Promise<string[]>} what is still open beyond the baseline (empty: nothing), as targets
 *   with the data dir's path cut to its last two segments
 */
export async function extraDescriptors(baseline, { pid = 'self', deadlineMs = 20_000, ignore = () => false } = {}) {
  const extra = () =>
    [...descriptors(pid)]
      .filter(([fd, target]) => baseline.get(fd) !== target && !ignore(target))
      .map(([, target]) => target.split('/').slice(-2).join('/'));
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const now = extra();
    if (now.length === 0 || Date.now() > deadline) return now;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
