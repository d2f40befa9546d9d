// The simulator's domain: the entities, their states and tasks, with no HTTP in it. The APIs
// (src/apis/) are adapters over this one model.
import { join } from 'node:path';
import { createCategories } from './categories.js';
import { createFiles } from './files.js';
import { createImages, IMAGE_SORT, imageIndexes } from './images.js';
import { createObjectStores } from './objectstores.js';
import { openStore } from './store.js';
import { createTasks, TASK_SORT, taskAttributes } from './tasks.js';
import { checkTopology, createTopology, seedTopology } from './topology.js';

/**
 * @typedef {ReturnType<typeof createDomain>} Domain
 */

/** Raise when `imageIndexes` or `taskAttributes` change: the stored attributes are computed again at the next start. */
const INDEXES_VERSION = 3;

/**
 * Opens the state database of a data dir with the domain's indexes (what the lists filter and
 * sort on). Also the bulk path of the bench: documents `put` here before a start are the
 * simulator's (store.batch makes them one transaction).
 * @param {string} dataDir
 * @returns {import('./store.js').Store}
 * @throws {Error} when the state cannot be opened
 */
export function openState(dataDir) {
  return openStore(join(dataDir, 'state.sqlite'), {
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

/**
 * Opens the state in `dataDir` (creating it at the first start) and resolves what a stop left in
 * flight. Tasks run again only when `start()` is called.
 * @param {object} o
 * @param {string} o.dataDir
 * @param {number} o.taskMs  how long a task takes at least, in ms
 * @param {import('../faults.js').Faults} o.faults
 * @param {number | undefined} o.seed  seeds the topology's UUIDs at the first start
 * @param {import('./topology.js').TopologySpec} [o.topology]  clusters and subnets (`--topology`); they replace the stored ones
 * @param {number} o.sourceLimitBytes
 * @param {number} o.sourceTimeoutMs
 * @param {(url: URL) => string | undefined} [o.trust]  the CA to trust for a source URL (the simulator's own)
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
}) {
  const store = openState(dataDir);
  const meta = store.get('meta', 'simulator') ?? { seed: seed ?? Math.floor(Math.random() * 2 ** 31) };
  store.put('meta', 'simulator', meta);
  if (topologySpec) seedTopology(store, meta.seed, checkTopology(topologySpec), { replace: true });
  else seedTopology(store, meta.seed);
  const topology = createTopology(store);
  const files = createFiles(dataDir);
  const tasks = createTasks({ store, taskMs, faults });
  const images = createImages({ store, tasks, files, topology, sourceLimitBytes, sourceTimeoutMs, trust });
  const objectstores = createObjectStores({ store, tasks, topology });
  const recovered = images.recover();
  return {
    categories: createCategories(),
    images,
    tasks,
    objectstores,
    topology,
    /** What start-up recovery resolved (see images.recover). */
    recovered,
    /** Runs again every task a stop left QUEUED or RUNNING. */
    start: () => tasks.resume(),
    /** Stops the running jobs (their tasks resume at the next start) and closes the state. */
    stopTasks: () => tasks.close(),
    close: () => store.close(),
  };
}
