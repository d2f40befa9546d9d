// What the page knows the local svc holds: the entities its answers named (the tab's own answers
// and the lists read in the background), newest answer first, without what the tab saw deleted.
// The defaults of the forms come from here (defaults.js). ES module, no page state.

/**
 * One entity the page knows of.
 * @typedef {object} Known
 * @property {string} kind its collection (`images`, `storage_containers`)
 * @property {string} uuid
 * @property {string} at when the answer that named it came (ISO 8601)
 * @property {number} [created] its creation time (ms), when the answer said it
 * @property {string} [name]
 * @property {number} [specVersion] its `metadata.spec_version` in that answer
 * @property {boolean} [ended] a task that answer showed ended (or not)
 * @property {{ method: string, path: string, list?: boolean }} from the request that answered
 */

/**
 * Every entity of a set of answers, newest first: by the time of the answer, then (within one
 * answer, a list) by creation time, then as listed.
 * @param {Known[]} knowns
 * @returns {Known[]}
 */
export function newestFirst(knowns) {
  return knowns
    .map((known, i) => ({ known, i }))
    .sort(
      (a, b) =>
        String(b.known.at).localeCompare(String(a.known.at)) ||
        (b.known.created ?? -Infinity) - (a.known.created ?? -Infinity) ||
        a.i - b.i,
    )
    .map(({ known }) => known);
}

/**
 * The newest entities of a kind that are not gone, each UUID once.
 * @param {Known[]} knowns newest first (newestFirst)
 * @param {string} kind
 * @param {{ gone?: Set<string>, not?: Set<string>, count?: number, unfinished?: boolean }} [options]
 *   `not`: UUIDs to leave out besides the gone ones (one the service just refused); `count`: how
 *   many (1); `unfinished`: tasks the newest answer that said so showed running first (an abort
 *   or a completion needs one), then the others
 * @returns {Known[]}
 */
export function pickKnown(knowns, kind, { gone = new Set(), not = new Set(), count = 1, unfinished = false } = {}) {
  const candidates = [];
  const seen = new Set();
  for (const known of knowns) {
    if (known.kind !== kind || gone.has(known.uuid) || not.has(known.uuid) || seen.has(known.uuid)) continue;
    seen.add(known.uuid);
    candidates.push(known);
  }
  if (!unfinished) return candidates.slice(0, count);
  const ended = (uuid) => knowns.find((k) => k.uuid === uuid && k.ended !== undefined)?.ended === true;
  return [...candidates.filter((k) => !ended(k.uuid)), ...candidates.filter((k) => ended(k.uuid))].slice(0, count);
}

/**
 * What the newest answer that said it gives of one entity (`spec_version`, name).
 * @param {Known[]} knowns newest first
 * @param {string} uuid
 * @returns {{ specVersion?: number, name?: string }}
 */
export function latestOf(knowns, uuid) {
  const out = {};
  for (const known of knowns) {
    if (known.uuid !== uuid) continue;
    if (out.specVersion === undefined && known.specVersion !== undefined) out.specVersion = known.specVersion;
    if (out.name === undefined && known.name !== undefined) out.name = known.name;
  }
  return out;
}

/**
 * A name like `taken` that no known entity of the kind has: its trailing number counted up
 * (`objects-prod-01` -> `objects-prod-02`), or `-2` added.
 * @param {string} taken the name the service refused as existing
 * @param {Iterable<string>} names the names known to exist
 * @returns {string}
 */
export function freshName(taken, names) {
  const used = new Set([...names, taken]);
  const m = /^(.*?)(\d+)$/.exec(taken);
  const stem = m ? m[1] : `${taken}-`;
  let n = m ? Number(m[2]) + 1 : 2;
  const width = m ? m[2].length : 1;
  for (;;) {
    const name = stem + String(n).padStart(width, '0');
    if (!used.has(name)) return name;
    n++;
  }
}
