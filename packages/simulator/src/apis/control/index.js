// The control API (`/_svc`, spec/control): the local svc's own API for test suites. Handlers
// only: each translates the wire to ONE object, `ctx.control`, that the simulator gives every
// request of this API (its state as a whole, the journal, the fault rules, the settings), and its
// answer to the control API's view. No entity is changed here: the domain does it.

import { HttpError, notFound } from '../../errors.js';
import { FaultRuleInvalid } from '../../faults.js';
import { v3ErrorBody, v3MapError, v3Unauthorized } from '../v3.js';

/** The `api_version` of this API's error bodies (the v3 error body of the other APIs). */
const API_VERSION = '3.1';

/** The status of a request the schema refuses. */
export const validationStatus = 422;
/** The error body of this API: the v3 one. */
export const errorBody = v3ErrorBody(API_VERSION);
/** The answer to a missing or wrong credential: the v3 JSON 401. */
export const unauthorized = v3Unauthorized(API_VERSION);
/** The domain's errors in this API's words (a task's, for tasks_complete). */
export const mapError = v3MapError({});

/**
 * What the control API reads and changes, given by the simulator as `ctx.control` to every
 * request of this API.
 * @typedef {object} Control
 * @property {string} version  the simulator package's version
 * @property {number} startedMs  when the simulator started listening (epoch ms)
 * @property {() => { image: number, task: number, object_store: number }} counts  entities held now
 * @property {(kinds?: ('image' | 'task' | 'object_store')[]) => Promise<Partial<Record<'image' | 'task' | 'object_store', number>>>} reset
 *   removes the entities of `kinds` (default all) created through the APIs, stopping their running
 *   tasks first; the topology stays. Resolves how many of each kind asked it removed
 * @property {() => Promise<import('node:stream').Readable>} snapshot  the state as a tar archive
 *   (control/snapshot.js `createSnapshot`), from a consistent copy taken at the call
 * @property {(archive: import('node:stream').Readable, o: { idleMs: number }) => Promise<void>} restore
 *   replaces the state by the archive's (control/snapshot.js `stageSnapshot` with `idleMs`, then,
 *   the domain closed, `installSnapshot`); rejects with SnapshotInvalid (the state untouched) for a
 *   damaged or foreign one, with code SOURCE_IDLE when the body went silent for `idleMs`
 * @property {import('../../control/journal.js').Journal} journal  the request journal
 * @property {import('../../faults.js').FaultRules} faults  the fault rules in force
 * @property {(uuid: string, status: 'SUCCEEDED' | 'FAILED', errorDetail?: string) =>
 *   'ended' | 'already' | undefined | Promise<'ended' | 'already' | undefined>} completeTask
 *   ends a QUEUED or RUNNING task now through its end transition: 'ended'; 'already' when it had
 *   ended (nothing changes); undefined when there is no such task
 * @property {{ get(): { task_seconds: number }, set(settings: { task_seconds: number }): void }} settings
 *   the run-time settings (task_seconds: for the tasks that start after the change)
 */

/**
 * The control object of a request, or a 501 while the simulator gives none.
 * @param {any} ctx
 * @returns {Control}
 */
function controlOf(ctx) {
  if (!ctx.control)
    throw new HttpError(501, 'NOT_IMPLEMENTED', `${ctx.operationId}: the control API is not wired into this simulator`);
  return ctx.control;
}

/** A query value as one string (a repeated key: its first value). */
const one = (value) => (Array.isArray(value) ? value[0] : value);

/** `svc-snapshot-20260504T093012Z.tar` for now. */
const archiveName = (now = new Date()) =>
  `svc-snapshot-${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}.tar`;

/**
 * The handlers of the control API, keyed by operationId. Each takes the request context
 * (`ctx.control`, `ctx.body`, `ctx.params`, `ctx.query`, `ctx.bytes`; see wire/pipeline.js) and resolves
 * `{ status, body | stream, headers }`.
 * @type {Record<string, (ctx: import('../../wire/pipeline.js').Context & { control?: Control }) => Promise<any>>}
 */
export const handlers = {
  async health_list(ctx) {
    const control = controlOf(ctx);
    return {
      status: 200,
      body: {
        status: 'ok',
        version: control.version,
        uptime_seconds: Math.max(0, Math.floor((Date.now() - control.startedMs) / 1000)),
        entities: control.counts(),
      },
    };
  },

  async reset_create(ctx) {
    const removed = await controlOf(ctx).reset(ctx.body?.kinds);
    return { status: 200, body: { removed } };
  },

  async snapshot_download(ctx) {
    const stream = await controlOf(ctx).snapshot();
    return {
      status: 200,
      headers: {
        'content-type': 'application/x-tar',
        'content-disposition': `attachment; filename="${archiveName()}"`,
      },
      stream,
    };
  },

  async snapshot_upload(ctx) {
    const control = controlOf(ctx);
    if (!ctx.bytes) throw new HttpError(400, 'INVALID_REQUEST', 'snapshot_upload takes the archive as its body');
    try {
      await control.restore(ctx.bytes, { idleMs: ctx.uploadIdleMs });
    } catch (error) {
      // control/snapshot.js: the archive broke a rule; the state is untouched
      if (error?.name === 'SnapshotInvalid')
        throw new HttpError(400, 'SNAPSHOT_INVALID', `The snapshot is refused: ${error.message}`);
      throw error;
    }
    return { status: 200, body: { entities: control.counts() } };
  },

  async requests_list(ctx) {
    const q = ctx.query;
    const status = one(q.status);
    const valid = one(q.valid);
    const since = one(q.since);
    const limit = one(q.limit);
    const journal = controlOf(ctx).journal.list({
      operationId: one(q.operation_id),
      status: status === undefined ? undefined : Number(status),
      valid: valid === undefined ? undefined : String(valid) === 'true',
      sinceMs: since === undefined ? undefined : Date.parse(String(since)),
      limit: limit === undefined ? undefined : Number(limit),
    });
    return { status: 200, body: journal };
  },

  async requests_delete(ctx) {
    controlOf(ctx).journal.clear();
    return { status: 204 };
  },

  async faults_list(ctx) {
    return { status: 200, body: controlOf(ctx).faults.list() };
  },

  async faults_update(ctx) {
    const { faults } = controlOf(ctx);
    try {
      faults.set(ctx.body.rules, ctx.body.seed);
    } catch (error) {
      if (!(error instanceof FaultRuleInvalid)) throw error;
      throw new HttpError(422, 'INVALID_REQUEST', `Request could not be processed: ${error.message}`, {
        [error.field]: error.rule,
      });
    }
    return { status: 200, body: faults.list() };
  },

  async faults_delete(ctx) {
    controlOf(ctx).faults.clear();
    return { status: 204 };
  },

  async tasks_complete(ctx) {
    const uuid = ctx.params.uuid.toLowerCase();
    const { status, error_detail: detail } = ctx.body;
    const outcome = await controlOf(ctx).completeTask(uuid, status, detail);
    if (outcome === undefined) throw notFound('task', uuid);
    if (outcome === 'already') throw new HttpError(409, 'TASK_ALREADY_ENDED', `task : ${uuid} has ended already.`);
    return { status: 200, body: { task_uuid: uuid, status } };
  },

  async settings_list(ctx) {
    return { status: 200, body: controlOf(ctx).settings.get() };
  },

  async settings_update(ctx) {
    const { settings } = controlOf(ctx);
    settings.set({ task_seconds: ctx.body.task_seconds });
    return { status: 200, body: settings.get() };
  },
};
