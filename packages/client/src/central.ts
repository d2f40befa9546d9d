// The central v3 API client (`/api/svc/v3`): images, tasks, clusters, subnets, services, and its workflows.
import type { Client } from 'openapi-fetch';
import { createCore, type UploadOptions } from './create.js';
import { describeOperation, InvalidArgumentError, WorkflowError } from './errors.js';
import type { components, operations, paths } from './generated/central.js';
import { lookup } from './middleware.js';
import type { ClientOptions } from './options.js';
import { type PageOptions, pageLimitsOf, paginate } from './paging.js';
import type { Cluster, CompleteImage, EnabledServiceStatus, ImageSpec, Subnet, SucceededTask, Task } from './types.js';
import {
  checkUuid,
  pollTask,
  required,
  type TaskVerdict,
  toBody,
  type UploadSource,
  unwrap,
  type WaitOptions,
} from './workflow.js';

/** Paths of the central v3 API (`/api/svc/v3`), as generated from `dist/central.json`. */
export type CentralPaths = paths;
/** Operations of the central v3 API keyed by operationId (`images_create`, `tasks_get`, ...). */
export type CentralOperations = operations;
/** Schemas of the central v3 API (`ImageIntentInput`, `Task`, `ErrorResponse`, ...). */
export type CentralSchemas = components['schemas'];

type CentralListPath = {
  [P in keyof paths]: P extends `${string}/list` ? (paths[P] extends { post: unknown } ? P : never) : never;
}[keyof paths];
type PostBody<Paths, P extends keyof Paths> = Paths[P] extends {
  post: { requestBody?: { content: { 'application/json': infer B } } };
}
  ? B
  : never;
type PostOk<Paths, P extends keyof Paths> = Paths[P] extends {
  post: { responses: { 200: { content: { 'application/json': infer R } } } };
}
  ? R
  : never;
/** The entity type a v3 list call returns, e.g. `ListEntity<'/images/list'>` is `ImageIntentResource`. */
export type CentralListEntity<P extends CentralListPath> = NonNullable<
  PostOk<paths, P> extends { entities?: (infer E)[] } ? E : never
>;
/** The request body of a v3 list call. */
export type CentralListRequest<P extends CentralListPath> = PostBody<paths, P>;

/**
 * One sub-request of {@link CentralWorkflows.batch}, typed by `operation` and the path it names.
 * `path_and_params` carries the API base path: this service's (`/api/svc/v3/images`) or
 * production's (`/api/nutanix/v3/images`); the service routes either.
 */
export type CentralBatchRequest =
  | { operation: 'POST'; path_and_params: `${string}/v3/images`; body: CentralSchemas['ImageIntentInput'] }
  | { operation: 'POST'; path_and_params: `${string}/v3/images/migrate`; body: CentralSchemas['ImageMigrateInput'] }
  | { operation: 'POST'; path_and_params: `${string}/v3/images/list`; body: CentralSchemas['ImageListRequest'] }
  | { operation: 'GET'; path_and_params: `${string}/v3/images/${string}` }
  | { operation: 'PUT'; path_and_params: `${string}/v3/images/${string}`; body: CentralSchemas['ImageIntentInput'] }
  | { operation: 'DELETE'; path_and_params: `${string}/v3/images/${string}` };

/** The body a sub-request answers on success, by its operation and path (images_create -> `ImageIntentResponse`, ...). */
export type CentralBatchBody<R> = R extends { operation: 'POST'; path_and_params: `${string}/images/migrate` }
  ? CentralSchemas['ImageMigrateResponse']
  : R extends { operation: 'POST'; path_and_params: `${string}/images/list` }
    ? CentralSchemas['ImageListResponse']
    : R extends { operation: 'DELETE' }
      ? CentralSchemas['ImageDeleteResponse']
      : CentralSchemas['ImageIntentResponse'];

/**
 * The answer to one sub-request: `status` is the HTTP status as a number and `ok` says whether
 * it is 2xx; `api_response` is then the body the call answers alone, else the v3 error body.
 */
export type CentralBatchResult<R> =
  | { ok: true; status: number; path_and_params: string; api_response: CentralBatchBody<R> }
  | { ok: false; status: number; path_and_params: string; api_response: CentralSchemas['ErrorResponse'] };

/** Options of {@link CentralWorkflows.batch}. */
export interface CentralBatchOptions {
  /** `CONTINUE` (default) runs every sub-request; `ABORT` stops at the first failure (the rest get no answer). */
  actionOnFailure?: 'CONTINUE' | 'ABORT';
  /** `SEQUENTIAL` (default) runs them in order; `NON_SEQUENTIAL` lets the service choose. */
  executionOrder?: 'SEQUENTIAL' | 'NON_SEQUENTIAL';
  signal?: AbortSignal;
}

/** Options of calls that wait for a task: the wait options plus `onProgress` with the v3 task. */
export type CentralWaitOptions = WaitOptions<Task>;

/** Workflow methods of the central v3 client. */
export interface CentralWorkflows {
  /**
   * Polls `GET /tasks/{uuid}` (tasks_get) until the task is SUCCEEDED and returns it.
   * @param uuid the task UUID (`status.execution_context.task_uuid` of a create or delete answer)
   * @throws {TaskFailedError} when the task ends FAILED or ABORTED (with `error_code`, `error_detail`)
   * @throws {TaskTimeoutError} after `timeoutMs` (default 10 minutes)
   * @throws {ApiError} when a poll answers with an error (e.g. 404 for an unknown task)
   * @throws the signal's reason when `signal` fires
   */
  waitForTask(uuid: string, options?: CentralWaitOptions): Promise<SucceededTask>;
  /**
   * Asks the service to abort a task (`POST /tasks/{uuid}/abort`, tasks_abort). The abort is
   * asynchronous: the task first reads `requested_status` ABORTED, then `status` ABORTED, so a
   * {@link CentralWorkflows.waitForTask} on it rejects with a `TaskFailedError` of status ABORTED.
   * Not retried.
   * @param uuid the task UUID
   * @throws {InvalidArgumentError} when `uuid` is not a UUID
   * @throws {ApiError} when the service refuses (404 for an unknown task; the body is `{ message_list }`)
   */
  abortTask(uuid: string, options?: { signal?: AbortSignal }): Promise<void>;
  /**
   * Enables the object store service, which the object store API needs before the first object
   * store: reads `GET /services/oss/status` (services_get_status) and, unless it is already
   * ENABLED, sends `POST /services/oss` `{ state: 'ENABLE' }` (services_oss_enable), waits for
   * its task and reads the status again. Returns the status, `service_enablement_status` ENABLED.
   * @throws {TaskFailedError} | {TaskTimeoutError} | {ApiError}; {@link WorkflowError} when the
   *   service is still not ENABLED after its task succeeded
   */
  enableObjectsService(options?: CentralWaitOptions): Promise<EnabledServiceStatus>;
  /**
   * Iterates every entity of a v3 list call (`POST /images/list`, `/clusters/list`,
   * `/subnets/list`, `/tasks/list`), asking `length` = `pageSize` entities per call from
   * `offset` (default 0) until `metadata.total_matches` are seen or a page comes back empty.
   * @throws {ApiError} when a page call fails (after the retries of read-only calls)
   * @throws {PaginationError} when a page repeats entities already seen (the server ignores the offset) or goes past the announced total
   */
  paginate<P extends CentralListPath>(
    path: P,
    body?: Omit<CentralListRequest<P>, 'length'>,
    options?: PageOptions,
  ): AsyncIterableIterator<CentralListEntity<P>>;
  /**
   * Creates an image from a URL (`POST /images`, images_create), waits for its task and returns
   * the image (`GET /images/{uuid}`, images_get) in state COMPLETE.
   * @param spec the image `spec`: `name`, `resources.image_type`, `resources.source_uri`, ...
   * @throws {TaskFailedError} | {TaskTimeoutError} | {ApiError}; {@link WorkflowError} when the image is not COMPLETE after its task
   */
  createImageFromUrl(spec: ImageSpec, options?: CentralWaitOptions): Promise<CompleteImage>;
  /**
   * Deletes an image (`DELETE /images/{uuid}`, images_delete; the image goes DELETE_PENDING) and
   * waits for the delete task; returns the finished task.
   * @throws {InvalidArgumentError} when `uuid` is not a UUID; {TaskFailedError} | {TaskTimeoutError} | {ApiError}
   */
  deleteImage(uuid: string, options?: CentralWaitOptions): Promise<SucceededTask>;
  /**
   * Runs several v3 calls in one request (`POST /batch`, batch_create) and returns one result per
   * sub-request, in order, each typed by its request. A refused sub-request is a result with
   * `ok: false` and the error body, not a rejection; an `api_response` production sends as a JSON
   * string is parsed. Not retried (the sub-requests may create entities).
   * @param requests the sub-requests (at least one)
   * @throws {InvalidArgumentError} when `requests` is empty or not an array
   * @throws {ApiError} when the batch itself is refused (401, 422 for a malformed batch body)
   * @throws {WorkflowError} when a sub-request's answer carries no numeric `status`
   */
  batch<const R extends readonly CentralBatchRequest[]>(
    requests: R,
    options?: CentralBatchOptions,
  ): Promise<{ -readonly [K in keyof R]: CentralBatchResult<R[K]> }>;
  /**
   * Reads one cluster (`GET /clusters/{uuid}`, clusters_get): `metadata`, `spec` and `status`
   * as in the cluster list.
   * @throws {InvalidArgumentError} when `uuid` is not a UUID; {ApiError} (404 for an unknown cluster)
   */
  getCluster(uuid: string, options?: { signal?: AbortSignal }): Promise<Cluster>;
  /**
   * Reads one subnet (`GET /subnets/{uuid}`, subnets_get): `metadata`, `spec` and `status` as in
   * the subnet list.
   * @throws {InvalidArgumentError} when `uuid` is not a UUID; {ApiError} (404 for an unknown subnet)
   */
  getSubnet(uuid: string, options?: { signal?: AbortSignal }): Promise<Subnet>;
  /**
   * Uploads an image's bytes (`PUT /images/{uuid}/file`, images_upload_file) as a stream: memory
   * stays flat whatever the size. Not retried.
   * @param file a file path, Blob, bytes, web stream, or Node stream / async iterable of bytes
   * @throws {InvalidArgumentError} for a bad UUID or an unreadable file; {ApiError} for an error answer
   */
  uploadImageFile(uuid: string, file: UploadSource, options?: UploadOptions): Promise<void>;
}

/** A typed openapi-fetch client of the central v3 API, with the workflow methods. */
export type CentralClient = Client<paths> & CentralWorkflows;

/** The task UUID of a v3 create/delete answer (`execution_context.task_uuid` is a string or a list). */
function taskOf(status: { execution_context?: { task_uuid?: string | string[] } } | undefined, what: string): string {
  const t = status?.execution_context?.task_uuid;
  const uuid = Array.isArray(t) ? t[0] : t;
  if (!uuid) throw new WorkflowError(`${what}: the answer carries no status.execution_context.task_uuid to follow`);
  return uuid;
}

const v3Verdict = (task: Task): TaskVerdict =>
  required(task?.status, 'tasks_get', 'status') === 'SUCCEEDED'
    ? { state: 'succeeded' }
    : task.status === 'FAILED' || task.status === 'ABORTED'
      ? { state: 'failed', status: task.status, code: task.error_code, detail: task.error_detail }
      : { state: 'pending' };

/**
 * Creates a client of the central endpoint's v3 API (images, tasks, clusters, subnets, services)
 * with basic auth, plus the workflows {@link CentralWorkflows} (`waitForTask`, `abortTask`,
 * `enableObjectsService`, `paginate`, `createImageFromUrl`, `deleteImage`, `uploadImageFile`, `batch`,
 * `getCluster`, `getSubnet`).
 *
 * Every raw call is typed from the spec: `client.POST('/images/list', { body: { kind: 'image' } })`
 * resolves to `{ data, error, response }` (use {@link unwrap} to get the data or an `ApiError`).
 * Reads (GET, and the lists and polls the spec marks `x-svc-idempotent`) are retried on network
 * errors, 429 and 503; nothing else is.
 *
 * @param options `baseUrl` including `/api/svc/v3` (e.g. `https://pc:9440/api/svc/v3`) or `host`
 *   (+ `port`), `username`, `password`; see {@link ClientOptions}.
 * @throws {ClientOptionsError} when an option is missing or malformed (names the option).
 *   Calls reject with {@link RequestTimeoutError}, {@link NetworkError} or {@link InvalidResponseError}
 *   (an answer that is not what the spec says: not JSON, empty, cut off, too large, a write redirected elsewhere).
 */
export function createCentralClient(options: ClientOptions): CentralClient {
  const { client, uploadFetch } = createCore<paths>('central', options);
  const workflows: CentralWorkflows = {
    waitForTask(uuid, waitOptions) {
      checkUuid('uuid', uuid);
      return pollTask<Task>(
        uuid,
        (signal) => unwrap(client.GET('/tasks/{uuid}', { params: { path: { uuid } }, signal })),
        v3Verdict,
        waitOptions,
      ) as Promise<SucceededTask>;
    },
    async abortTask(uuid, abortOptions) {
      checkUuid('uuid', uuid);
      await unwrap(client.POST('/tasks/{uuid}/abort', { params: { path: { uuid } }, signal: abortOptions?.signal }));
    },
    async enableObjectsService(waitOptions) {
      const status = () =>
        unwrap(
          client.GET('/services/{service_name}/status', {
            params: { path: { service_name: 'oss' } },
            signal: waitOptions?.signal,
          }),
        );
      const before = await status();
      if (before.service_enablement_status === 'ENABLED') return before as EnabledServiceStatus;
      const started = await unwrap(
        client.POST('/services/oss', { body: { state: 'ENABLE' }, signal: waitOptions?.signal }),
      );
      await workflows.waitForTask(started.task_uuid, waitOptions);
      const after = await status();
      if (after.service_enablement_status !== 'ENABLED') {
        throw new WorkflowError(
          `the object store service is ${after.service_enablement_status} after its enable task ${started.task_uuid} succeeded; expected ENABLED`,
        );
      }
      return after as EnabledServiceStatus;
    },
    paginate<P extends CentralListPath>(
      path: P,
      body?: Omit<CentralListRequest<P>, 'length'>,
      pageOptions?: PageOptions,
    ) {
      const { pageSize: length, maxItems } = pageLimitsOf(pageOptions);
      const request = { ...(body ?? {}) } as { offset?: number };
      const post = client.POST as (
        p: string,
        init: object,
      ) => Promise<{ response: Response; data?: unknown; error?: unknown }>;
      return paginate<CentralListEntity<P>>({
        operation: describeOperation(
          lookup('central', 'POST', path)?.op ?? { api: 'central', method: 'POST', path, operationId: undefined },
        ),
        offsetField: 'offset',
        start: request.offset,
        maxItems,
        keyOf: (entity) => (entity as { metadata?: { uuid?: string } }).metadata?.uuid,
        async fetchPage(offset) {
          const page = (await unwrap(
            post(path, { body: { ...request, offset, length }, signal: pageOptions?.signal }),
          )) as {
            metadata?: { total_matches?: number };
            entities?: unknown[];
          };
          return { entities: (page.entities ?? []) as CentralListEntity<P>[], total: page.metadata?.total_matches };
        },
      });
    },
    async createImageFromUrl(spec, waitOptions) {
      if (spec === null || typeof spec !== 'object')
        throw new InvalidArgumentError('spec', 'must be an image spec { name, resources: { image_type, source_uri } }');
      if (typeof spec.name !== 'string' || spec.name === '')
        throw new InvalidArgumentError('spec.name', 'must be a non-empty string');
      if (typeof spec.resources?.source_uri !== 'string')
        throw new InvalidArgumentError(
          'spec.resources.source_uri',
          'must be the URL the service fetches the image from',
        );
      const created = await unwrap(
        client.POST('/images', { body: { api_version: '3.1.0', metadata: { kind: 'image' }, spec } }),
      );
      const imageUuid = required(created.metadata?.uuid, 'images_create', 'metadata.uuid');
      await workflows.waitForTask(taskOf(created.status, 'images_create'), waitOptions);
      const image = await unwrap(
        client.GET('/images/{uuid}', { params: { path: { uuid: imageUuid } }, signal: waitOptions?.signal }),
      );
      const state = required(image.status?.state, 'images_get', 'status.state');
      required(image.metadata?.uuid, 'images_get', 'metadata.uuid');
      if (state !== 'COMPLETE')
        throw new WorkflowError(`image ${imageUuid} is ${state} after its create task succeeded; expected COMPLETE`);
      return image as CompleteImage;
    },
    async deleteImage(uuid, waitOptions) {
      checkUuid('uuid', uuid);
      const deleted = await unwrap(
        client.DELETE('/images/{uuid}', { params: { path: { uuid } }, signal: waitOptions?.signal }),
      );
      return workflows.waitForTask(taskOf(deleted.status, 'images_delete'), waitOptions);
    },
    async batch(requests, batchOptions) {
      if (!Array.isArray(requests) || requests.length === 0)
        throw new InvalidArgumentError('requests', 'must be a non-empty array of { operation, path_and_params, body }');
      const answer = await unwrap(
        client.POST('/batch', {
          body: {
            action_on_failure: batchOptions?.actionOnFailure ?? 'CONTINUE',
            execution_order: batchOptions?.executionOrder ?? 'SEQUENTIAL',
            api_version: '3.0',
            api_request_list: requests.map((r) => ({ ...r }) as CentralSchemas['BatchApiRequest']),
          },
          signal: batchOptions?.signal,
        }),
      );
      return (answer.api_response_list ?? []).map((entry, i) => {
        const status = Number(entry.status);
        if (!Number.isInteger(status))
          throw new WorkflowError(
            `batch_create: api_response_list[${i}].status is ${JSON.stringify(entry.status)}, not an HTTP status`,
          );
        let body = entry.api_response;
        // some production versions send the sub-answer as a JSON string
        if (typeof body === 'string') {
          try {
            body = JSON.parse(body);
          } catch {
            // not JSON: keep the text as it came
          }
        }
        return {
          ok: status >= 200 && status < 300,
          status,
          path_and_params: entry.path_and_params,
          api_response: body,
        };
      }) as never;
    },
    async getCluster(uuid, getOptions) {
      checkUuid('uuid', uuid);
      return unwrap(client.GET('/clusters/{uuid}', { params: { path: { uuid } }, signal: getOptions?.signal }));
    },
    async getSubnet(uuid, getOptions) {
      checkUuid('uuid', uuid);
      return unwrap(client.GET('/subnets/{uuid}', { params: { path: { uuid } }, signal: getOptions?.signal }));
    },
    async uploadImageFile(uuid, file, uploadOptions) {
      checkUuid('uuid', uuid);
      const body = await toBody('file', file);
      await unwrap(
        client.PUT('/images/{uuid}/file', {
          fetch: uploadFetch(uploadOptions?.timeoutMs, body),
          params: { path: { uuid } },
          body,
          headers: { 'Content-Type': 'application/octet-stream' },
          signal: uploadOptions?.signal,
        }),
      );
    },
  };
  return Object.assign(client, workflows);
}
