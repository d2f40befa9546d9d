import createClient, { createQuerySerializer, type Client } from 'openapi-fetch';
import type { components as centralComponents, operations as centralOperations, paths as centralPaths } from './generated/central.js';
import type { components as elementComponents, operations as elementOperations, paths as elementPaths } from './generated/element.js';
import type { components as objectsComponents, operations as objectsOperations, paths as objectsPaths } from './generated/objects.js';
import { serverBasePaths, type ApiName } from './generated/operations.js';
import { isBinaryBody } from './binary.js';
import { basicAuth, checkOptions, type ClientOptions } from './options.js';
import { createDispatcher, createTransport } from './transport.js';
import { ClientRequest } from './request.js';
import { InvalidArgumentError, WorkflowError } from './errors.js';
import { checkUuid, isUuid, pollTask, toBody, unwrap, type TaskVerdict, type UploadSource, type WaitOptions } from './workflow.js';

/** Paths of the central v3 API (`/api/svc/v3`), as generated from `dist/central.json`. */
export type CentralPaths = centralPaths;
/** Operations of the central v3 API keyed by operationId (`images_create`, `tasks_get`, ...). */
export type CentralOperations = centralOperations;
/** Schemas of the central v3 API (`ImageIntentInput`, `Task`, `ErrorResponse`, ...). */
export type CentralSchemas = centralComponents['schemas'];
/** Paths of the element-level API (`/v0.8/...`, `/v2.0/...`), from `dist/element.json`. */
export type ElementPaths = elementPaths;
/** Operations of the element-level API keyed by operationId (`images_upload_v0_8`, ...). */
export type ElementOperations = elementOperations;
/** Schemas of the element-level API. */
export type ElementSchemas = elementComponents['schemas'];
/** Paths of the object store API (`/oss/api/svc/v3`), from `dist/objects.json`. */
export type ObjectsPaths = objectsPaths;
/** Operations of the object store API keyed by operationId (`objectstores_create`, ...). */
export type ObjectsOperations = objectsOperations;
/** Schemas of the object store API. */
export type ObjectsSchemas = objectsComponents['schemas'];

/** Serializes JSON bodies; binary bodies (uploads) pass through untouched. */
export function bodySerializer(body: unknown): BodyInit {
  return isBinaryBody(body) ? (body as BodyInit) : JSON.stringify(body);
}

const NAMES: Record<ApiName, string> = { central: 'CentralClient', element: 'ElementClient', objects: 'ObjectsClient' };

type FetchFn = (input: Request) => Promise<Response>;

interface Core<Paths extends {}> {
  client: Client<Paths>;
  /** The fetch of uploads (given per call, so the client's middleware still runs): a total time limit when given (0: none). */
  uploadFetch: (timeoutMs: number | undefined) => FetchFn;
}

function create<Paths extends {}>(api: ApiName, options: ClientOptions): Core<Paths> {
  const resolved = checkOptions(options, serverBasePaths[api]);
  // Without TLS options or a time limit, Node's own dispatcher does: an npm undici Agent under
  // Node 20's fetch costs ~10% of a loopback call (see the benchmark).
  const dispatcher = resolved.tls.insecure || resolved.tls.ca || resolved.ownTimeout ? createDispatcher(resolved.tls, resolved.timeoutMs) : undefined;
  const basePath = new URL(resolved.baseUrl).pathname.replace(/\/+$/, '');
  const auth = basicAuth(options.username, options.password);
  // signalTimeoutMs: an injected fetch may ignore the dispatcher, so it gets a timer; uploads get one only when asked.
  const transport = (signalTimeoutMs: number) =>
    createTransport({ api, basePath, dispatcher, injected: options.fetch, timeoutMs: resolved.timeoutMs, signalTimeoutMs, retry: resolved.retry, signal: options.signal }) as FetchFn;
  const client = createClient<Paths>({
    baseUrl: resolved.baseUrl,
    bodySerializer,
    // Built once: given options, openapi-fetch would build a serializer on every call.
    querySerializer: createQuerySerializer(),
    headers: { Accept: 'application/json' },
    fetch: transport(options.fetch && resolved.ownTimeout ? resolved.timeoutMs : 0),
    Request: ClientRequest as unknown as typeof Request,
  });
  client.use(auth, ...(options.middleware ?? []));
  // Printing a client shows where it points, never its credentials.
  const label = `${NAMES[api]} <${resolved.baseUrl}>`;
  Object.defineProperties(client, {
    toString: { value: () => label, enumerable: false },
    toJSON: { value: () => ({ client: NAMES[api], baseUrl: resolved.baseUrl }), enumerable: false },
    [Symbol.for('nodejs.util.inspect.custom')]: { value: () => label, enumerable: false },
  });
  const uploadFetches = new Map<number, FetchFn>();
  return {
    client,
    uploadFetch(timeoutMs = 0) {
      if (!(typeof timeoutMs === 'number' && timeoutMs >= 0)) throw new InvalidArgumentError('timeoutMs', `must be a number of milliseconds; got ${JSON.stringify(timeoutMs)}`);
      let f = uploadFetches.get(timeoutMs);
      if (!f) uploadFetches.set(timeoutMs, (f = transport(timeoutMs)));
      return f;
    },
  };
}

// ---------------------------------------------------------------- central

type CentralListPath = { [P in keyof centralPaths]: P extends `${string}/list` ? (centralPaths[P] extends { post: unknown } ? P : never) : never }[keyof centralPaths];
type PostBody<Paths, P extends keyof Paths> = Paths[P] extends { post: { requestBody?: { content: { 'application/json': infer B } } } } ? B : never;
type PostOk<Paths, P extends keyof Paths> = Paths[P] extends { post: { responses: { 200: { content: { 'application/json': infer R } } } } } ? R : never;
/** The entity type a v3 list call returns, e.g. `ListEntity<'/images/list'>` is `ImageIntentResource`. */
export type CentralListEntity<P extends CentralListPath> = NonNullable<PostOk<centralPaths, P> extends { entities?: (infer E)[] } ? E : never>;
/** The request body of a v3 list call. */
export type CentralListRequest<P extends CentralListPath> = PostBody<centralPaths, P>;

/** Options of the paging iterators. */
export interface PageOptions {
  /** Entities asked per call (`length`, or `group_member_count` for groups); default 100. */
  pageSize?: number;
  /** Stops the iteration when it fires (the iterator rejects with the signal's reason). */
  signal?: AbortSignal;
}

/** Options of calls that wait for a task: the wait options plus `onProgress` with the v3 task. */
export type CentralWaitOptions = WaitOptions<CentralSchemas['Task']>;

/** Options of uploads. The client's `timeoutMs` bounds only the wait for the answer after the last byte. */
export interface UploadOptions {
  /** Total time limit for sending the bytes and getting the answer, in milliseconds; default none. */
  timeoutMs?: number;
  /** Aborts the upload. */
  signal?: AbortSignal;
}

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
  waitForTask(uuid: string, options?: CentralWaitOptions): Promise<CentralSchemas['Task']>;
  /**
   * Iterates every entity of a v3 list call (`POST /images/list`, `/clusters/list`,
   * `/subnets/list`, `/tasks/list`), asking `length` = `pageSize` entities per call from
   * `offset` (default 0) until `metadata.total_matches` are seen or a page comes back empty.
   * @throws {ApiError} when a page call fails (after the retries of idempotent calls)
   */
  paginate<P extends CentralListPath>(path: P, body?: Omit<CentralListRequest<P>, 'length'>, options?: PageOptions): AsyncIterableIterator<CentralListEntity<P>>;
  /**
   * Creates an image from a URL (`POST /images`, images_create), waits for its task and returns
   * the image (`GET /images/{uuid}`, images_get) in state COMPLETE.
   * @param spec the image `spec`: `name`, `resources.image_type`, `resources.source_uri`, ...
   * @throws {TaskFailedError} | {TaskTimeoutError} | {ApiError}; {@link WorkflowError} when the image is not COMPLETE after its task
   */
  createImageFromUrl(spec: CentralSchemas['Image'], options?: CentralWaitOptions): Promise<CentralSchemas['ImageIntentResponse']>;
  /**
   * Deletes an image (`DELETE /images/{uuid}`, images_delete; the image goes DELETE_PENDING) and
   * waits for the delete task; returns the finished task.
   * @throws {InvalidArgumentError} when `uuid` is not a UUID; {TaskFailedError} | {TaskTimeoutError} | {ApiError}
   */
  deleteImage(uuid: string, options?: CentralWaitOptions): Promise<CentralSchemas['Task']>;
  /**
   * Uploads an image's bytes (`PUT /images/{uuid}/file`, images_upload_file) as a stream: memory
   * stays flat whatever the size. Not retried.
   * @param file a file path, Blob, bytes, web stream, or Node stream / async iterable of bytes
   * @throws {InvalidArgumentError} for a bad UUID or an unreadable file; {ApiError} for an error answer
   */
  uploadImageFile(uuid: string, file: UploadSource, options?: UploadOptions): Promise<void>;
}

/** A typed openapi-fetch client of the central v3 API, with the workflow methods. */
export type CentralClient = Client<centralPaths> & CentralWorkflows;

/** The task UUID of a v3 create/delete answer (`execution_context.task_uuid` is a string or a list). */
function taskOf(status: { execution_context?: { task_uuid?: string | string[] } } | undefined, what: string): string {
  const t = status?.execution_context?.task_uuid;
  const uuid = Array.isArray(t) ? t[0] : t;
  if (!uuid) throw new WorkflowError(`${what}: the answer carries no status.execution_context.task_uuid to follow`);
  return uuid;
}

function pageSizeOf(options: PageOptions | undefined): number {
  const size = options?.pageSize ?? 100;
  if (!Number.isInteger(size) || size < 1) throw new InvalidArgumentError('pageSize', `must be a positive integer; got ${JSON.stringify(size)}`);
  return size;
}

const v3Verdict = (task: CentralSchemas['Task']): TaskVerdict =>
  task.status === 'SUCCEEDED'
    ? { state: 'succeeded' }
    : task.status === 'FAILED' || task.status === 'ABORTED'
      ? { state: 'failed', status: task.status, code: task.error_code, detail: task.error_detail }
      : { state: 'pending' };

/**
 * Creates a client of the central endpoint's v3 API (images, tasks, clusters, subnets) with
 * basic auth, plus the workflows {@link CentralWorkflows} (`waitForTask`, `paginate`,
 * `createImageFromUrl`, `deleteImage`, `uploadImageFile`).
 *
 * Every raw call is typed from the spec: `client.POST('/images/list', { body: { kind: 'image' } })`
 * resolves to `{ data, error, response }` (use {@link unwrap} to get the data or an `ApiError`).
 * Reads (GET, list, poll) are retried on network errors, 429 and 503; nothing else is.
 *
 * @param options `baseUrl` including `/api/svc/v3` (e.g. `https://pc:9440/api/svc/v3`) or `host`
 *   (+ `port`), `username`, `password`; see {@link ClientOptions}.
 * @throws {ClientOptionsError} when an option is missing or malformed (names the option).
 */
export function createCentralClient(options: ClientOptions): CentralClient {
  const { client, uploadFetch } = create<centralPaths>('central', options);
  const workflows: CentralWorkflows = {
    waitForTask(uuid, waitOptions) {
      checkUuid('uuid', uuid);
      return pollTask(uuid, (signal) => unwrap(client.GET('/tasks/{uuid}', { params: { path: { uuid } }, signal })), v3Verdict, waitOptions);
    },
    paginate<P extends CentralListPath>(path: P, body?: Omit<CentralListRequest<P>, 'length'>, pageOptions?: PageOptions) {
      const length = pageSizeOf(pageOptions);
      const request = { ...(body ?? {}) } as { offset?: number };
      if (request.offset !== undefined && !(Number.isInteger(request.offset) && request.offset >= 0)) {
        throw new InvalidArgumentError('offset', `must be an integer >= 0; got ${JSON.stringify(request.offset)}`);
      }
      return (async function* () {
        let offset = request.offset ?? 0;
        for (;;) {
          const page = (await unwrap(
            (client.POST as (p: string, init: object) => Promise<{ response: Response; data?: unknown; error?: unknown }>)(path, {
              body: { ...request, offset, length },
              signal: pageOptions?.signal,
            }),
          )) as { metadata?: { total_matches?: number }; entities?: CentralListEntity<P>[] };
          const entities = page.entities ?? [];
          yield* entities;
          offset += entities.length;
          const total = page.metadata?.total_matches;
          if (entities.length === 0 || (typeof total === 'number' && offset >= total)) return;
        }
      })();
    },
    async createImageFromUrl(spec, waitOptions) {
      if (spec === null || typeof spec !== 'object') throw new InvalidArgumentError('spec', 'must be an image spec { name, resources: { image_type, source_uri } }');
      if (typeof spec.name !== 'string' || spec.name === '') throw new InvalidArgumentError('spec.name', 'must be a non-empty string');
      if (typeof spec.resources?.source_uri !== 'string') throw new InvalidArgumentError('spec.resources.source_uri', 'must be the URL the service fetches the image from');
      const created = await unwrap(client.POST('/images', { body: { api_version: '3.1.0', metadata: { kind: 'image' }, spec } }));
      const imageUuid = created.metadata.uuid;
      await workflows.waitForTask(taskOf(created.status, 'images_create'), waitOptions);
      if (!imageUuid) throw new WorkflowError('images_create: the answer carries no metadata.uuid');
      const image = await unwrap(client.GET('/images/{uuid}', { params: { path: { uuid: imageUuid } }, signal: waitOptions?.signal }));
      if (image.status.state !== 'COMPLETE') throw new WorkflowError(`image ${imageUuid} is ${image.status.state} after its create task succeeded; expected COMPLETE`);
      return image;
    },
    async deleteImage(uuid, waitOptions) {
      checkUuid('uuid', uuid);
      const deleted = await unwrap(client.DELETE('/images/{uuid}', { params: { path: { uuid } }, signal: waitOptions?.signal }));
      return workflows.waitForTask(taskOf(deleted.status, 'images_delete'), waitOptions);
    },
    async uploadImageFile(uuid, file, uploadOptions) {
      checkUuid('uuid', uuid);
      const body = await toBody('file', file);
      await unwrap(
        client.PUT('/images/{uuid}/file', {
          fetch: uploadFetch(uploadOptions?.timeoutMs),
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

// ---------------------------------------------------------------- element

type TaskV0_8 = ElementSchemas['TaskV0_8'];
type TaskV2_0 = ElementSchemas['TaskV2_0'];

/** What {@link ElementWorkflows.uploadImage} needs. Give exactly one of `file` and `stream`. */
export type UploadImageInput = {
  /** Image name. */
  name: string;
  /** `DISK_IMAGE` or `ISO_IMAGE`. */
  imageType: ElementSchemas['ImageType'];
  /** Optional description. */
  annotation?: string;
  /** Storage container: its UUID, or its name (looked up with `GET /v2.0/storage_containers`). */
  container: string;
} & ({ file: string | Blob; stream?: undefined } | { stream: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>; file?: undefined });

/** Workflow methods of the element-level client. */
export interface ElementWorkflows {
  /**
   * Polls `GET /v0.8/tasks/{uuid}` (tasks_get_v0_8, `progressStatus`) or with `version: 'v2.0'`
   * `GET /v2.0/tasks/{uuid}` (tasks_get_v2_0, `progress_status`) until `Succeeded`.
   * @throws {TaskFailedError} for `Failed`/`Aborted` (error_code, error_detail from `metaResponse`/`meta_response`)
   * @throws {TaskTimeoutError} | {ApiError} | the signal's reason
   */
  waitForTask(uuid: string, options?: WaitOptions<TaskV0_8> & { version?: 'v0.8' }): Promise<TaskV0_8>;
  waitForTask(uuid: string, options: WaitOptions<TaskV2_0> & { version: 'v2.0' }): Promise<TaskV2_0>;
  /**
   * The two-phase upload: creates the image record (`POST /v0.8/images`), waits for its task,
   * checks the image is INACTIVE (`GET /v0.8/images/{uuid}`), resolves the container UUID from a
   * name (`GET /v2.0/storage_containers`), streams the bytes (`PUT /v0.8/images/{uuid}/upload`
   * with `X-Svc-Destination-Container`), waits for the upload task and returns the image.
   * Memory stays flat whatever the size. Nothing is retried except the reads.
   * @throws {InvalidArgumentError} naming the bad field (also for an unknown container name)
   * @throws {WorkflowError} when the image is not INACTIVE before the upload
   * @throws {TaskFailedError} | {TaskTimeoutError} | {ApiError}
   */
  uploadImage(input: UploadImageInput, options?: WaitOptions<TaskV0_8> & { uploadTimeoutMs?: number }): Promise<ElementSchemas['ImageV0_8']>;
  /**
   * The UUID of the storage container called `name` (`GET /v2.0/storage_containers`).
   * @throws {InvalidArgumentError} when no container has that name (the message lists the names found)
   */
  resolveContainer(name: string, options?: { signal?: AbortSignal }): Promise<string>;
}

/** A typed openapi-fetch client of the element-level API (v0.8 and v2.0), with the workflow methods. */
export type ElementClient = Client<elementPaths> & ElementWorkflows;

const elementVerdict = (status: string, code: string | number | undefined, detail: string | undefined): TaskVerdict =>
  status === 'Succeeded'
    ? { state: 'succeeded' }
    : status === 'Failed' || status === 'Aborted'
      ? { state: 'failed', status, code: code === undefined ? undefined : String(code), detail }
      : { state: 'pending' };

/**
 * Creates a client of the element-level endpoint's v0.8 and v2.0 APIs with basic auth, plus
 * {@link ElementWorkflows} (`waitForTask`, `uploadImage`, `resolveContainer`).
 * Paths carry the version (`/v0.8/images`, `/v2.0/storage_containers`).
 *
 * @param options `baseUrl` of either interchangeable base: `https://pe:9440/api/svc`
 *   (preferred) or `https://pe:9440/PrismGateway/services/rest`, or `host` (+ `port`);
 *   `username`, `password`; see {@link ClientOptions}.
 * @throws {ClientOptionsError} when an option is missing or malformed (names the option).
 */
export function createElementClient(options: ClientOptions): ElementClient {
  const { client, uploadFetch } = create<elementPaths>('element', options);
  function waitForTask(uuid: string, waitOptions?: WaitOptions<TaskV0_8> & { version?: 'v0.8' }): Promise<TaskV0_8>;
  function waitForTask(uuid: string, waitOptions: WaitOptions<TaskV2_0> & { version: 'v2.0' }): Promise<TaskV2_0>;
  function waitForTask(uuid: string, waitOptions?: (WaitOptions<TaskV0_8> | WaitOptions<TaskV2_0>) & { version?: 'v0.8' | 'v2.0' }): Promise<TaskV0_8 | TaskV2_0> {
    checkUuid('uuid', uuid);
    const version = waitOptions?.version ?? 'v0.8';
    if (version === 'v2.0') {
      return pollTask(
        uuid,
        (signal) => unwrap(client.GET('/v2.0/tasks/{uuid}', { params: { path: { uuid } }, signal })),
        (t) => elementVerdict(t.progress_status, t.meta_response?.error_code, t.meta_response?.error_detail ?? t.meta_response?.error),
        waitOptions as WaitOptions<TaskV2_0>,
      );
    }
    if (version !== 'v0.8') throw new InvalidArgumentError('version', `must be "v0.8" or "v2.0"; got ${JSON.stringify(version)}`);
    return pollTask(
      uuid,
      (signal) => unwrap(client.GET('/v0.8/tasks/{uuid}', { params: { path: { uuid } }, signal })),
      (t) => elementVerdict(t.progressStatus, t.metaResponse?.error, t.metaResponse?.errorDetail),
      waitOptions as WaitOptions<TaskV0_8>,
    );
  }
  async function resolveContainer(name: string, o?: { signal?: AbortSignal }): Promise<string> {
    if (typeof name !== 'string' || name === '') throw new InvalidArgumentError('container', 'must be a storage container UUID or name');
    const list = await unwrap(client.GET('/v2.0/storage_containers', { signal: o?.signal }));
    const found = list.entities.find((c) => c.name === name);
    if (!found) {
      const names = list.entities.map((c) => JSON.stringify(c.name)).join(', ') || 'none';
      throw new InvalidArgumentError('container', `names no storage container: "${name}" not found (containers: ${names})`);
    }
    return found.storage_container_uuid;
  }
  const workflows: ElementWorkflows = {
    waitForTask,
    resolveContainer,
    async uploadImage(input, waitOptions) {
      if (input === null || typeof input !== 'object') throw new InvalidArgumentError('input', 'must be { name, imageType, container, file | stream }');
      const { name, imageType, annotation, container, file, stream } = input;
      if (typeof name !== 'string' || name === '') throw new InvalidArgumentError('name', 'must be a non-empty string');
      if (imageType !== 'DISK_IMAGE' && imageType !== 'ISO_IMAGE') throw new InvalidArgumentError('imageType', `must be DISK_IMAGE or ISO_IMAGE; got ${JSON.stringify(imageType)}`);
      if (typeof container !== 'string' || container === '') throw new InvalidArgumentError('container', 'must be a storage container UUID or name');
      if ((file === undefined) === (stream === undefined)) throw new InvalidArgumentError('file', 'give exactly one of file (a path or Blob) and stream');
      const body = await toBody(file !== undefined ? 'file' : 'stream', file ?? stream);
      const signal = waitOptions?.signal;
      const { uploadTimeoutMs, ...wait } = waitOptions ?? {};
      // 1. the record, and its task, which names the new image
      const created = await unwrap(client.POST('/v0.8/images', { body: { name, imageType, ...(annotation ? { annotation } : {}) }, signal }));
      const task = await waitForTask(created.taskUuid, wait);
      const imageUuid = task.entityList?.[0]?.uuid;
      if (!imageUuid) throw new WorkflowError(`task ${created.taskUuid} of images_create_v0_8 names no image in entityList`);
      // 2. the upload proceeds only while the image is INACTIVE
      const record = await unwrap(client.GET('/v0.8/images/{uuid}', { params: { path: { uuid: imageUuid } }, signal }));
      if (record.imageState !== 'INACTIVE') throw new WorkflowError(`image ${imageUuid} is ${record.imageState ?? 'in an unknown state'}; the upload needs INACTIVE`);
      // 3. the container, 4. the bytes
      const containerUuid = isUuid(container) ? container : await resolveContainer(container, { signal });
      const uploaded = await unwrap(
        client.PUT('/v0.8/images/{uuid}/upload', {
          fetch: uploadFetch(uploadTimeoutMs),
          params: { path: { uuid: imageUuid }, header: { 'X-Svc-Destination-Container': containerUuid } },
          body,
          headers: { 'Content-Type': 'application/octet-stream' },
          signal,
        }),
      );
      await waitForTask(uploaded.taskUuid, wait);
      return unwrap(client.GET('/v0.8/images/{uuid}', { params: { path: { uuid: imageUuid } }, signal }));
    },
  };
  return Object.assign(client, workflows);
}

// ---------------------------------------------------------------- objects

/** Workflow methods of the object store client. */
export interface ObjectsWorkflows {
  /**
   * Iterates the entities of the groups listing (`POST /groups`, groups_list), asking
   * `group_member_count` = `pageSize` per call from `group_member_offset` until
   * `filtered_entity_count` are seen or a page is empty.
   * @throws {ApiError} when a page call fails (after the retries of idempotent calls)
   */
  paginateGroups(body: Omit<ObjectsSchemas['GroupListRequest'], 'group_member_count'>, options?: PageOptions): AsyncIterableIterator<ObjectsSchemas['GroupEntityResult']>;
}

/** A typed openapi-fetch client of the object store API, with the workflow methods. */
export type ObjectsClient = Client<objectsPaths> & ObjectsWorkflows;

/**
 * Creates a client of the object store API with basic auth (the central endpoint's
 * credentials), plus {@link ObjectsWorkflows} (`paginateGroups`).
 *
 * @param options `baseUrl` including `/oss/api/svc/v3` (e.g. `https://pc:9440/oss/api/svc/v3`)
 *   or `host` (+ `port`); `username`, `password`; see {@link ClientOptions}.
 * @throws {ClientOptionsError} when an option is missing or malformed (names the option).
 */
export function createObjectsClient(options: ClientOptions): ObjectsClient {
  const { client } = create<objectsPaths>('objects', options);
  const workflows: ObjectsWorkflows = {
    paginateGroups(body, pageOptions) {
      const count = pageSizeOf(pageOptions);
      if (body === null || typeof body !== 'object' || typeof body.entity_type !== 'string') {
        throw new InvalidArgumentError('entity_type', 'is required, e.g. { entity_type: "objectstore" }');
      }
      return (async function* () {
        let offset = body.group_member_offset ?? 0;
        for (;;) {
          const page = await unwrap(client.POST('/groups', { body: { ...body, group_member_offset: offset, group_member_count: count }, signal: pageOptions?.signal }));
          const group = page.group_results[0];
          const entities = group?.entity_results ?? [];
          yield* entities;
          offset += entities.length;
          const total = group?.filtered_entity_count ?? page.filtered_entity_count;
          if (entities.length === 0 || (typeof total === 'number' && offset >= total)) return;
        }
      })();
    },
  };
  return Object.assign(client, workflows);
}
