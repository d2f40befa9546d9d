// Object stores and the object store service: create -> PENDING -> COMPLETE (one bucket),
// delete (DELETING_INPUT, then gone), certificate regeneration (REPLACING_CERT); the service
// DISABLED -> ENABLING -> ENABLED. Every write of their state happens here.
import { randomUUID } from 'node:crypto';
import { conflict, HttpError, notFound } from '../errors.js';
import { nowUs } from './time.js';

/** UUID of the object store service's entity in its tasks. */
const OSS_UUID = '00000000-0000-4000-8000-00000000055a';

/**
 * @param {object} o
 * @param {import('./store.js').Store} o.store
 * @param {ReturnType<typeof import('./tasks.js').createTasks>} o.tasks
 * @param {ReturnType<typeof import('./topology.js').createTopology>} o.topology
 */
export function createObjectStores({ store, tasks, topology }) {
  const change = (uuid, fn) =>
    store.update('objectstore', uuid, (o) => {
      fn(o);
      o.updatedUs = nowUs();
    });

  const require = (uuid) => {
    const os = store.get('objectstore', uuid);
    if (!os) throw notFound('objectstore', uuid);
    return os;
  };
  const busy = (os) =>
    conflict(`objectstore ${os.uuid} is in state ${os.state}; retry when the operation has finished.`);

  /** Starts a task on a store and shows its in-progress state. */
  function startTask(os, operation, state) {
    const task = tasks.start({ operation, entity: { kind: 'objectstore', uuid: os.uuid, name: os.spec.name } });
    change(os.uuid, (o) => {
      o.state = state;
      o.taskUuid = task.uuid;
    });
    return task;
  }

  const mustExist = (field, kind, uuid) => {
    const found = kind === 'cluster' ? topology.cluster(uuid) : topology.subnet(uuid);
    if (!found)
      throw new HttpError(
        422,
        'INVALID_ARGUMENT',
        `Request could not be processed: ${field}: no ${kind} has UUID ${uuid} (list them with POST /api/svc/v3/${kind}s/list)`,
        { [field]: `no ${kind} has UUID ${uuid}` },
      );
  };

  tasks.define({
    create_objectstore: {
      succeed: (task) =>
        change(task.entity.uuid, (o) => {
          o.state = 'COMPLETE';
          // a new store comes with one bucket, so the bucket listing has something to page
          o.buckets = [{ name: 'default-bucket', objects: 0, usageBytes: 0 }];
        }),
      fail: (task, error) =>
        change(task.entity.uuid, (o) => {
          o.state = 'DEPLOYMENT_ERROR';
          o.error = error.message;
        }),
    },
    delete_objectstore: {
      succeed: (task) => store.remove('objectstore', task.entity.uuid),
      fail: (task, error) =>
        change(task.entity.uuid, (o) => {
          o.state = 'DELETION_ERROR';
          o.error = error.message;
        }),
    },
    regenerate_cert: {
      succeed: (task) =>
        change(task.entity.uuid, (o) => {
          o.state = 'COMPLETE';
        }),
      fail: (task, error) =>
        change(task.entity.uuid, (o) => {
          o.state = 'CERT_ERROR';
          o.error = error.message;
        }),
    },
    enable_service: {
      succeed() {
        store.update('service', 'oss', (s) => {
          s.state = 'ENABLED';
        });
      },
      fail() {
        store.update('service', 'oss', (s) => {
          s.state = 'DISABLED';
        });
      },
    },
  });

  return {
    get: (uuid) => store.get('objectstore', uuid),
    require,
    list: () => store.list('objectstore'),
    /** The task of a store's running operation, for its progress. */
    task: (os) => (os.taskUuid ? tasks.get(os.taskUuid) : undefined),

    /**
     * Creates an object store (PENDING) and its deployment task. The references are checked
     * before anything is written.
     * @param {any} spec  the v3 spec (name, resources with cluster and subnet references)
     * @returns {any} the stored object store
     * @throws {HttpError} 422 naming a reference to no cluster or subnet; 409 when the name is taken
     */
    create(spec) {
      const r = spec.resources;
      mustExist('spec.resources.cluster_reference.uuid', 'cluster', r.cluster_reference.uuid.toLowerCase());
      mustExist(
        'spec.resources.buckets_infra_network_reference.uuid',
        'subnet',
        r.buckets_infra_network_reference.uuid.toLowerCase(),
      );
      mustExist(
        'spec.resources.client_access_network_reference.uuid',
        'subnet',
        r.client_access_network_reference.uuid.toLowerCase(),
      );
      if (store.list('objectstore').some((o) => o.spec.name === spec.name))
        throw new HttpError(409, 'ENTITY_ALREADY_EXISTS', `An object store named "${spec.name}" already exists.`);
      const uuid = randomUUID();
      const now = nowUs();
      // the store first, then its task: a task never refers to a store that was not kept
      store.put('objectstore', uuid, { uuid, spec, state: 'PENDING', createdUs: now, updatedUs: now, buckets: [] });
      const task = tasks.start({
        operation: 'create_objectstore',
        entity: { kind: 'objectstore', uuid, name: spec.name },
      });
      return store.update('objectstore', uuid, (o) => {
        o.taskUuid = task.uuid;
      });
    },

    /** @throws {HttpError} 404; 409 unless the store is COMPLETE or in an ERROR state */
    remove(uuid) {
      const os = require(uuid);
      if (os.state !== 'COMPLETE' && !os.state.includes('ERROR')) throw busy(os);
      return startTask(os, 'delete_objectstore', 'DELETING_INPUT');
    },

    /** @throws {HttpError} 404; 409 unless the store is COMPLETE */
    regenerateCert(uuid) {
      const os = require(uuid);
      if (os.state !== 'COMPLETE') throw busy(os);
      return startTask(os, 'regenerate_cert', 'REPLACING_CERT');
    },

    /** The object store service: `{ state, taskUuid }`, DISABLED when never enabled. */
    service: () => store.get('service', 'oss') ?? { state: 'DISABLED' },

    /**
     * Enables the object store service (once: enabling it again answers the same task).
     * @returns {string} the task's UUID
     */
    enableService() {
      const current = store.get('service', 'oss');
      if (current?.state === 'ENABLED') return current.taskUuid;
      const task = tasks.start({
        operation: 'enable_service',
        entity: { kind: 'service', uuid: OSS_UUID, name: 'oss' },
      });
      store.put('service', 'oss', { state: 'ENABLING', taskUuid: task.uuid });
      return task.uuid;
    },
  };
}
