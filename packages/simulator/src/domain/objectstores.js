// Object stores and the object store service, moved only through their transition tables
// (transitions.js `OBJECT_STORE`, `SERVICE`), each change in one transaction with the task it
// starts. Stores are kept as domain fields; the object store API (src/apis/objects) maps its
// v3 `spec` to them and back.
import { randomUUID } from 'node:crypto';
import { Conflict, Invalid, MovedOn, NotFound, Refused } from './errors.js';
import { createMachine } from './machine.js';
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

  const stores = createMachine({
    store,
    table: OBJECT_STORE,
    tasks,
    notFound: (uuid) => new NotFound('objectstore', uuid),
    refuse: (os, event) =>
      new Refused('objectstore', os.uuid, event, `it is ${os.state}`, 'Retry when its operation has finished.'),
    movedOn: (uuid, found, event) => new MovedOn('objectstore', uuid, found, event),
    stamp: (os) => {
      os.updatedUs = nowUs();
    },
  });

  /** @param {string} field @param {'cluster' | 'subnet'} kind @param {string} uuid @returns {Record<string, string>} */
  const missing = (field, kind, uuid) => {
    const found = kind === 'cluster' ? topology.cluster(uuid) : topology.subnet(uuid);
    return found ? {} : { [field]: `no ${kind} has UUID ${uuid}` };
  };

  /** The object store service: one entity, stored under `oss`, DISABLED until first enabled. */
  const service = createMachine({
    store,
    table: SERVICE,
    tasks,
    notFound: () => new NotFound('service', OSS_UUID),
    refuse: (s, event) => new Refused('service', OSS_UUID, event, `it is ${s.state}`),
    movedOn: (_key, found, event) => new MovedOn('service', OSS_UUID, found, event),
    keyOf: () => 'oss',
    keyOfTask: () => 'oss',
    refOf: () => ({ kind: 'service', uuid: OSS_UUID, name: 'oss' }),
    initial: () => ({ state: 'DISABLED' }),
  });
  const serviceNow = () => store.get('service', 'oss') ?? { state: 'DISABLED' };

  tasks.define({
    create_objectstore: {
      succeed: (task) =>
        stores.ending(task, 'create_objectstore succeeded', (o) => {
          // a new store comes with one bucket, so the bucket listing has something to page
          o.buckets = [{ name: 'default-bucket', objects: 0, usageBytes: 0 }];
        }),
      fail: (task, error) =>
        stores.ending(task, 'create_objectstore failed', (o) => {
          o.error = error.message;
        }),
    },
    delete_objectstore: {
      succeed: (task) => stores.ending(task, 'delete_objectstore succeeded'),
      fail: (task, error) =>
        stores.ending(task, 'delete_objectstore failed', (o) => {
          o.error = error.message;
        }),
    },
    regenerate_cert: {
      succeed: (task) => stores.ending(task, 'regenerate_cert succeeded'),
      fail: (task, error) =>
        stores.ending(task, 'regenerate_cert failed', (o) => {
          o.error = error.message;
        }),
    },
    enable_service: {
      succeed: (task) => service.ending(task, 'enable_service succeeded'),
      fail: (task) => service.ending(task, 'enable_service failed'),
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
        /** @type {ObjectStore} */
        return stores.create({ ...fields, uuid: randomUUID(), createdUs: nowUs(), buckets: [] });
      });
    },

    /** @throws {NotFound}; {Refused} unless the store is COMPLETE or in an ERROR state */
    remove: (uuid) => stores.move(uuid, 'delete'),

    /** @throws {NotFound}; {Refused} unless the store is COMPLETE */
    regenerateCert: (uuid) => stores.move(uuid, 'regenerate_cert'),

    /** The object store service: `{ state, taskUuid }`, DISABLED when never enabled. */
    service: serviceNow,

    /**
     * Enables the object store service (once: enabling it again answers the same task).
     * @returns {string} the task's UUID
     * @throws {Refused} in a state that takes neither (none today)
     */
    enableService() {
      const current = serviceNow();
      if (rowOf(SERVICE, current, 'enable')) return service.move(current, 'enable').taskUuid;
      if (rowOf(SERVICE, current, 'enable again')) return current.taskUuid;
      throw new Refused('service', OSS_UUID, 'enable', `it is ${current.state}`);
    },
  };
}
