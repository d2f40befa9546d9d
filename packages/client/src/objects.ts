// The object store API client (`/oss/api/svc/v3`) and its workflows.
import type { Client } from 'openapi-fetch';
import { createCore } from './create.js';
import { InvalidArgumentError } from './errors.js';
import type { components, operations, paths } from './generated/objects.js';
import type { ClientOptions } from './options.js';
import { type PageLimits, type PageOptions, pageLimitsOf, paginate } from './paging.js';
import type { GroupEntity, ObjectStoreListEntry } from './types.js';
import { checkUuid, unwrap } from './workflow.js';

/** Paths of the object store API (`/oss/api/svc/v3`), from `dist/objects.json`. */
export type ObjectsPaths = paths;
/** Operations of the object store API keyed by operationId (`objectstores_create`, ...). */
export type ObjectsOperations = operations;
/** Schemas of the object store API. */
export type ObjectsSchemas = components['schemas'];

/** Workflow methods of the object store client. */
export interface ObjectsWorkflows {
  /**
   * Lists every object store (`GET /objectstores/list`, objectstores_list) with its `metadata`,
   * `spec` and `status`: what automation polls after a create until the new store's name appears.
   * @throws {ApiError} when the call fails (after the retries of read-only calls)
   */
  listObjectStores(options?: { signal?: AbortSignal }): Promise<ObjectStoreListEntry[]>;
  /**
   * Iterates the entities of the groups listing (`POST /groups`, groups_list), asking
   * `group_member_count` = `pageSize` per call from `group_member_offset` until
   * `filtered_entity_count` are seen or a page is empty.
   * @throws {ApiError} when a page call fails (after the retries of read-only calls)
   * @throws {PaginationError} when a page repeats entities already seen (the server ignores the offset) or goes past the announced total
   */
  paginateGroups(
    body: Omit<ObjectsSchemas['GroupListRequest'], 'group_member_count'>,
    options?: PageOptions,
  ): AsyncIterableIterator<GroupEntity>;
  /**
   * Iterates the buckets of one object store (`POST /objectstores/{uuid}/groups`,
   * objectstores_groups_list, `entity_type: bucket`), paged like {@link paginateGroups}: each
   * entity's `entity_id` is the bucket name, its `data[]` the attributes asked for in
   * `group_member_attributes` (`storage_usage_bytes`, `object_count`, ...).
   * @param uuid the object store UUID (`metadata.uuid`)
   * @param body the rest of the query (attributes, sort, filter, first offset); `entity_type` is set
   * @throws {InvalidArgumentError} when `uuid` is not a UUID (at the call)
   * @throws {ApiError} when a page call fails (after the retries of read-only calls)
   * @throws {PaginationError} when a page repeats entities already seen (the server ignores the offset) or goes past the announced total
   */
  paginateBuckets(
    uuid: string,
    body?: Omit<ObjectsSchemas['BucketGroupListRequest'], 'entity_type' | 'group_member_count'>,
    options?: PageOptions,
  ): AsyncIterableIterator<GroupEntity>;
}

/**
 * Pages through a groups listing by `group_member_offset`: each page's entities are its first
 * group's `entity_results`, the total its `filtered_entity_count`, an entity's identity its `entity_id`.
 */
function pageGroups(
  operation: string,
  start: number | undefined,
  { maxItems }: PageLimits,
  post: (offset: number) => Promise<ObjectsSchemas['GroupListResponse']>,
) {
  return paginate({
    operation,
    offsetField: 'group_member_offset',
    start,
    maxItems,
    keyOf: (entity: ObjectsSchemas['GroupEntityResult']) => entity.entity_id,
    async fetchPage(offset) {
      const page = await post(offset);
      const group = page.group_results?.[0];
      return {
        entities: group?.entity_results ?? [],
        total: group?.filtered_entity_count ?? page.filtered_entity_count,
      };
    },
  });
}

/** A typed openapi-fetch client of the object store API, with the workflow methods. */
export type ObjectsClient = Client<paths> & ObjectsWorkflows;

/**
 * Creates a client of the object store API with basic auth (the central endpoint's
 * credentials), plus {@link ObjectsWorkflows} (`listObjectStores`, `paginateGroups`, `paginateBuckets`).
 *
 * @param options `baseUrl` including `/oss/api/svc/v3` (e.g. `https://pc:9440/oss/api/svc/v3`)
 *   or `host` (+ `port`); `username`, `password`; see {@link ClientOptions}.
 * @throws {ClientOptionsError} when an option is missing or malformed (names the option).
 *   Calls reject with {@link RequestTimeoutError}, {@link NetworkError} or {@link InvalidResponseError}
 *   (an answer that is not what the spec says: not JSON, empty, cut off, too large, a write redirected elsewhere).
 */
export function createObjectsClient(options: ClientOptions): ObjectsClient {
  const { client } = createCore<paths>('objects', options);
  const workflows: ObjectsWorkflows = {
    async listObjectStores(listOptions) {
      const answer = await unwrap(client.GET('/objectstores/list', { signal: listOptions?.signal }));
      return answer.specs ?? [];
    },
    paginateGroups(body, pageOptions) {
      const limits = pageLimitsOf(pageOptions);
      if (body === null || typeof body !== 'object' || typeof body.entity_type !== 'string') {
        throw new InvalidArgumentError('entity_type', 'is required, e.g. { entity_type: "objectstore" }');
      }
      return pageGroups('groups_list (POST /groups)', body.group_member_offset, limits, (offset) =>
        unwrap(
          client.POST('/groups', {
            body: { ...body, group_member_offset: offset, group_member_count: limits.pageSize },
            signal: pageOptions?.signal,
          }),
        ),
      );
    },
    paginateBuckets(uuid, body, pageOptions) {
      checkUuid('uuid', uuid);
      const limits = pageLimitsOf(pageOptions);
      if (body !== undefined && (body === null || typeof body !== 'object'))
        throw new InvalidArgumentError(
          'body',
          'must be the rest of a groups query, e.g. { group_member_attributes: [{ attribute: "name" }] }',
        );
      const query = { ...(body ?? {}), entity_type: 'bucket' as const };
      return pageGroups(
        'objectstores_groups_list (POST /objectstores/{uuid}/groups)',
        query.group_member_offset,
        limits,
        (offset) =>
          unwrap(
            client.POST('/objectstores/{uuid}/groups', {
              params: { path: { uuid } },
              body: { ...query, group_member_offset: offset, group_member_count: limits.pageSize },
              signal: pageOptions?.signal,
            }),
          ),
      );
    },
  };
  return Object.assign(client, workflows);
}
