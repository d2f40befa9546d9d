// Paging, sorting and the `name==x` filter shared by the list calls of every API.
import { percentDecode } from '../decode.js';
import { HttpError } from '../errors.js';

/**
 * Parses a FIQL filter of the form `name==x` (the only form simulated; `;`-joined terms are ANDed).
 * @param {string | undefined} filter
 * @param {string} field  the request field that carried it (for the error)
 * @param {string[]} attributes  attributes that may be filtered on
 * @returns {{ attribute: string, value: string }[]} the terms, values percent-decoded (none for no filter)
 * @throws {HttpError} 400 naming the field when a term is not `attribute==value`
 */
export function filterTerms(filter, field, attributes) {
  if (filter === undefined || filter === null || filter === '') return [];
  return filter.split(';').map((term) => {
    const match = /^([a-z_]+)==(.*)$/.exec(term);
    if (!match || !attributes.includes(match[1])) {
      throw new HttpError(
        400,
        'INVALID_ARGUMENT',
        `${field} "${filter}" is not supported: use attribute==value with attribute one of ${attributes.join(', ')}`,
      );
    }
    return { attribute: match[1], value: percentDecode(match[2], field) };
  });
}

/**
 * Parses a FIQL filter (see filterTerms) into a predicate over an item's attribute values.
 * @param {string | undefined} filter
 * @param {string} field  the request field that carried it (for the error)
 * @param {string[]} attributes  attributes that may be filtered on
 * @returns {(values: Record<string, unknown>) => boolean}
 * @throws {HttpError} 400 naming the field when a term is not `attribute==value`
 */
export function parseFilter(filter, field, attributes) {
  const terms = filterTerms(filter, field, attributes);
  return (values) => terms.every((t) => String(values[t.attribute] ?? '') === t.value);
}

/** The 400 of a sort attribute that is not one of `attributes`. */
function checkSort(attribute, field, attributes) {
  if (!attributes.includes(attribute))
    throw new HttpError(
      400,
      'INVALID_ARGUMENT',
      `${field} "${attribute}" cannot be sorted on: use one of ${attributes.join(', ')}`,
    );
}

/**
 * Sorts by an attribute (stable; entities without it come last).
 * @template T
 * @param {T[]} items
 * @param {(item: T) => Record<string, unknown>} valuesOf
 * @param {string | undefined} attribute
 * @param {'ASCENDING' | 'DESCENDING' | undefined} order
 * @param {string} field  the request field that named the attribute (for the error)
 * @param {string[]} attributes  attributes that may be sorted on
 * @returns {T[]}
 */
export function sortBy(items, valuesOf, attribute, order, field, attributes) {
  if (!attribute) return order === 'DESCENDING' ? [...items].reverse() : items;
  checkSort(attribute, field, attributes);
  const sign = order === 'DESCENDING' ? -1 : 1;
  return items
    .map((item, index) => ({ item, index, value: valuesOf(item)[attribute] }))
    .sort((a, b) => {
      if (a.value === b.value) return a.index - b.index;
      if (a.value === undefined) return 1;
      if (b.value === undefined) return -1;
      return (
        (typeof a.value === 'number' && typeof b.value === 'number'
          ? a.value - b.value
          : String(a.value).localeCompare(String(b.value))) * sign
      );
    })
    .map((x) => x.item);
}

/** The default page length of the v3 lists when the request has none. */
export const DEFAULT_LENGTH = 20;

/**
 * One page of a list: filtered (`attribute==value`), sorted, then cut at `offset`/`length`.
 * @template T
 * @param {T[]} items
 * @param {(item: T) => Record<string, unknown>} valuesOf  the attributes of an item that filter and sort see
 * @param {{ filter?: string, sort_attribute?: string, sort_order?: 'ASCENDING' | 'DESCENDING', offset?: number, length?: number }} body
 * @param {{ filter: string[], sort: string[] }} attributes  what may be filtered and sorted on
 * @returns {{ total: number, offset: number, page: T[] }}
 * @throws {HttpError} 400 naming `filter` or `sort_attribute` when they name an attribute not in `attributes`
 */
export function pageOf(items, valuesOf, body, attributes) {
  const keep = parseFilter(body.filter, 'filter', attributes.filter);
  const matched = sortBy(
    body.filter ? items.filter((i) => keep(valuesOf(i))) : items,
    valuesOf,
    body.sort_attribute,
    body.sort_order,
    'sort_attribute',
    attributes.sort,
  );
  const offset = body.offset ?? 0;
  const length = body.length ?? DEFAULT_LENGTH;
  return { total: matched.length, offset, page: matched.slice(offset, offset + length) };
}

/**
 * The page a v3 list body asks for, checked, as the store's page query (store.js `PageQuery`):
 * the same semantics as `pageOf`, answered by the store's indexes instead of a walk.
 * @param {{ filter?: string, sort_attribute?: string, sort_order?: 'ASCENDING' | 'DESCENDING', offset?: number, length?: number }} body
 * @param {{ filter: string[], sort: string[] }} attributes  what may be filtered and sorted on
 * @returns {import('../domain/store.js').PageQuery & { offset: number }}
 * @throws {HttpError} 400 naming `filter` or `sort_attribute` when they name an attribute not in `attributes`
 */
export function listQuery(body, attributes) {
  const terms = filterTerms(body.filter, 'filter', attributes.filter);
  const sort = body.sort_attribute || undefined;
  if (sort) checkSort(sort, 'sort_attribute', attributes.sort);
  return {
    terms,
    sort,
    descending: body.sort_order === 'DESCENDING',
    offset: body.offset ?? 0,
    length: body.length ?? DEFAULT_LENGTH,
  };
}
