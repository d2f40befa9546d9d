// The one paging loop behind every `paginate*` method: ask a page at an offset, yield its
// entities not yielded before, move on by the page's length, stop at the total. Offset paging of
// a live list shifts: a create at the head of a newest-first list moves every entity one place
// down (the next page starts with one already yielded: skipped), a delete before the offset moves
// them up (one would be missed: when the announced total drops, the client asks again from that
// many places back). What cannot be a live list ends in PaginationError: a page of nothing but
// entities already yielded, one entity twice in a page, an empty page before the announced total,
// a page past it, and more than `maxItems` entities.
import { InvalidArgumentError, PaginationError } from './errors.js';

/** Entities a paging iterator yields at most unless `maxItems` says otherwise. */
export const DEFAULT_MAX_ITEMS = 100_000;

/** Options of the paging iterators. */
export interface PageOptions {
  /** Entities asked per call (`length`, or `group_member_count` for groups); default 100. */
  pageSize?: number;
  /**
   * Entities the iteration yields at most; one more ends it with {@link PaginationError}, so a
   * server announcing endless entities cannot keep it going. Default 100 000; `Infinity` for none.
   * The iterator keeps one identity per entity yielded, to yield none twice.
   */
  maxItems?: number;
  /** Stops the iteration when it fires (the iterator rejects with the signal's reason). */
  signal?: AbortSignal;
}

/** One page as the loop sees it: its entities and the total the server announced, if any. */
export interface Page<E> {
  entities: E[];
  /** `metadata.total_matches`, `filtered_entity_count`, ...; undefined when the server sends none. */
  total: number | undefined;
}

/** The checked paging options. */
export interface PageLimits {
  pageSize: number;
  maxItems: number;
}

/**
 * The page size and item limit of `options`.
 * @throws {InvalidArgumentError} when `pageSize` is not a positive integer, or `maxItems` neither a
 *   positive integer nor `Infinity`
 */
export function pageLimitsOf(options: PageOptions | undefined): PageLimits {
  const pageSize = options?.pageSize ?? 100;
  if (!Number.isInteger(pageSize) || pageSize < 1)
    throw new InvalidArgumentError('pageSize', `must be a positive integer; got ${JSON.stringify(pageSize)}`);
  const maxItems = options?.maxItems ?? DEFAULT_MAX_ITEMS;
  if (maxItems !== Infinity && !(Number.isInteger(maxItems) && maxItems >= 1))
    throw new InvalidArgumentError('maxItems', `must be a positive integer or Infinity; got ${String(maxItems)}`);
  return { pageSize, maxItems };
}

/** How the loop names and tells apart what it pages through. */
export interface PagedCall<E> {
  /** The list operation for messages, e.g. `images_list (POST /images/list)`. */
  operation: string;
  /** The name of the offset field, for errors (`offset`, `group_member_offset`). */
  offsetField: string;
  /** The first offset (the caller's; default 0). */
  start: number | undefined;
  /** Entities yielded at most (see {@link PageOptions.maxItems}). */
  maxItems: number;
  /** An entity's identity (its UUID); undefined when it has none (its JSON is used then). */
  keyOf: (entity: E) => string | undefined;
  /** Asks the page at `offset` (throws what the call throws, e.g. ApiError). */
  fetchPage: (offset: number) => Promise<Page<E>>;
}

/**
 * Iterates the entities of a paged list call. Every entity the list holds for the whole iteration
 * is yielded, none twice, when entities are created at the head of the list (newest first) and
 * deleted anywhere; a page is checked whole before any of it is yielded.
 * @throws {InvalidArgumentError} when `start` is not an integer >= 0 (at the call, not on iteration)
 * @throws {PaginationError} (on iteration) when a page brings only entities already yielded (the
 *   server ignores the offset, or more entities were created between two calls than a page holds),
 *   holds one entity twice, comes back empty before the total it announces, or brings the count
 *   past that total; after yielding `maxItems` entities when the server has more
 */
export function paginate<E>({
  operation,
  offsetField,
  start,
  maxItems,
  keyOf,
  fetchPage,
}: PagedCall<E>): AsyncIterableIterator<E> {
  if (start !== undefined && !(Number.isInteger(start) && start >= 0)) {
    throw new InvalidArgumentError(offsetField, `must be an integer >= 0; got ${JSON.stringify(start)}`);
  }
  return (async function* () {
    const seen = new Set<string>();
    const first = start ?? 0;
    let offset = first;
    let lastTotal: number | undefined;
    /** Pages before this offset are asked again (a total that dropped): they may be all seen. */
    let catchUpTo = first;
    for (;;) {
      const { entities, total } = await fetchPage(offset);
      if (entities.length === 0) {
        if (typeof total === 'number' && offset < total)
          throw new PaginationError(
            operation,
            offset,
            `is empty, but the server announces ${total} entities: the list ends early`,
          );
        return;
      }
      if (typeof total === 'number' && offset + entities.length > total) {
        throw new PaginationError(
          operation,
          offset,
          `brings ${entities.length} entities, past the total of ${total} it announces`,
        );
      }
      const page = entities.map((entity, index) => ({ entity, index, key: keyOf(entity) ?? JSON.stringify(entity) }));
      if (new Set(page.map((e) => e.key)).size < page.length)
        throw new PaginationError(operation, offset, "holds one entity twice: the server's pages cannot be right");
      const fresh = page.filter((e) => !seen.has(e.key));
      if (fresh.length === 0 && offset >= catchUpTo) {
        const key = page[0]?.key ?? '';
        throw new PaginationError(
          operation,
          offset,
          `repeats only entities already seen (${key.length <= 80 ? key : `${key.slice(0, 80)}...`}): the server ignores ${offsetField}, or more entities were created since the last page than a page holds`,
        );
      }
      for (const { entity, index, key } of fresh) {
        if (seen.size >= maxItems)
          throw new PaginationError(
            operation,
            offset + index,
            `would pass maxItems (${maxItems} entities yielded); raise maxItems or narrow the query`,
          );
        seen.add(key);
        yield entity;
      }
      const dropped = typeof total === 'number' && lastTotal !== undefined ? lastTotal - total : 0;
      lastTotal = total;
      if (dropped > 0 && offset > first) {
        // Deletes before this page moved entities not yet seen to before it: ask from that far back.
        catchUpTo = Math.max(catchUpTo, offset + entities.length);
        offset = Math.max(first, offset - dropped);
        continue;
      }
      offset += entities.length;
      if (typeof total === 'number' && offset >= total) return;
    }
  })();
}
