// The one cache of the wire: bounded in bytes, not entries (an entry count lets 64 list answers of
// 3 MB each hold 200 MB). Oldest entries go first; a hit costs one Map lookup.

/** What an entry costs beyond its key and value, in bytes (the Map's slot and the record). */
const ENTRY_OVERHEAD = 64;

/**
 * @template V
 * @typedef {object} BoundedCache
 * @property {(key: string) => V | undefined} get
 * @property {(key: string, value: V, bytes: number) => void} set  keeps `value`, counted as `bytes` (its
 *   payload: a Buffer's length, a small object's estimate) plus its key; evicts the oldest entries to stay
 *   within the bound. A value larger than the entry limit is not kept.
 * @property {() => number} bytes  what the entries take now, in bytes (for the leak check)
 * @property {() => number} size   how many entries it holds
 * @property {() => void} clear
 */

/**
 * A cache bounded in bytes.
 * @template V
 * @param {{ maxBytes: number, maxEntryBytes?: number }} o  `maxEntryBytes` (default a quarter of
 *   `maxBytes`): one entry never takes the whole cache
 * @returns {BoundedCache<V>}
 */
export function boundedCache({ maxBytes, maxEntryBytes = maxBytes / 4 }) {
  /** @type {Map<string, { value: V, cost: number }>} */
  const map = new Map();
  let held = 0;
  return {
    get: (key) => map.get(key)?.value,
    set(key, value, bytes) {
      // a JS string takes two bytes a character at most
      const cost = bytes + key.length * 2 + ENTRY_OVERHEAD;
      const old = map.get(key);
      if (old) {
        map.delete(key);
        held -= old.cost;
      }
      if (cost > maxEntryBytes) return;
      for (const [oldest, entry] of map) {
        if (held + cost <= maxBytes) break;
        map.delete(oldest);
        held -= entry.cost;
      }
      map.set(key, { value, cost });
      held += cost;
    },
    bytes: () => held,
    size: () => map.size,
    clear() {
      map.clear();
      held = 0;
    },
  };
}
