// The local svc's control API client (`/_svc`): health, reset, snapshots, the request journal,
// fault rules, ending a task and run-time settings. The API is the simulator's own; no
// production endpoint has it.
import type { Client } from 'openapi-fetch';
import { createCore, type UploadOptions } from './create.js';
import { InvalidArgumentError } from './errors.js';
import type { components, operations, paths } from './generated/control.js';
import type { ClientOptions } from './options.js';
import { checkUuid, toBody, type UploadSource, unwrap } from './workflow.js';

/** Paths of the control API (`/_svc`), from `dist/control.json`. */
export type ControlPaths = paths;
/** Operations of the control API keyed by operationId (`reset_create`, `requests_list`, ...). */
export type ControlOperations = operations;
/** Schemas of the control API (`RequestJournal`, `FaultRule`, ...). */
export type ControlSchemas = components['schemas'];
/** The filters of the request journal (requests_list's query): `operation_id`, `status`, `valid`, `since`, `limit`. */
export type RequestFilter = NonNullable<operations['requests_list']['parameters']['query']>;
/** A fault rule as it is set: {@link ControlSchemas}`['FaultRule']` without the `hits` answers count. */
export type FaultRuleInput = Omit<ControlSchemas['FaultRule'], 'hits'>;

type Signal = { signal?: AbortSignal };

/** The fault rules of the local svc (`/_svc/faults`). */
export interface ControlFaults {
  /**
   * The rules in force (`GET /faults`, faults_list), in the order they are tried, with their
   * `hits` and the `count` they have left.
   * @throws {ApiError} when the call fails
   */
  get(options?: Signal): Promise<ControlSchemas['FaultRules']>;
  /**
   * Replaces every rule in force (`PUT /faults`, faults_update); `[]` leaves none. `seed` seeds
   * the draws of the probabilities. Returns the rules now in force.
   * @throws {InvalidArgumentError} when `rules` is not an array
   * @throws {ApiError} 422 naming the rule and field the local svc refuses
   */
  set(rules: readonly FaultRuleInput[], options?: Signal & { seed?: number }): Promise<ControlSchemas['FaultRules']>;
  /**
   * Removes every rule (`DELETE /faults`, faults_delete), those of `--faults` included.
   * @throws {ApiError} when the call fails
   */
  clear(options?: Signal): Promise<void>;
}

/** The run-time settings of the local svc (`/_svc/settings`). */
export interface ControlSettings {
  /**
   * The settings in force (`GET /settings`, settings_list).
   * @throws {ApiError} when the call fails
   */
  get(options?: Signal): Promise<ControlSchemas['Settings']>;
  /**
   * Changes them (`PUT /settings`, settings_update): `task_seconds` for the tasks that start after it.
   * @throws {ApiError} 422 when a value is out of range
   */
  set(settings: ControlSchemas['Settings'], options?: Signal): Promise<ControlSchemas['Settings']>;
}

/** The methods of the control client. */
export interface ControlWorkflows {
  /**
   * Whether the local svc is up (`GET /health`, health_list; sent without credentials by the
   * service's rule, though the client's are harmless): its version, uptime in seconds and entity counts.
   * @throws {ApiError} when it answers an error; {@link NetworkError} when it is not listening
   */
  health(options?: Signal): Promise<ControlSchemas['Health']>;
  /**
   * Removes what the APIs created (`POST /reset`, reset_create): images with their bytes, tasks
   * and object stores, or only `kinds`; the topology stays. Returns how many of each kind it removed.
   * @param kinds the kinds to remove (`image`, `task`, `object_store`); default all
   * @throws {InvalidArgumentError} when `kinds` is given and is not a non-empty array
   * @throws {ApiError} 422 for an unknown kind
   */
  reset(kinds?: readonly ControlSchemas['EntityKind'][], options?: Signal): Promise<ControlSchemas['RemovedEntities']>;
  /**
   * The whole state as a tar archive (`GET /snapshot`, snapshot_download), streamed: pipe it to
   * a file (`Readable.fromWeb(stream).pipe(createWriteStream('state.tar'))`). The client's
   * `maxResponseBytes` does not apply to it.
   * @throws {ApiError} when the call fails
   */
  snapshot(options?: Signal): Promise<ReadableStream<Uint8Array>>;
  /**
   * Replaces the whole state by a snapshot (`PUT /snapshot`, snapshot_upload), streamed (memory
   * stays flat whatever its size). Returns the entity counts of the new state. Not retried.
   * @param archive a file path, Blob, bytes, web stream, or Node stream / async iterable of bytes
   * @throws {InvalidArgumentError} when the file cannot be opened
   * @throws {ApiError} 400 (`SNAPSHOT_INVALID`, naming the entry and the rule) for a damaged or
   *   foreign archive; the state is then untouched
   */
  restore(archive: UploadSource, options?: UploadOptions): Promise<ControlSchemas['EntityCounts']>;
  /**
   * The request journal (`GET /requests`, requests_list), newest first: each request's
   * operation, status, duration and whether it followed the description (`valid`, `violations`).
   * @param filter `operation_id`, `status`, `valid`, `since` (RFC 3339), `limit` (default 100)
   * @throws {ApiError} 422 naming a malformed filter
   */
  requests(filter?: RequestFilter, options?: Signal): Promise<ControlSchemas['RequestJournal']>;
  /**
   * Empties the request journal (`DELETE /requests`, requests_delete).
   * @throws {ApiError} when the call fails
   */
  clearRequests(options?: Signal): Promise<void>;
  /** The fault rules: `get`, `set`, `clear` (faults_list, faults_update, faults_delete). */
  faults: ControlFaults;
  /**
   * Ends a QUEUED or RUNNING task now (`POST /tasks/{uuid}/complete`, tasks_complete), through
   * the transition its timer would take: `SUCCEEDED` applies its effect, `FAILED` the entity's
   * failure (`error_code` SIMULATED_FAULT, `errorDetail` as `error_detail`).
   * @throws {InvalidArgumentError} when `uuid` is not a UUID or `status` is neither SUCCEEDED nor FAILED
   * @throws {ApiError} 404 for an unknown task, 409 (`TASK_ALREADY_ENDED`) when it has ended
   */
  completeTask(
    uuid: string,
    status: ControlSchemas['TaskCompletion']['status'],
    options?: Signal & { errorDetail?: string },
  ): Promise<ControlSchemas['TaskCompleted']>;
  /** The run-time settings: `get`, `set` (settings_list, settings_update). */
  settings: ControlSettings;
}

/** A typed openapi-fetch client of the control API, with its methods. */
export type ControlClient = Client<paths> & ControlWorkflows;

/**
 * Creates a client of the local svc's control API (`/_svc`: health, reset, snapshots, the request
 * journal, fault rules, ending a task, settings) with basic auth, plus {@link ControlWorkflows}
 * (`health`, `reset`, `snapshot`, `restore`, `requests`, `clearRequests`, `faults`, `completeTask`,
 * `settings`). Typed from `dist/control.json`; every raw call works too
 * (`client.GET('/requests', { params: { query: { valid: false } } })`).
 *
 * @param options `baseUrl` including `/_svc` (e.g. `https://127.0.0.1:9440/_svc`) or `host`
 *   (+ `port`), and the local svc's `username` and `password`; see {@link ClientOptions}.
 * @throws {ClientOptionsError} when an option is missing or malformed (names the option).
 *   Calls reject with {@link RequestTimeoutError}, {@link NetworkError} or {@link InvalidResponseError}.
 */
export function createControlClient(options: ClientOptions): ControlClient {
  const { client, uploadFetch } = createCore<paths>('control', options);
  const faults: ControlFaults = {
    get: (o) => unwrap(client.GET('/faults', { signal: o?.signal })),
    set(rules, o) {
      if (!Array.isArray(rules))
        throw new InvalidArgumentError(
          'rules',
          'must be an array of fault rules, e.g. [{ status: 503, probability: 1 }]',
        );
      const body = { rules: [...rules], ...(o?.seed === undefined ? {} : { seed: o.seed }) };
      return unwrap(client.PUT('/faults', { body, signal: o?.signal }));
    },
    async clear(o) {
      await unwrap(client.DELETE('/faults', { signal: o?.signal }));
    },
  };
  const settings: ControlSettings = {
    get: (o) => unwrap(client.GET('/settings', { signal: o?.signal })),
    set: (value, o) => unwrap(client.PUT('/settings', { body: value, signal: o?.signal })),
  };
  const workflows: ControlWorkflows = {
    health: (o) => unwrap(client.GET('/health', { signal: o?.signal })),
    async reset(kinds, o) {
      if (kinds !== undefined && (!Array.isArray(kinds) || kinds.length === 0))
        throw new InvalidArgumentError('kinds', 'must be a non-empty array of image, task, object_store (or left out)');
      const answer = await unwrap(
        client.POST('/reset', { body: kinds === undefined ? {} : { kinds: [...kinds] }, signal: o?.signal }),
      );
      return answer.removed;
    },
    async snapshot(o) {
      const answer = await unwrap(client.GET('/snapshot', { parseAs: 'stream', signal: o?.signal }));
      return answer as ReadableStream<Uint8Array>;
    },
    async restore(archive, o) {
      const body = await toBody('archive', archive);
      const answer = await unwrap(
        client.PUT('/snapshot', {
          fetch: uploadFetch(o?.timeoutMs, body),
          body,
          headers: { 'Content-Type': 'application/x-tar' },
          signal: o?.signal,
        }),
      );
      return answer.entities;
    },
    requests: (filter, o) => unwrap(client.GET('/requests', { params: { query: filter }, signal: o?.signal })),
    async clearRequests(o) {
      await unwrap(client.DELETE('/requests', { signal: o?.signal }));
    },
    faults,
    completeTask(uuid, status, o) {
      checkUuid('uuid', uuid);
      if (status !== 'SUCCEEDED' && status !== 'FAILED')
        throw new InvalidArgumentError('status', `must be SUCCEEDED or FAILED; got ${JSON.stringify(status)}`);
      const body = { status, ...(o?.errorDetail === undefined ? {} : { error_detail: o.errorDetail }) };
      return unwrap(client.POST('/tasks/{uuid}/complete', { params: { path: { uuid } }, body, signal: o?.signal }));
    },
    settings,
  };
  return Object.assign(client, workflows);
}
