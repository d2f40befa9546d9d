// What the control API (`/_svc`, apis/control) reads and changes: the simulator as a whole. A
// reset and a restore change the state under the served APIs, so they hold new requests, wait for
// those in flight (long polls answer at once), close the domain, change its files, and open it
// again: no request ever meets half of either.
import { createReadStream, readFileSync } from 'node:fs';
import { removeTrash } from '../domain/files.js';
import { freshState, SCHEMA } from '../domain/index.js';
import { createSnapshot, installSnapshot, recoverSnapshot, SnapshotInvalid, stageSnapshot } from './snapshot.js';

/** The simulator package's version (the health answer's and the snapshot manifest's). */
export const VERSION = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

/** The kinds a reset removes when none are named. */
const KINDS = /** @type {const} */ (['image', 'task', 'object_store']);

/**
 * @param {object} o
 * @param {string} o.dataDir
 * @param {(taskSeconds: number) => import('../domain/index.js').Domain} o.open  opens the domain on the data dir
 * @param {number} o.taskSeconds  the first task time, in seconds
 * @param {import('./journal.js').Journal} o.journal
 * @param {import('../faults.js').FaultRules} o.faults
 * @param {() => { drained: Promise<void>, resume: () => void }} o.pause  the pipeline's (wire/pipeline.js)
 * @returns {{ domain: () => import('../domain/index.js').Domain, control: import('../apis/control/index.js').Control,
 *   stop: () => void }}  `stop`: stops its tasks and closes the domain (the simulator's close)
 * @throws what opening the domain throws
 */
export function createControl({ dataDir, open, taskSeconds, journal, faults, pause }) {
  let seconds = taskSeconds;
  let domain = open(seconds);
  const startedMs = Date.now();
  /** One change at a time: a second reset waits for the first. */
  let changing = Promise.resolve();

  /**
   * Changes the state with no request of the served APIs in flight: `open` runs on the domain with
   * its tasks stopped, `closed` once it is closed (its files free to replace); then the domain
   * opens again and the held requests go through.
   * @template T
   * @param {{ open?: (domain: import('../domain/index.js').Domain) => T, closed?: () => void }} change
   * @returns {Promise<T | undefined>}
   */
  function swap(change) {
    const run = changing.then(async () => {
      const held = pause();
      try {
        // its long polls answer now, its jobs stop (their tasks run again after)
        domain.stopTasks();
        await held.drained;
        let result;
        try {
          result = change.open?.(domain);
        } finally {
          domain.close();
        }
        try {
          change.closed?.();
        } finally {
          domain = open(seconds);
          domain.start();
        }
        return result;
      } finally {
        held.resume();
      }
    });
    changing = run.catch(() => {});
    return run;
  }

  /** @type {import('../apis/control/index.js').Control} */
  const control = {
    version: VERSION,
    startedMs,
    counts: () => domain.counts(),
    async reset(kinds = [...KINDS]) {
      // of every kind: a new state file (its cost is the topology's); else the rows of those kinds
      const every = KINDS.every((k) => kinds.includes(k));
      const removed = await swap({
        open: (d) => (every ? d.counts() : d.removeCreated(kinds)),
        closed: () => (every ? freshState(dataDir) : undefined),
      });
      return removed ?? {};
    },
    snapshot: () => createSnapshot(dataDir, { schema: SCHEMA, simulator: VERSION }),
    async restore(archive, { idleMs }) {
      // checked and written aside while the state serves; swapped in with the domain closed
      const { dir } = await stageSnapshot(dataDir, archive, { schema: SCHEMA, idleMs });
      await swap({ closed: () => installSnapshot(dataDir, dir) });
    },
    journal,
    faults,
    completeTask: (uuid, status, errorDetail) => domain.tasks.complete(uuid, status, errorDetail),
    settings: {
      get: () => ({ task_seconds: seconds }),
      set({ task_seconds }) {
        seconds = task_seconds;
        domain.tasks.setTaskSeconds(seconds);
      },
    },
  };

  return {
    domain: () => domain,
    control,
    stop() {
      domain.stopTasks();
      domain.close();
    },
  };
}

/**
 * Start-up, with the data dir locked and before the state opens: finishes or rolls back a restore
 * a stop cut (snapshot.js `recoverSnapshot`), then installs `snapshot` (a file of `GET
 * /_svc/snapshot`, `--snapshot`) when one is given.
 * @param {string} dataDir
 * @param {string} [snapshot]  the archive's path
 * @returns {Promise<void>}
 * @throws {import('./snapshot.js').SnapshotInvalid} naming the rule the archive broke (nothing changed)
 */
export async function prepareState(dataDir, snapshot) {
  recoverSnapshot(dataDir);
  // image files a reset set aside and a stop left undeleted
  removeTrash(dataDir);
  if (!snapshot) return;
  const input = createReadStream(snapshot);
  try {
    const { dir } = await stageSnapshot(dataDir, input, { schema: SCHEMA });
    installSnapshot(dataDir, dir);
  } catch (error) {
    if (error instanceof SnapshotInvalid) throw new SnapshotInvalid(`the snapshot is refused: ${error.message}`);
    // the file system's words without its paths
    throw new Error(`the snapshot cannot be read: ${error?.code ?? error?.message ?? error}`);
  } finally {
    input.destroy();
  }
}
