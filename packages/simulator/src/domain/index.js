// The simulator's domain: the entities, their states and tasks, with no HTTP in it. The APIs
// (src/apis/) are adapters over this one model.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createCategories } from './categories.js';
import { renameWhole } from './durable.js';
import { StoreUnexplained } from './errors.js';
import { createFiles, discardImageFiles } from './files.js';
import { createImages, IMAGE_SORT, imageIndexes } from './images.js';
import { createObjectStores } from './objectstores.js';
import { DatabaseSync, openStore } from './store.js';
import { createTasks, DONE, TASK_SORT, taskAttributes } from './tasks.js';
import { checkTopology, createTopology, seedTopology } from './topology.js';

/**
 * @typedef {ReturnType<typeof createDomain>} Domain
 */

/** Raise when `imageIndexes` or `taskAttributes` change: the stored attributes are computed again at the next start. */
const INDEXES_VERSION = 4;

/**
 * The version of the stored documents' shape. 2: images in the states of transitions.js (their
 * running operation in the state), object stores as domain fields. An older data dir is upgraded
 * at start by the `upgrade` given to createDomain.
 */
export const SCHEMA = 2;

/** How long a write that must happen (releasing an upload's writer slot) waits before it is tried again, in ms. */
const RETRY_MS = 1000;

/**
 * Opens the state database of a data dir with the domain's indexes (what the lists filter and
 * sort on). Also the bulk path of the bench: documents `put` here before a start are the
 * simulator's (store.batch makes them one transaction).
 * @param {string} dataDir
 * @param {string} [file]  the database (default `<dataDir>/state.sqlite`)
 * @returns {import('./store.js').Store}
 * @throws {Error} when the state cannot be opened
 */
export function openState(dataDir, file = join(dataDir, 'state.sqlite')) {
  return openStore(file, {
    indexes: {
      // `_writer` and `_active`: what start-up looks for (store.having)
      image: {
        values: imageIndexes,
        sort: [...IMAGE_SORT, '_writer'],
        count: ['state', 'image_type', 'architecture', 'product_name', 'product_version'],
      },
      task: { values: taskAttributes, sort: [...TASK_SORT, '_active'], count: ['status', 'operation_type'] },
    },
    version: INDEXES_VERSION,
  });
}

/** What a reset of every kind keeps: the simulator's own record and the topology. */
const KEPT = ['meta', 'cluster', 'subnet', 'container'];

/**
 * A reset of everything created through the APIs (the control API's, of every kind), with the
 * domain closed: a new state file that holds the topology only, put in place of the old one in
 * one rename (so a stop leaves the old state or the new one), then the image files set aside at
 * once. The new state records that every image file is to go, for a start that comes before
 * they are deleted. Cost: that of the topology, not of what is removed.
 * @param {string} dataDir
 * @throws {Error} the database's or the file system's (the old state then stays)
 */
export function freshState(dataDir) {
  const file = join(dataDir, 'state.sqlite');
  const temp = `${file}.reset`;
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${temp}${suffix}`, { force: true });
  const old = new DatabaseSync(file, { readOnly: true });
  let kept;
  try {
    kept = old
      .prepare(`SELECT kind, uuid, doc FROM documents WHERE kind IN (${KEPT.map(() => '?').join(', ')}) ORDER BY seq`)
      .all(...KEPT);
  } finally {
    old.close();
  }
  const store = openState(dataDir, temp);
  try {
    store.batch(() => {
      for (const row of kept) store.put(String(row.kind), String(row.uuid), JSON.parse(String(row.doc)));
      store.put('unlink', '*', { uuid: '*' });
    });
  } finally {
    store.close();
  }
  renameWhole(temp, file);
  discardImageFiles(dataDir);
}

/**
 * Opens the state in `dataDir` (creating it at the first start) and resolves what a stop left in
 * flight. Tasks run again only when `start()` is called.
 * @param {object} o
 * @param {string} o.dataDir
 * @param {number} o.taskMs  how long a task takes at least, in ms
 * @param {{ taskFails: () => boolean }} o.faults  whether a task fails by a fault (faults.js)
 * @param {number | undefined} o.seed  seeds the topology's UUIDs at the first start
 * @param {import('./topology.js').TopologySpec} [o.topology]  clusters and subnets (`--topology`); they replace the stored ones
 * @param {number} o.sourceLimitBytes
 * @param {number} o.sourceTimeoutMs
 * @param {(url: URL) => string | undefined} [o.trust]  the CA to trust for a source URL (the simulator's own)
 * @param {(store: import('./store.js').Store, from: number, tasks: ReturnType<typeof createTasks>) => void} [o.upgrade]
 *   brings the documents of a data dir written by an older version (schema `from`) to SCHEMA, in one
 *   transaction; an operation left without its task gets one through `tasks`
 * @throws {StoreUnexplained} when image files are there that the state cannot account for (a lost
 *   or damaged `state.sqlite`): nothing is deleted
 * @throws {Error} when the state cannot be opened
 */
export function createDomain({
  dataDir,
  taskMs,
  faults,
  seed,
  topology: topologySpec,
  sourceLimitBytes,
  sourceTimeoutMs,
  trust,
  upgrade,
}) {
  const store = openState(dataDir);
  const files = createFiles(dataDir);
  let meta = store.get('meta', 'simulator');
  const empty = !meta && ['image', 'task', 'objectstore'].every((kind) => store.count(kind) === 0);
  // a new store beside image files: state.sqlite was lost, not never written
  const orphans = empty ? files.names().filter((name) => !name.endsWith('.part')) : [];
  if (orphans.length) {
    store.close();
    throw new StoreUnexplained(orphans, true);
  }
  const tasks = createTasks({ store, taskMs, faults });
  // documents without a schema are of the first one (a data dir of an older version, or documents
  // put through openState before a first start)
  const from = meta
    ? (meta.schema ?? 1)
    : ['image', 'task', 'objectstore'].some((kind) => store.count(kind) > 0)
      ? 1
      : SCHEMA;
  if (!meta || from < SCHEMA) {
    // once: a start writes nothing more unless something changed
    meta = { seed: meta?.seed ?? seed ?? Math.floor(Math.random() * 2 ** 31), schema: SCHEMA };
    store.batch(() => {
      if (from < SCHEMA) upgrade?.(store, from, tasks);
      store.put('meta', 'simulator', meta);
    });
  }
  if (topologySpec) seedTopology(store, meta.seed, checkTopology(topologySpec), { replace: true });
  else seedTopology(store, meta.seed);
  const topology = createTopology(store);
  /** @type {Set<NodeJS.Timeout>} */
  const retries = new Set();
  /** Runs `fn` again every RETRY_MS until it does not throw (a full disk) or the domain closes. */
  const retry = (fn) => {
    const timer = setTimeout(() => {
      retries.delete(timer);
      try {
        fn();
      } catch {
        retry(fn);
      }
    }, RETRY_MS);
    timer.unref();
    retries.add(timer);
  };
  const images = createImages({ store, tasks, files, topology, sourceLimitBytes, sourceTimeoutMs, trust, retry });
  const objectstores = createObjectStores({ store, tasks, topology });
  let recovered;
  let notes;
  try {
    ({ resolved: recovered, notes } = images.recover());
  } catch (error) {
    store.close();
    throw error;
  }
  // what a stop left QUEUED or RUNNING is QUEUED again, to run at `start`
  tasks.restart(notes);
  return {
    categories: createCategories(),
    images,
    tasks,
    objectstores,
    topology,
    /** What start-up recovery resolved (see images.recover). */
    recovered,
    /** How many of each kind the state holds (the control API's health). */
    counts: () => ({
      image: store.count('image'),
      task: store.count('task'),
      object_store: store.count('objectstore'),
    }),
    /**
     * Removes what was created through the APIs, in one transaction (the control API's reset);
     * the topology stays. `image`: every image and its tasks (their bytes are recorded for the next
     * start's sweep); `object_store`: every object store, the object store service's enablement and
     * their tasks; `task`: every task that has ended. Call it with the tasks stopped, then close the
     * domain and open it again.
     * @param {('image' | 'task' | 'object_store')[]} kinds
     * @returns {Partial<Record<'image' | 'task' | 'object_store', number>>} how many of each were removed
     */
    removeCreated(kinds) {
      /** @type {Partial<Record<'image' | 'task' | 'object_store', number>>} */
      const removed = {};
      const of = new Set([
        ...(kinds.includes('image') ? ['image'] : []),
        ...(kinds.includes('object_store') ? ['objectstore', 'service'] : []),
      ]);
      const every = ['image', 'task', 'object_store'].every((k) => kinds.includes(/** @type {any} */ (k)));
      store.batch(() => {
        if (kinds.includes('image')) {
          removed.image = store.count('image');
          // every image file is to go: the one record that says so explains them all at the next start
          store.put('unlink', '*', { uuid: '*' });
          store.clear('image');
        }
        if (kinds.includes('object_store')) {
          removed.object_store = store.count('objectstore');
          store.clear('objectstore');
          store.remove('service', 'oss');
        }
        if (every) {
          removed.task = store.count('task');
          store.clear('task');
          return;
        }
        const gone = store
          .list('task')
          .filter((t) => of.has(t.entity.kind) || (kinds.includes('task') && DONE.has(t.status)));
        for (const t of gone) store.remove('task', t.uuid);
        if (gone.length || kinds.includes('task')) removed.task = gone.length;
      });
      // the bytes set aside at once (one rename), deleted behind
      if (kinds.includes('image')) discardImageFiles(dataDir);
      return removed;
    },
    /** Runs every task a stop left, and from now on each task once it is started. */
    start: () => tasks.resume(),
    /** Stops the running jobs (their tasks resume at the next start) and closes the state. */
    stopTasks() {
      tasks.close();
      for (const timer of retries) clearTimeout(timer);
      retries.clear();
    },
    close: () => store.close(),
  };
}
