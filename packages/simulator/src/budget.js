// A budget of bytes held at once, handed out first come, first served: what bounds the memory of
// answers built whole before they are sent (a batch's, up to BATCH_ANSWER_LIMIT each).

/**
 * @typedef {object} Lease  bytes taken from a budget
 * @property {(bytes: number) => void} keep  keep only `bytes` of them from now on (the rest back)
 * @property {() => void} release  gives them all back (again: nothing)
 */

/**
 * A budget of `limit` bytes.
 * @param {number} limit  in bytes; a request for more than it waits for the whole budget
 * @returns {{ take: (bytes: number, signal?: AbortSignal) => Promise<Lease>, available: () => number }}
 *   `take` resolves once `bytes` are free and no earlier request waits, or rejects with the
 *   signal's reason when it aborts first
 */
export function byteBudget(limit) {
  let free = limit;
  /** @type {{ bytes: number, grant: () => void }[]} */
  const waiting = [];

  const give = (bytes) => {
    free += bytes;
    while (waiting.length && free >= Math.min(waiting[0].bytes, limit)) waiting.shift()?.grant();
  };

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
    };
  };

  return {
    available: () => free,
    take(bytes, signal) {
      const want = Math.min(bytes, limit);
      if (!waiting.length && free >= want) {
        free -= want;
        return Promise.resolve(lease(want));
      }
      return new Promise((resolve, reject) => {
        const entry = {
          bytes: want,
          grant: () => {
            signal?.removeEventListener('abort', abort);
            free -= want;
            resolve(lease(want));
          },
        };
        const abort = () => {
          const at = waiting.indexOf(entry);
          if (at >= 0) waiting.splice(at, 1);
          // the head leaving may let the next one in
          give(0);
          reject(signal?.reason);
        };
        if (signal?.aborted) return reject(signal.reason);
        signal?.addEventListener('abort', abort, { once: true });
        waiting.push(entry);
      });
    },
  };
}
