// The element-level API client (v0.8 and v2.0 under `/api/svc` or `/PrismGateway/services/rest`) and its workflows.
import type { Client } from 'openapi-fetch';
import { createCore } from './create.js';
import { InvalidArgumentError, TaskFailedError, TaskTimeoutError, WorkflowError } from './errors.js';
import type { components, operations, paths } from './generated/element.js';
import type { ClientOptions } from './options.js';
import type { ImageV0_8, SucceededTaskV0_8, SucceededTaskV2_0, TaskV0_8, TaskV2_0 } from './types.js';
import {
  checkUuid,
  isUuid,
  pollTask,
  required,
  type TaskVerdict,
  toBody,
  unwrap,
  type WaitOptions,
} from './workflow.js';

/** Paths of the element-level API (`/v0.8/...`, `/v2.0/...`), from `dist/element.json`. */
export type ElementPaths = paths;
/** Operations of the element-level API keyed by operationId (`images_upload_v0_8`, ...). */
export type ElementOperations = operations;
/** Schemas of the element-level API. */
export type ElementSchemas = components['schemas'];

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
} & (
  | { file: string | Blob; stream?: undefined }
  | { stream: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>; file?: undefined }
);

/** Workflow methods of the element-level client. */
export interface ElementWorkflows {
  /**
   * Polls `GET /v0.8/tasks/{uuid}` (tasks_get_v0_8, `progressStatus`) or with `version: 'v2.0'`
   * `GET /v2.0/tasks/{uuid}` (tasks_get_v2_0, `progress_status`) until `Succeeded`.
   *
   * With `longPollSeconds` (v0.8 only) it waits with the long poll instead,
   * `GET /v0.8/tasks/{uuid}/poll?timeoutseconds=N` (tasks_poll_v0_8): the service answers as soon
   * as the task is final, or after N seconds with `timedOut`, so a wait takes one call per N
   * seconds rather than one per `intervalMs`; `intervalMs` is then the pause after a timed-out
   * answer. `onProgress` gets each task record the poll returns. Each call lasts up to N seconds,
   * so N must stay below the client's `timeoutMs` (default 300 s, hence at most 300).
   * @throws {TaskFailedError} for `Failed`/`Aborted` (error_code, error_detail from `metaResponse`/`meta_response`)
   * @throws {InvalidArgumentError} when `longPollSeconds` is not an integer from 1 to 300, or is given with `version: 'v2.0'`
   * @throws {WorkflowError} when the long poll answers `isUnrecognized` (the service does not know the task)
   * @throws {TaskTimeoutError} | {ApiError} | the signal's reason
   */
  waitForTask(
    uuid: string,
    options?: WaitOptions<TaskV0_8> & { version?: 'v0.8'; longPollSeconds?: number },
  ): Promise<SucceededTaskV0_8>;
  waitForTask(uuid: string, options: WaitOptions<TaskV2_0> & { version: 'v2.0' }): Promise<SucceededTaskV2_0>;
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
  uploadImage(
    input: UploadImageInput,
    options?: WaitOptions<TaskV0_8> & { uploadTimeoutMs?: number },
  ): Promise<ImageV0_8>;
  /**
   * The UUID of the storage container called `name` (`GET /v2.0/storage_containers`).
   * @throws {InvalidArgumentError} when no container has that name (the message lists the names found)
   */
  resolveContainer(name: string, options?: { signal?: AbortSignal }): Promise<string>;
}

/** A typed openapi-fetch client of the element-level API (v0.8 and v2.0), with the workflow methods. */
export type ElementClient = Client<paths> & ElementWorkflows;

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
 *   Calls reject with {@link RequestTimeoutError}, {@link NetworkError} or {@link InvalidResponseError}
 *   (an answer that is not what the spec says: not JSON, empty, cut off, too large, a write redirected elsewhere).
 */
export function createElementClient(options: ClientOptions): ElementClient {
  const { client, uploadFetch } = createCore<paths>('element', options);
  /** The v0.8 wait by long poll: timed-out answers count as pending; errors carry the task, not the poll answer. */
  async function waitByLongPoll(uuid: string, seconds: number, waitOptions: WaitOptions<TaskV0_8>): Promise<TaskV0_8> {
    const { onProgress, ...rest } = waitOptions;
    if (onProgress !== undefined && typeof onProgress !== 'function')
      throw new InvalidArgumentError('onProgress', 'must be a function');
    let lastTask: TaskV0_8 | undefined;
    try {
      const answer = await pollTask(
        uuid,
        (signal) =>
          unwrap(
            client.GET('/v0.8/tasks/{uuid}/poll', {
              params: { path: { uuid }, query: { timeoutseconds: seconds } },
              signal,
            }),
          ),
        (r) => {
          if (r.isUnrecognized)
            throw new WorkflowError(`task ${uuid}: the service does not recognise it (isUnrecognized)`);
          if (!r.taskInfo) return { state: 'pending' };
          lastTask = r.taskInfo;
          onProgress?.(r.taskInfo);
          return elementVerdict(
            r.taskInfo.progressStatus,
            r.taskInfo.metaResponse?.error,
            r.taskInfo.metaResponse?.errorDetail,
          );
        },
        rest,
      );
      // a final verdict came from an answer that had it
      return required(answer.taskInfo, 'tasks_poll_v0_8', 'taskInfo');
    } catch (error) {
      if (error instanceof TaskFailedError)
        throw new TaskFailedError(uuid, error.status, error.error_code, error.error_detail, lastTask);
      if (error instanceof TaskTimeoutError) throw new TaskTimeoutError(uuid, error.timeoutMs, lastTask);
      throw error;
    }
  }
  function waitForTask(
    uuid: string,
    waitOptions?: WaitOptions<TaskV0_8> & { version?: 'v0.8'; longPollSeconds?: number },
  ): Promise<SucceededTaskV0_8>;
  function waitForTask(
    uuid: string,
    waitOptions: WaitOptions<TaskV2_0> & { version: 'v2.0' },
  ): Promise<SucceededTaskV2_0>;
  function waitForTask(
    uuid: string,
    waitOptions?: (WaitOptions<TaskV0_8> | WaitOptions<TaskV2_0>) & {
      version?: 'v0.8' | 'v2.0';
      longPollSeconds?: number;
    },
  ): Promise<SucceededTaskV0_8 | SucceededTaskV2_0> {
    checkUuid('uuid', uuid);
    const version = waitOptions?.version ?? 'v0.8';
    const longPoll = waitOptions?.longPollSeconds;
    if (longPoll !== undefined) {
      if (version !== 'v0.8')
        throw new InvalidArgumentError(
          'longPollSeconds',
          'only the v0.8 API has the long poll; leave it out with version "v2.0"',
        );
      if (!Number.isInteger(longPoll) || longPoll < 1 || longPoll > 300)
        throw new InvalidArgumentError(
          'longPollSeconds',
          `must be an integer number of seconds from 1 to 300; got ${JSON.stringify(longPoll)}`,
        );
      const {
        version: _version,
        longPollSeconds: _seconds,
        ...wait
      } = waitOptions as WaitOptions<TaskV0_8> & { version?: string; longPollSeconds?: number };
      return waitByLongPoll(uuid, longPoll, wait) as Promise<SucceededTaskV0_8>;
    }
    if (version === 'v2.0') {
      return pollTask(
        uuid,
        (signal) => unwrap(client.GET('/v2.0/tasks/{uuid}', { params: { path: { uuid } }, signal })),
        (t) =>
          elementVerdict(
            required(t?.progress_status, 'tasks_get_v2_0', 'progress_status'),
            t.meta_response?.error_code,
            t.meta_response?.error_detail ?? t.meta_response?.error,
          ),
        waitOptions as WaitOptions<TaskV2_0>,
      ) as Promise<SucceededTaskV2_0>;
    }
    if (version !== 'v0.8')
      throw new InvalidArgumentError('version', `must be "v0.8" or "v2.0"; got ${JSON.stringify(version)}`);
    return pollTask(
      uuid,
      (signal) => unwrap(client.GET('/v0.8/tasks/{uuid}', { params: { path: { uuid } }, signal })),
      (t) =>
        elementVerdict(
          required(t?.progressStatus, 'tasks_get_v0_8', 'progressStatus'),
          t.metaResponse?.error,
          t.metaResponse?.errorDetail,
        ),
      waitOptions as WaitOptions<TaskV0_8>,
    ) as Promise<SucceededTaskV0_8>;
  }
  async function resolveContainer(name: string, o?: { signal?: AbortSignal }): Promise<string> {
    if (typeof name !== 'string' || name === '')
      throw new InvalidArgumentError('container', 'must be a storage container UUID or name');
    const list = await unwrap(client.GET('/v2.0/storage_containers', { signal: o?.signal }));
    const entities = required(list.entities, 'storage_containers_list_v2_0', 'entities');
    const found = entities.find((c) => c.name === name);
    if (!found) {
      const names = entities.map((c) => JSON.stringify(c.name)).join(', ') || 'none';
      throw new InvalidArgumentError(
        'container',
        `names no storage container: "${name}" not found (containers: ${names})`,
      );
    }
    return found.storage_container_uuid;
  }
  const workflows: ElementWorkflows = {
    waitForTask,
    resolveContainer,
    async uploadImage(input, waitOptions) {
      if (input === null || typeof input !== 'object')
        throw new InvalidArgumentError('input', 'must be { name, imageType, container, file | stream }');
      const { name, imageType, annotation, container, file, stream } = input;
      if (typeof name !== 'string' || name === '') throw new InvalidArgumentError('name', 'must be a non-empty string');
      if (imageType !== 'DISK_IMAGE' && imageType !== 'ISO_IMAGE')
        throw new InvalidArgumentError(
          'imageType',
          `must be DISK_IMAGE or ISO_IMAGE; got ${JSON.stringify(imageType)}`,
        );
      if (typeof container !== 'string' || container === '')
        throw new InvalidArgumentError('container', 'must be a storage container UUID or name');
      if ((file === undefined) === (stream === undefined))
        throw new InvalidArgumentError('file', 'give exactly one of file (a path or Blob) and stream');
      const body = await toBody(file !== undefined ? 'file' : 'stream', file ?? stream);
      const signal = waitOptions?.signal;
      const { uploadTimeoutMs, ...wait } = waitOptions ?? {};
      // 1. the record, and its task, which names the new image
      const created = await unwrap(
        client.POST('/v0.8/images', { body: { name, imageType, ...(annotation ? { annotation } : {}) }, signal }),
      );
      const task = await waitForTask(required(created.taskUuid, 'images_create_v0_8', 'taskUuid'), wait);
      const imageUuid = task.entityList?.[0]?.uuid;
      if (!imageUuid)
        throw new WorkflowError(`task ${created.taskUuid} of images_create_v0_8 names no image in entityList`);
      // 2. the upload proceeds only while the image is INACTIVE
      const record = await unwrap(client.GET('/v0.8/images/{uuid}', { params: { path: { uuid: imageUuid } }, signal }));
      if (record.imageState !== 'INACTIVE')
        throw new WorkflowError(
          `image ${imageUuid} is ${record.imageState ?? 'in an unknown state'}; the upload needs INACTIVE`,
        );
      // 3. the container, 4. the bytes
      const containerUuid = isUuid(container) ? container : await resolveContainer(container, { signal });
      const uploaded = await unwrap(
        client.PUT('/v0.8/images/{uuid}/upload', {
          fetch: uploadFetch(uploadTimeoutMs, body),
          params: { path: { uuid: imageUuid }, header: { 'X-Svc-Destination-Container': containerUuid } },
          body,
          headers: { 'Content-Type': 'application/octet-stream' },
          signal,
        }),
      );
      await waitForTask(required(uploaded.taskUuid, 'images_upload_v0_8', 'taskUuid'), wait);
      return unwrap(client.GET('/v0.8/images/{uuid}', { params: { path: { uuid: imageUuid } }, signal }));
    },
  };
  return Object.assign(client, workflows);
}
