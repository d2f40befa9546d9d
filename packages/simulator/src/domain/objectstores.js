// Object stores and the object store service, moved only through their transition tables
// (transitions.js `OBJECT_STORE`, `SERVICE`), each change in one transaction with the task it
// starts. Stores are kept as domain fields; the object store API (src/apis/objects) maps its
// v3 `spec` to them and back.
import { randomUUID } from 'node:crypto';
import { Conflict, Invalid, MovedOn, NotFound, Refused } from './errors.js';
import { nowUs } from './time.js';
import { OBJECT_STORE, rowOf, SERVICE } from './transitions.js';

/** UUID of the object store service's entity in its tasks. */
const OSS_UUID = '00000000-0000-4000-8000-00000000055a';

/**
 * @typedef {object} ObjectStoreFields  what a client asks for (objects_create's `spec`, as domain fields)
 * @property {string} name
 * @property {string} [description]
 * @property {string} domain  DNS domain of its buckets
 * @property {number} [workerNodes]
 * @property {string} clusterUuid
 * @property {string} infraSubnetUuid  the buckets infrastructure network
 * @property {string} infraDns
 * @property {string} infraVip
 * @property {string} clientSubnetUuid  the client access network
 * @property {string[]} [clientIps]  client access addresses as a list
 * @property {{ start: string, end: string }} [clientIpRange]  ... or as a range
 * @property {{ vcpus?: number, memoryMib?: number, capacityGib?: number }} [aggregate]
 */

/**
 * @typedef {ObjectStoreFields & { uuid: string, state: string, createdUs: number, updatedUs: number,
 *   taskUuid?: string, buckets: { name: string, uuid?: string, objects: number, usageBytes: number }[], error?: string }} ObjectStore
 */

/**
 * @param {object} o
 * @param {import('./store.js').Store} o.store
 * @param {ReturnType<typeof import('./tasks.js').createTasks>} o.tasks
 * @param {ReturnType<typeof import('./topology.js').createTopology>} o.topology
 */
export function createObjectStores({ store, tasks, topology }) {
  /** @returns {ObjectStore} @throws {NotFound} */
  const require = (uuid) => {
    const os = store.get('objectstore', uuid);
    if (!os) throw new NotFound('objectstore', uuid);
    return os;
  };

  /**
   * Moves a store by its table in one transaction, starting the row's task.
   * @throws {NotFound} | {Refused}
   */
  function move(uuid, event, change) {
    return store.batch(() => {
      const os = require(uuid);
      const row = rowOf(OBJECT_STORE, os, event);
      if (!row)
        throw new Refused('objectstore', uuid, event, `it is ${os.state}`, 'Retry when its operation has finished.');
      if (row.to === null) {
        store.remove('objectstore', uuid);
        return undefined;
      }
      os.state = row.to;
      os.updatedUs = nowUs();
      change?.(os);
      if (row.task)
        os.taskUuid = tasks.start({ operation: row.task, entity: { kind: 'objectstore', uuid, name: os.name } }).uuid;
      store.put('objectstore', uuid, os);
      return os;
    });
  }

  /** The end of a task on its store, compare-and-set. @throws {MovedOn} */
  function ending(task, event, change) {
    const os = store.get('objectstore', task.entity.uuid);
    if (!os || os.taskUuid !== task.uuid || !rowOf(OBJECT_STORE, os, event))
      throw new MovedOn('objectstore', task.entity.uuid, os ? os.state : 'gone', event);
    move(os.uuid, event, change);
  }

  /** @param {string} field @param {'cluster' | 'subnet'} kind @param {string} uuid @returns {Record<string, string>} */
  const missing = (field, kind, uuid) => {
    const found = kind === 'cluster' ? topology.cluster(uuid) : topology.subnet(uuid);
    return found ? {} : { [field]: `no ${kind} has UUID ${uuid}` };
  };

  /** The state of the service in one transaction with its task. */
  function moveService(event) {
    return store.batch(() => {
      const service = store.get('service', 'oss') ?? { state: 'DISABLED' };
      const row = rowOf(SERVICE, service, event);
      if (!row) throw new MovedOn('service', OSS_UUID, service.state, event);
      const next = { ...service, state: row.to && SERVICE.states[row.to] ? row.to : service.state };
      if (row.task)
        next.taskUuid = tasks.start({
          operation: row.task,
          entity: { kind: 'service', uuid: OSS_UUID, name: 'oss' },
        }).uuid;
      store.put('service', 'oss', next);
      return next;
    });
  }

  tasks.define({
    create_objectstore: {
      succeed: (task) =>
        ending(task, 'create_objectstore succeeded', (o) => {
          // a new store comes with one bucket, so the bucket listing has something to page
          o.buckets = [{ name: 'default-bucket', objects: 0, usageBytes: 0 }];
        }),
      fail: (task, error) =>
        ending(task, 'create_objectstore failed', (o) => {
          o.error = error.message;
        }),
    },
    delete_objectstore: {
      succeed: (task) => ending(task, 'delete_objectstore succeeded'),
      fail: (task, error) =>
        ending(task, 'delete_objectstore failed', (o) => {
          o.error = error.message;
        }),
    },
    regenerate_cert: {
      succeed: (task) => ending(task, 'regenerate_cert succeeded'),
      fail: (task, error) =>
        ending(task, 'regenerate_cert failed', (o) => {
          o.error = error.message;
        }),
    },
    enable_service: {
      succeed: () => moveService('enable_service succeeded'),
      fail: () => moveService('enable_service failed'),
    },
  });

  return {
    /** @returns {ObjectStore | undefined} */
    get: (uuid) => store.get('objectstore', uuid),
    require,
    /** @returns {ObjectStore[]} */
    list: () => store.list('objectstore'),
    /** The task of a store's running operation, for its progress. */
    task: (os) => (os.taskUuid ? tasks.get(os.taskUuid) : undefined),

    /**
     * Creates an object store (PENDING) and its deployment task, in one transaction, after its
     * references are checked.
     * @param {ObjectStoreFields} fields
     * @returns {ObjectStore} the stored object store
     * @throws {Invalid} naming each reference to no cluster or subnet (`cluster`, `infraSubnet`,
     *   `clientSubnet`); {Conflict} `exists` when the name is taken
     */
    create(fields) {
      const details = {
        ...missing('cluster', 'cluster', fields.clusterUuid),
        ...missing('infraSubnet', 'subnet', fields.infraSubnetUuid),
        ...missing('clientSubnet', 'subnet', fields.clientSubnetUuid),
      };
      if (Object.keys(details).length) throw new Invalid(details);
      return store.batch(() => {
        if (store.list('objectstore').some((o) => o.name === fields.name))
          throw new Conflict('exists', `An object store named "${fields.name}" already exists.`);
        const uuid = randomUUID();
        const now = nowUs();
        const row = /** @type {import('./transitions.js').Row} */ (rowOf(OBJECT_STORE, undefined, 'create'));
        const task = tasks.start({
          operation: /** @type {string} */ (row.task),
          entity: { kind: 'objectstore', uuid, name: fields.name },
        });
        /** @type {ObjectStore} */
        const os = {
          ...fields,
          uuid,
          state: /** @type {string} */ (row.to),
          createdUs: now,
          updatedUs: now,
          buckets: [],
          taskUuid: task.uuid,
        };
        store.put('objectstore', uuid, os);
        return os;
      });
    },

    /** @throws {NotFound}; {Refused} unless the store is COMPLETE or in an ERROR state */
    remove: (uuid) => move(uuid, 'delete'),

    /** @throws {NotFound}; {Refused} unless the store is COMPLETE */
    regenerateCert: (uuid) => move(uuid, 'regenerate_cert'),

    /** The object store service: `{ state, taskUuid }`, DISABLED when never enabled. */
    service: () => store.get('service', 'oss') ?? { state: 'DISABLED' },

    /**
     * Enables the object store service (once: enabling it again answers the same task).
     * @returns {string} the task's UUID
     */
    enableService() {
      const current = store.get('service', 'oss') ?? { state: 'DISABLED' };
      if (rowOf(SERVICE, current, 'enable')) return moveService('enable').taskUuid;
      if (rowOf(SERVICE, current, 'enable again')) return current.taskUuid;
      throw new Refused('service', OSS_UUID, 'enable', `it is ${current.state}`);
    },
  };
}
