// A budget of bytes held at once, handed out first come, first served: what bounds the memory of
// answers built whole before they are sent (a batch's, up to BATCH_ANSWER_LIMIT each). Nothing
// that waits holds it: a batch waiting on a long poll parks what it has built in a pool of its own
// and gives the rest back, so that batches at work are never held up by batches that wait.

/**
 * @typedef {object} Lease  bytes taken from a budget
 * @property {(bytes: number) => void} keep  keep only `bytes` of them from now on (the rest back)
 * @property {() => void} release  gives them all back (again: nothing)
 * @property {<T>(wait: () => Promise<T>, built: number, signal?: AbortSignal) => Promise<T>} idle  runs
 *   `wait` holding only `built` bytes (what the answer has taken so far, parked apart), then takes the
 *   lease's bytes back ahead of new requests; rejects with the signal's reason when it aborts before
 *   they are back (the lease then holds nothing). Where the parked pool is full, it waits holding all.
 */

/**
 * A budget of `limit` bytes, and as many again for what waiting leases have built.
 * @param {number} limit  in bytes; a request for more than it waits for the whole budget
 * @returns {{ take: (bytes: number, signal?: AbortSignal) => Promise<Lease>, available: () => number,
 *   held: () => number, parked: () => number }}
 *   `take` resolves once `bytes` are free and no earlier request waits, or rejects with the
 *   signal's reason when it aborts first; `held`: the bytes leases hold; `parked`: those waiting leases keep
 */
export function byteBudget(limit) {
  let free = limit;
  let parked = 0;
  /** @type {{ bytes: number, grant: () => void }[]} leases taking their bytes back after a wait: first */
  const resuming = [];
  /** @type {{ bytes: number, grant: () => void }[]} */
  const waiting = [];

  const give = (bytes) => {
    free += bytes;
    for (const queue of [resuming, waiting])
      while (queue.length && free >= Math.min(queue[0].bytes, limit)) queue.shift()?.grant();
  };

  /**
   * Waits in `queue` for `want` bytes.
   * @returns {Promise<void>}
   */
  const wait = (queue, want, signal) =>
    new Promise((resolve, reject) => {
      const entry = {
        bytes: want,
        grant: () => {
          signal?.removeEventListener('abort', abort);
          free -= want;
          resolve(undefined);
        },
      };
      const abort = () => {
        const at = queue.indexOf(entry);
        if (at >= 0) queue.splice(at, 1);
        // the head leaving may let the next one in
        give(0);
        reject(signal?.reason);
      };
      if (signal?.aborted) return reject(signal.reason);
      signal?.addEventListener('abort', abort, { once: true });
      queue.push(entry);
    });

  /** @param {number} bytes */
  const lease = (bytes) => {
    let held = bytes;
    return {
      keep(n) {
        if (n >= held) return;
        const back = held - n;
        held = n;
        give(back);
      },
      release() {
        const back = held;
        held = 0;
        if (back) give(back);
      },
      async idle(run, built, signal) {
        const kept = Math.min(built, held);
        if (parked + kept > limit) return run();
        const had = held;
        parked += kept;
        held = 0;
        give(had);
        try {
          return await run();
        } finally {
          try {
            if (!resuming.length && free >= had) free -= had;
            else await wait(resuming, had, signal);
            held = had;
          } finally {
            parked -= kept;
          }
        }
      },
    };
  };

  return {
    available: () => free,
    held: () => limit - free,
    parked: () => parked,
    async take(bytes, signal) {
      const want = Math.min(bytes, limit);
      if (!resuming.length && !waiting.length && free >= want) free -= want;
      else await wait(waiting, want, signal);
      return lease(want);
    },
  };
}
