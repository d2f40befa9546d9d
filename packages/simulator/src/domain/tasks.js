// Tasks: one store behind the v3, v0.8 and v2.0 task calls, and the engine that runs them. A
// task moves only by its table (transitions.js `TASK`, through machine.js): it is written in the
// transaction of the request that starts it, and ends in one transaction with its effect on the
// entity, so a restart finds both or neither. Its job (fetching a source, ...) is defined by the
// domain module owning the entity; the task ends when both the job is done and the configured
// task time has passed. An abort is kept with the task: whatever happens after it (the job's end,
// a stop, a crash), the task ends ABORTED. Tasks left QUEUED or RUNNING by a stop are QUEUED again
// at the next start and run again (their jobs are idempotent).

import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { isStorageFull, MovedOn, NotFound, Refused } from './errors.js';
import { createMachine } from './machine.js';
import { iso, nowUs } from './time.js';
import { TASK } from './transitions.js';

/**
 * The one operation table: each task operation and its name in each API (v3 `operation_type`,
 * element `operationType`/`methodName`).
 * @type {Record<string, { v3: string, element: string }>}
 */
export const OPERATIONS = {
  create_image: { v3: 'create_image_intentful', element: 'ImageCreate' },
  update_image: { v3: 'update_image_intentful', element: 'ImageUpdate' },
  delete_image: { v3: 'delete_image_intentful', element: 'ImageDelete' },
  upload_image: { v3: 'upload_image', element: 'ImageUpdate' },
  migrate_images: { v3: 'migrate_images', element: 'ImageMigrate' },
  create_objectstore: { v3: 'create_objectstore', element: 'ObjectStoreCreate' },
  delete_objectstore: { v3: 'delete_objectstore', element: 'ObjectStoreDelete' },
  regenerate_cert: { v3: 'regenerate_objectstore_cert', element: 'ObjectStoreUpdate' },
  enable_service: { v3: 'enable_oss_service', element: 'ServiceEnable' },
};

/**
 * The attributes of a task that the v3 task list filters and sorts on (stored with it: store.js).
 * @param {any} t  a task document
 * @returns {Record<string, unknown>}
 */
export const taskAttributes = (t) => ({
  status: t.status,
  operation_type: OPERATIONS[t.operation]?.v3 ?? t.operation,
  entity_uuid: t.entity?.uuid,
  creation_time: iso(t.createdUs),
  uuid: t.uuid,
  // not a list attribute: what start-up finds to run again (`resume`), by an index
  _active: DONE.has(t.status) ? undefined : 1,
});

/** The attributes the v3 task list sorts on (a sort index each in the store). */
export const TASK_SORT = ['status', 'operation_type', 'creation_time', 'uuid'];

/** A job failure with the task's error_code and error_detail. */
export class TaskError extends Error {
  /** @param {string} code error_code @param {string} detail error_detail */
  constructor(code, detail) {
    super(detail);
    this.code = code;
  }
}

/** Terminal task states. */
export const DONE = new Set(['SUCCEEDED', 'FAILED', 'ABORTED']);

/** How long a task whose end could not be written (a full disk) waits before writing it again, in ms. */
const END_RETRY_MS = 1000;

/**
 * @typedef {object} Job
 * @property {(task: any, signal: AbortSignal, progress: (done: number, total: number) => void) => Promise<void>} [run]
 *   the work, outside any transaction (fetching, renaming a file into place); idempotent: it may
 *   run again after a restart, and finds its effect done then. Reports how much of it is done
 *   (e.g. bytes) through `progress`; throws TaskError to fail
 * @property {(task: any) => void} [succeed]  applies the result to the entity, inside the task's
 *   end transaction; throws MovedOn (changing nothing) when the entity is not where the task left it
 * @property {(task: any, error: TaskError) => void} [fail]  records a failure on the entity, inside
 *   the task's end transaction; throws MovedOn likewise
 */

/**
 * The task engine.
 * @param {object} o
 * @param {import('./store.js').Store} o.store
 * @param {number} o.taskMs  how long a task takes at least, in ms (0: as fast as its job)
 * @param {{ taskFails: () => boolean }} o.faults  whether a task fails by a fault (faults.js)
 * @param {(line: string) => void} [o.log]  one line for what cannot be answered to anyone (a task's end not written)
 */
export function createTasks({ store, taskMs, faults, log = (line) => console.error(line) }) {
  /** @type {Record<string, Job>} operation -> job, filled by `define` */
  const jobs = {};
  const events = new EventEmitter();
  events.setMaxListeners(0);
  /** @type {Map<string, AbortController>} */
  const running = new Map();
  /** @type {Map<string, AbortController>} a running task's waits, cut short by `complete` */
  const wakes = new Map();
  /** @type {Set<() => void>} the ends of the `waitAny` calls waiting now */
  const waits = new Set();
  /** @type {Map<string, number>} task -> share of its work done (0..1), for the tasks whose job reports it */
  const work = new Map();
  /** @type {Set<NodeJS.Timeout>} */
  const retries = new Set();
  let closed = false;
  /** Tasks run only once the engine is started: what is queued before, `start` finds in the store. */
  let started = false;
  /** Calls of `waitAny` waiting now. */
  let waiters = 0;
  let durationMs = taskMs;

  const machine = createMachine({
    store,
    table: TASK,
    notFound: (uuid) => new NotFound('task', uuid),
    refuse: (t, event) => new Refused('task', t.uuid, event, `it is ${t.status}`),
    stamp: (t) => {
      t.updatedUs = nowUs();
      t.logicalTimestamp = (t.logicalTimestamp ?? 0) + 1;
    },
    // announced once committed (waitAny)
    moved: (t) => events.emit('change', t),
  });

  /**
   * Ends a task in one transaction with its effect on the entity: the job's `succeed` (or
   * `fail`), then the task's own end. An abort asked before ends it ABORTED, whatever the job did
   * (its `fail` leaves the entity as a failure does). An entity that moved on ends the task FAILED
   * with the reason, changing nothing else. A write that fails (a full disk) is tried again later,
   * the task left RUNNING meanwhile; nothing thrown here reaches the caller.
   * @param {string} uuid
   * @param {Job} job
   * @param {TaskError | undefined} failure  undefined: the job succeeded
   * @param {boolean} [bare]  only the task's own end, without the job's (after a defect in the job's)
   */
  function end(uuid, job, failure, bare = false) {
    const finish = (error) => (t) => {
      t.percentage = 100;
      t.completedUs = nowUs();
      if (error) {
        t.errorCode = error.code;
        t.errorDetail = error.message;
        t.message = error.message;
      }
    };
    try {
      store.batch(() => {
        const task = store.get('task', uuid);
        if (!task || DONE.has(task.status)) return;
        const aborted = task.requested === 'ABORTED';
        const outcome = aborted ? new TaskError('ABORTED', 'The task was aborted') : failure;
        try {
          if (!bare && outcome) job.fail?.(task, outcome);
          else if (!bare) job.succeed?.(task);
        } catch (error) {
          if (!(error instanceof MovedOn)) throw error;
          const moved = new TaskError('ENTITY_MOVED_ON', error.message);
          machine.move(task, aborted ? 'aborted' : 'failed', finish(moved));
          return;
        }
        machine.move(task, aborted ? 'aborted' : outcome ? 'failed' : 'succeeded', finish(outcome));
      });
    } catch (error) {
      if (closed) return;
      if (!isStorageFull(error) && !bare) {
        // a defect of ours: the task fails with it rather than hanging
        log(`simulator: task ${uuid} could not end: ${error?.message ?? error}`);
        end(uuid, job, new TaskError('INTERNAL_ERROR', String(error?.message ?? error)), true);
        return;
      }
      // the disk is full: the task ends FAILED with the reason once that can be written (a restart
      // meanwhile runs it again); its effect, if any, is undone by the job's `fail`
      const storageFull = new TaskError(
        'STORAGE_FULL',
        "The simulator's data directory is full: the task's result could not be kept; free some space and retry",
      );
      const timer = setTimeout(() => {
        retries.delete(timer);
        end(uuid, job, failure ?? storageFull, bare);
      }, END_RETRY_MS);
      timer.unref();
      retries.add(timer);
    }
  }

  async function run(uuid) {
    const queued = store.get('task', uuid);
    if (!queued || DONE.has(queued.status)) return;
    const job = jobs[queued.operation] ?? {};
    // asked to abort before it ran (before a restart, say): it ends so, its job not run
    if (queued.requested === 'ABORTED') return end(uuid, job, undefined);
    const controller = new AbortController();
    const wake = new AbortController();
    running.set(uuid, controller);
    wakes.set(uuid, wake);
    startedHere.delete(uuid);
    let failure;
    try {
      const queuedMs = hurried.has(uuid) ? 0 : Math.min(500, durationMs / 10);
      if (queuedMs > 0) await sleep(queuedMs, controller.signal, wake.signal);
      const task = machine.move(uuid, 'started', (t) => {
        t.startedUs ??= nowUs();
        t.startedMs = Date.now();
        t.durationMs = durationMs;
      });
      const failByFault = faults.taskFails();
      const progress = (done, total) => {
        if (total > 0) work.set(uuid, Math.min(1, done / total));
      };
      await Promise.all([
        job.run?.(task, controller.signal, progress),
        sleep(hurried.has(uuid) ? 0 : durationMs, controller.signal, wake.signal),
      ]);
      if (failByFault)
        failure = new TaskError('SIMULATED_FAULT', 'The task failed by a simulated fault (--faults task-fail)');
    } catch (error) {
      if (closed) return; // a stop: left as it is, QUEUED again at the next start
      // an end asked for through the control API (`complete`) is the abort's reason
      const asked = controller.signal.reason;
      failure =
        asked === COMPLETED
          ? undefined
          : asked instanceof TaskError
            ? asked
            : error instanceof TaskError
              ? error
              : isStorageFull(error)
                ? new TaskError('STORAGE_FULL', "The simulator's data directory is full: free some space and retry")
                : controller.signal.aborted
                  ? new TaskError('ABORTED', 'The task was aborted')
                  : new TaskError('INTERNAL_ERROR', String(error?.message ?? error));
    } finally {
      running.delete(uuid);
      wakes.delete(uuid);
      work.delete(uuid);
    }
    if (closed) return;
    end(uuid, job, failure);
  }

  /** Tasks to run at the next turn, or running: each runs once at a time. */
  const scheduled = new Set();
  /** Runs a task soon (once what started it has committed), once the engine is started. */
  const schedule = (uuid) => {
    if (scheduled.has(uuid) || running.has(uuid)) return;
    scheduled.add(uuid);
    setImmediate(() => {
      scheduled.delete(uuid);
      if (started && !closed && !running.has(uuid)) run(uuid);
    });
  };
  /** Tasks started by this engine (since this start): not interrupted by a stop. */
  const startedHere = new Set();
  /** Tasks asked to end now (`complete` SUCCEEDED): their task time is over. */
  const hurried = new Set();

  return {
    events,
    /**
     * Defines the job of an operation (each domain module defines those of its entities).
     * @param {Record<string, Job>} table  operation -> job
     */
    define(table) {
      Object.assign(jobs, table);
    },
    /**
     * Creates a task, QUEUED, in the open transaction (its caller's: the entity's transition), and
     * runs it once that has committed (and the engine is started: `resume`).
     * @param {{ operation: string, entity: { kind: string, uuid: string, name?: string }, params?: any,
     *   message?: string }} spec  `message`: its progress_message until it runs
     * @returns {any} the stored task
     */
    start({ operation, entity, params = {}, message = '' }) {
      const now = nowUs();
      const task = machine.create({
        uuid: randomUUID(),
        operation,
        percentage: 0,
        message,
        entity,
        params,
        createdUs: now,
        logicalTimestamp: 0,
        durationMs,
      });
      startedHere.add(task.uuid);
      store.afterCommit(() => schedule(task.uuid));
      return task;
    },
    /** The task with `percentage` brought up to now (rising with the time spent RUNNING). */
    get(uuid) {
      const task = store.get('task', uuid);
      return task && withProgress(task);
    },
    list: () => store.list('task').map(withProgress),
    /**
     * One page of tasks, from the store's indexes (the attributes of `taskAttributes`).
     * @param {import('./store.js').PageQuery} query
     * @returns {{ total: number, docs: any[] }}
     */
    page(query) {
      const found = store.page('task', query);
      return { total: found.total, docs: found.docs.map(withProgress) };
    },
    /**
     * Asks a task to abort (v3 tasks_abort): `requested_status` ABORTED, then status ABORTED.
     * @returns {'aborted' | 'done' | undefined} undefined when there is no such task
     */
    abort(uuid) {
      const task = store.get('task', uuid);
      if (!task) return undefined;
      if (DONE.has(task.status)) return 'done';
      machine.move(task, 'abort', (t) => {
        t.requested = 'ABORTED';
      });
      running.get(uuid)?.abort();
      return 'aborted';
    },
    /**
     * Waits until one of the tasks is done, `timeoutMs` passes, or `signal` aborts (the client went away).
     * @param {string[]} uuids
     * @param {number} timeoutMs
     * @param {AbortSignal} [signal]
     * @returns {Promise<any[]>} the done tasks among `uuids` (empty on time-out or abort)
     */
    waitAny(uuids, timeoutMs, signal) {
      const doneOnes = () => uuids.map((u) => store.get('task', u)).filter((t) => t && DONE.has(t.status));
      const now = doneOnes();
      if (now.length || timeoutMs <= 0 || signal?.aborted) return Promise.resolve(now.map(withProgress));
      waiters++;
      return new Promise((resolve) => {
        const wanted = new Set(uuids);
        const finish = () => {
          if (!waits.delete(finish)) return;
          waiters--;
          clearTimeout(timer);
          events.off('change', onChange);
          signal?.removeEventListener('abort', finish);
          resolve(doneOnes().map(withProgress));
        };
        const onChange = (t) => {
          if (wanted.has(t.uuid) && DONE.has(t.status)) finish();
        };
        const timer = setTimeout(finish, timeoutMs);
        waits.add(finish);
        events.on('change', onChange);
        signal?.addEventListener('abort', finish, { once: true });
      });
    },
    /** How many calls of `waitAny` wait now (for the leak check: none once their requests are answered). */
    waiting: () => waiters,
    /**
     * Ends a task now, through the transition its own end takes (`POST /_svc/tasks/{uuid}/complete`):
     * SUCCEEDED stops its work (a fetch: the bytes not all there are not kept) and what is left of its
     * task time, and applies its effect with what is done; FAILED stops its work and ends it FAILED
     * with `errorDetail`, its entity in the state a failure leaves. Resolves once it has ended.
     * @throws {Error} when the engine stops (`close`) before the task has ended
     * @param {string} uuid
     * @param {'SUCCEEDED' | 'FAILED'} status
     * @param {string} [errorDetail]
     * @returns {Promise<'ended' | 'already' | undefined>} undefined: no such task; 'already': it had ended
     */
    async complete(uuid, status, errorDetail) {
      const task = store.get('task', uuid);
      if (!task) return undefined;
      if (DONE.has(task.status)) return 'already';
      if (status === 'FAILED') {
        const failure = new TaskError(
          'SIMULATED_FAULT',
          errorDetail ?? 'The task was ended FAILED through POST /_svc/tasks/{uuid}/complete',
        );
        const controller = running.get(uuid);
        if (controller) controller.abort(failure);
        else end(uuid, jobs[task.operation] ?? {}, failure);
      } else {
        hurried.add(uuid);
        wakes.get(uuid)?.abort();
        // its work stops (a fetch that never ends would hold the answer): it ends with what is done
        running.get(uuid)?.abort(COMPLETED);
        if (!running.has(uuid)) schedule(uuid);
      }
      try {
        while (!DONE.has(store.get('task', uuid)?.status ?? 'SUCCEEDED')) {
          if (closed) throw new Error('the local svc stopped before the task ended');
          await this.waitAny([uuid], 60_000);
        }
        return 'ended';
      } finally {
        hurried.delete(uuid);
      }
    },
    /**
     * Start-up, before `start`: every task a stop left QUEUED or RUNNING is QUEUED again (its
     * percentage_complete kept), to run again at `start`.
     * @param {Map<string, string>} [notes]  task -> the progress_message it shows (default: that it resumed)
     */
    restart(notes = new Map()) {
      // by the index of `_active` (taskAttributes): the finished ones are not read
      for (const task of store.having('task', '_active'))
        if (!DONE.has(task.status) && !startedHere.has(task.uuid))
          machine.move(task, 'restart', (t) => {
            t.message = notes.get(t.uuid) ?? 'resumed after a restart of the simulator';
          });
    },
    /** Runs every task that is QUEUED or RUNNING, and from now on each task once it is started. */
    resume() {
      started = true;
      for (const task of store.having('task', '_active')) if (!DONE.has(task.status)) schedule(task.uuid);
    },
    /** How long a task takes at least from now on, in seconds (`PUT /_svc/settings`). */
    setTaskSeconds(seconds) {
      durationMs = seconds * 1000;
    },
    /**
     * Stops the running jobs; their tasks stay as they are, QUEUED again at the next start. What
     * each shows of its progress is kept, so that it does not start again from 0 (a write per
     * running task; where the disk refuses it, the progress is lost, not the task).
     */
    close() {
      closed = true;
      for (const timer of retries) clearTimeout(timer);
      retries.clear();
      try {
        store.batch(() => {
          for (const uuid of running.keys()) {
            const shown = withProgress(store.get('task', uuid) ?? {}).percentage;
            if (shown === undefined) continue;
            store.update('task', uuid, (t) => {
              t.percentage = shown;
            });
          }
        });
      } catch {
        // a full disk: the progress is lost, the task is not
      }
      for (const controller of running.values()) controller.abort();
      // a long poll answers what it has now: nobody is left to end its tasks
      for (const finish of [...waits]) finish();
    },
  };

  /** The task with its percentage now: the share of the time spent, and no more than the share of its work done. */
  function withProgress(task) {
    if (task.status !== 'RUNNING') return task;
    const elapsed = Date.now() - (task.startedMs ?? Date.now());
    let share = task.durationMs > 0 ? elapsed / task.durationMs : 1;
    const done = work.get(task.uuid);
    if (done !== undefined) share = Math.min(share, done);
    return { ...task, percentage: Math.max(task.percentage, Math.min(99, Math.floor(share * 100))) };
  }
}

/** The reason `complete` SUCCEEDED stops a task's work with: the task ends SUCCEEDED. */
const COMPLETED = Symbol('completed through the control API');

/**
 * Waits `ms`; rejects with `signal`'s reason when it aborts first, resolves at once when `wake` does.
 * @param {number} ms
 * @param {AbortSignal} signal
 * @param {AbortSignal} [wake]
 */
function sleep(ms, signal, wake) {
  if (ms <= 0 || wake?.aborted) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const settle = (then) => () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', aborted);
      wake?.removeEventListener('abort', woken);
      then();
    };
    const woken = settle(() => resolve(undefined));
    const aborted = settle(() => reject(signal.reason));
    const timer = setTimeout(woken, ms);
    signal.addEventListener('abort', aborted, { once: true });
    wake?.addEventListener('abort', woken, { once: true });
  });
}
