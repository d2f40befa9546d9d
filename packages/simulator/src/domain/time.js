// Time in the simulator's documents: microseconds since the epoch, shown as ISO 8601 by the views.

/** Now, in microseconds since the epoch (the unit of every `*Us` field and of the `*_usecs` answers). */
export const nowUs = () => Date.now() * 1000;

const isoCache = new Map();
/**
 * Microseconds since the epoch -> `2026-11-02T10:01:12Z` (memoized: lists format the same times again and again).
 * @param {number} us
 * @returns {string}
 */
export function iso(us) {
  let text = isoCache.get(us);
  if (text === undefined) {
    if (isoCache.size > 50_000) isoCache.clear();
    text = new Date(Math.floor(us / 1000)).toISOString().replace(/\.\d{3}Z$/, 'Z');
    isoCache.set(us, text);
  }
  return text;
}
