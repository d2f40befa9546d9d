// The one paging loop behind every `paginate*` method: ask a page at an offset, yield its
// entities, move on by their count, stop at the total or an empty page.
import { InvalidArgumentError } from './errors.js';

/** Options of the paging iterators. */
export interface PageOptions {
  /** Entities asked per call (`length`, or `group_member_count` for groups); default 100. */
  pageSize?: number;
  /** Stops the iteration when it fires (the iterator rejects with the signal's reason). */
  signal?: AbortSignal;
}

/** One page as the loop sees it: its entities and the total the server announced, if any. */
export interface Page<E> {
  entities: E[];
  /** `metadata.total_matches`, `filtered_entity_count`, ...; undefined when the server sends none. */
  total: number | undefined;
}

/**
 * The page size of `options`.
 * @throws {InvalidArgumentError} when `pageSize` is not a positive integer
 */
export function pageSizeOf(options: PageOptions | undefined): number {
  const size = options?.pageSize ?? 100;
  if (!Number.isInteger(size) || size < 1) throw new InvalidArgumentError('pageSize', `must be a positive integer; got ${JSON.stringify(size)}`);
  return size;
}

/**
 * Iterates the entities of a paged list call.
 * @param argument the name of the offset field, for errors (`offset`, `group_member_offset`)
 * @param start the first offset (the caller's, default 0)
 * @param fetchPage asks the page at `offset` (throws what the call throws, e.g. ApiError)
 * @throws {InvalidArgumentError} when `start` is not an integer >= 0 (at the call, not on iteration)
 */
export function paginate<E>(argument: string, start: number | undefined, fetchPage: (offset: number) => Promise<Page<E>>): AsyncIterableIterator<E> {
  if (start !== undefined && !(Number.isInteger(start) && start >= 0)) {
    throw new InvalidArgumentError(argument, `must be an integer >= 0; got ${JSON.stringify(start)}`);
  }
  return (async function* () {
    let offset = start ?? 0;
    for (;;) {
      const { entities, total } = await fetchPage(offset);
      yield* entities;
      offset += entities.length;
      if (entities.length === 0 || (typeof total === 'number' && offset >= total)) return;
    }
  })();
}
