// Answers reused while the documents they were read from are unchanged (adapter `cachedAnswers`):
// the same request's bytes again, without parsing, validating or reading the store. Bounded in
// bytes (ANSWER_CACHE_BYTES), and an answer larger than ANSWER_CACHE_ENTRY_BYTES is not kept, so
// that many large pages cannot hold the process's memory.
import { ANSWER_CACHE_BYTES, ANSWER_CACHE_ENTRY_BYTES } from '../limits.js';
import { boundedCache } from './cache.js';

/**
 * @typedef {object} AnswerCache
 * @property {<A extends { status: number, json?: any }>(key: string, generation: number, answer: () => Promise<A>)
 *   => Promise<A | { status: 200, json: Buffer }>} answered  the answer kept for `key` while `generation` is
 *   the one it was read at, else `answer()`'s, kept when it is a 200 whose body is a Buffer of at most
 *   ANSWER_CACHE_ENTRY_BYTES
 * @property {() => number} bytes  what it holds, for the leak check
 */

/**
 * @param {number} [maxBytes]
 * @returns {AnswerCache}
 */
export function createAnswerCache(maxBytes = ANSWER_CACHE_BYTES) {
  /** @type {import('./cache.js').BoundedCache<{ generation: number, json: Buffer }>} */
  const answers = boundedCache({ maxBytes, maxEntryBytes: ANSWER_CACHE_ENTRY_BYTES });
  return {
    async answered(key, generation, answer) {
      const known = answers.get(key);
      if (known?.generation === generation) return { status: 200, json: known.json };
      const fresh = await answer();
      if (fresh.status === 200 && Buffer.isBuffer(fresh.json))
        answers.set(key, { generation, json: fresh.json }, fresh.json.length);
      return fresh;
    },
    bytes: () => answers.bytes(),
  };
}
