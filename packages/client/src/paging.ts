// The one paging loop behind every `paginate*` method: ask a page at an offset, yield its
// entities, move on by their count, stop at the total or an empty page; refuse pages that cannot
// be right, so a server that ignores the offset cannot keep the loop going.
import { InvalidArgumentError, PaginationError } from './errors.js';

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
  if (!Number.isInteger(size) || size < 1)
    throw new InvalidArgumentError('pageSize', `must be a positive integer; got ${JSON.stringify(size)}`);
  return size;
}

/** How the loop names and tells apart what it pages through. */
export interface PagedCall<E> {
  /** The list operation for messages, e.g. `images_list (POST /images/list)`. */
  operation: string;
  /** The name of the offset field, for errors (`offset`, `group_member_offset`). */
  offsetField: string;
  /** The first offset (the caller's; default 0). */
  start: number | undefined;
  /** An entity's identity (its UUID); undefined when it has none (its JSON is used then). */
  keyOf: (entity: E) => string | undefined;
  /** Asks the page at `offset` (throws what the call throws, e.g. ApiError). */
  fetchPage: (offset: number) => Promise<Page<E>>;
}

/**
 * Iterates the entities of a paged list call.
 * @throws {InvalidArgumentError} when `start` is not an integer >= 0 (at the call, not on iteration)
 * @throws {PaginationError} (on iteration, before the page's entities are yielded) when every entity
 *   of a page was already yielded (the server ignores the offset), or when a page brings the count
 *   past the total the same page announces
 */
export function paginate<E>({
  operation,
  offsetField,
  start,
  keyOf,
  fetchPage,
}: PagedCall<E>): AsyncIterableIterator<E> {
  if (start !== undefined && !(Number.isInteger(start) && start >= 0)) {
    throw new InvalidArgumentError(offsetField, `must be an integer >= 0; got ${JSON.stringify(start)}`);
  }
  return (async function* () {
    const seen = new Set<string>();
    let offset = start ?? 0;
    for (;;) {
      const { entities, total } = await fetchPage(offset);
      if (entities.length === 0) return;
      const keys = entities.map((e) => keyOf(e) ?? JSON.stringify(e));
      if (keys.every((k) => seen.has(k)))
        throw new PaginationError(
          operation,
          offset,
          `repeats entities already seen: the server ignores ${offsetField}`,
        );
      if (typeof total === 'number' && offset + entities.length > total) {
        throw new PaginationError(
          operation,
          offset,
          `brings ${entities.length} entities, past the total of ${total} it announces`,
        );
      }
      for (const k of keys) seen.add(k);
      yield* entities;
      offset += entities.length;
      if (typeof total === 'number' && offset >= total) return;
    }
  })();
}
