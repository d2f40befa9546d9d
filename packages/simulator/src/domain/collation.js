// A binary sort key for printable ASCII that orders as `String.prototype.localeCompare` (the lists'
// order, lists.js) does in this process's locale, so that SQLite can keep an index in that order.
// Derived from `localeCompare` itself at load and checked against it; where the check fails (a
// locale with contractions, say) `exact` is false and the store sorts text in JS instead.

const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i));
// one collator: `localeCompare` with options builds a new one at every call
const base = new Intl.Collator(undefined, { sensitivity: 'base' }).compare;

/** The printable ASCII characters in collation order. */
const ORDER = [...PRINTABLE].sort((a, b) => base(a, b) || a.localeCompare(b));
/** character -> its primary weight (letters of either case share one) and case weight */
const WEIGHTS = new Map();
{
  let primary = 0;
  let previous;
  for (const c of ORDER) {
    if (previous === undefined || base(previous, c) !== 0) primary++;
    WEIGHTS.set(c, { primary: String.fromCharCode(0x20 + primary), tertiary: c === c.toLowerCase() ? '1' : '2' });
    previous = c;
  }
}

/**
 * The sort key of a printable ASCII string (0x20-0x7e): its primary weights, a separator below
 * every weight, then its case weights (lower before upper), as the collator compares them.
 * @param {string} text  printable ASCII only (other characters: the key is meaningless)
 * @returns {string} compare keys with `<` (code units), not `localeCompare`
 */
export function collationKey(text) {
  let primary = '';
  let tertiary = '';
  for (const c of text) {
    const w = WEIGHTS.get(c);
    primary += w?.primary ?? '\x7f';
    tertiary += w?.tertiary ?? '3';
  }
  return `${primary}\x1f${tertiary}`;
}

/** True when `collationKey` orders a sample as `localeCompare` does (prefixes, case, punctuation). */
function check() {
  const pool = [' ', '-', '_', '.', '0', '9', 'a', 'A', 'b', 'B', 'z', 'Z'];
  const sample = [''];
  for (const a of pool) {
    sample.push(a);
    for (const b of pool) sample.push(a + b);
  }
  // a total order: checking neighbours in localeCompare's order checks every pair
  sample.sort((a, b) => a.localeCompare(b));
  for (let i = 1; i < sample.length; i++) {
    const want = Math.sign(sample[i - 1].localeCompare(sample[i]));
    const [a, b] = [collationKey(sample[i - 1]), collationKey(sample[i])];
    if (want !== (a < b ? -1 : a > b ? 1 : 0)) return false;
  }
  return true;
}

/**
 * `exact`: whether keys order as `localeCompare` here; `fingerprint`: changes with the locale's
 * order (stored keys are computed again when it changes).
 */
export const COLLATION = {
  exact: check(),
  fingerprint: `${Intl.Collator().resolvedOptions().locale} ${ORDER.join('')}`,
};
