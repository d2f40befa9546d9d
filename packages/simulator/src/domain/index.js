// The simulator's domain: the entities, their states and tasks, with no HTTP in it. The APIs
// (src/apis/) are adapters over this one model.
import { join } from 'node:path';
import { createFiles } from './files.js';
import { createImages } from './images.js';
import { createObjectStores } from './objectstores.js';
import { openStore } from './store.js';
import { createTasks } from './tasks.js';
import { createTopology, seedTopology } from './topology.js';

/**
 * @typedef {ReturnType<typeof createDomain>} Domain
 */

/**
 * Opens the state in `dataDir` (creating it at the first start) and resolves what a stop left in
 * flight. Tasks run again only when `start()` is called.
 * @param {object} o
 * @param {string} o.dataDir
 * @param {number} o.taskMs  how long a task takes at least, in ms
 * @param {import('../faults.js').Faults} o.faults
 * @param {number | undefined} o.seed  seeds the topology's UUIDs at the first start
 * @param {number} o.sourceLimitBytes
 * @param {number} o.sourceTimeoutMs
 * @param {(url: URL) => string | undefined} [o.trust]  the CA to trust for a source URL (the simulator's own)
 * @throws {Error} when the state cannot be opened
 */
export function createDomain({ dataDir, taskMs, faults, seed, sourceLimitBytes, sourceTimeoutMs, trust }) {
  const store = openStore(join(dataDir, 'state.sqlite'));
  const meta = store.get('meta', 'simulator') ?? { seed: seed ?? Math.floor(Math.random() * 2 ** 31) };
  store.put('meta', 'simulator', meta);
  seedTopology(store, meta.seed);
  const topology = createTopology(store);
  const files = createFiles(dataDir);
  const tasks = createTasks({ store, taskMs, faults });
  const images = createImages({ store, tasks, files, topology, sourceLimitBytes, sourceTimeoutMs, trust });
  const objectstores = createObjectStores({ store, tasks, topology });
  const recovered = images.recover();
  return {
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
