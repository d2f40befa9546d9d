// Upgrades the documents of a data dir written by an older simulator (domain/index.js `SCHEMA`),
// once, inside the start-up transaction: nothing a user gave it is lost, and an entity that an
// older version left stuck (a state whose task was never written) gets its task again.
import { fieldsOf } from './apis/objects/index.js';
import { DONE } from './domain/tasks.js';

/** The task each operation state runs (schema 2), to start again when an older version lost it. */
const TASK_OF = {
  image: { CREATING: 'create_image', UPDATING: 'update_image', STAGING: 'upload_image', DELETING: 'delete_image' },
  objectstore: {
    PENDING: 'create_objectstore',
    REPLACING_CERT: 'regenerate_cert',
    DELETING_INPUT: 'delete_objectstore',
  },
};

/**
 * Schema 1 -> 2: images in the states of transitions.js (PENDING -> CREATING or UPDATING,
 * DELETE_PENDING -> DELETING, a two-phase upload's task -> STAGING), the writer slot without the
 * fetch (a create task's now), object stores as domain fields instead of their v3 `spec`; then
 * every entity in an operation state whose task is missing or ended gets a new task.
 * @param {import('./domain/store.js').Store} store  inside its transaction
 * @param {number} from  the data dir's schema
 * @param {{ start: (spec: any) => { uuid: string } }} tasks  the task engine (tasks.js), not started yet
 */
export function upgrade(store, from, tasks) {
  if (from >= 2) return;
  const taskOf = (uuid) => (uuid ? store.get('task', uuid) : undefined);
  for (const image of store.list('image')) {
    const task = taskOf(image.taskUuid);
    const running = task && !DONE.has(task.status);
    if (image.uploading) image.writer = 'upload';
    if (image.writer === 'fetch') delete image.writer;
    if (image.state === 'DELETE_PENDING') {
      image.state = 'DELETING';
      image.before = 'COMPLETE';
    } else if (image.state === 'PENDING') {
      image.state = task?.operation === 'update_image' ? 'UPDATING' : 'CREATING';
      if (image.state === 'UPDATING') image.before = image.previousState === 'ERROR' ? 'ERROR' : 'COMPLETE';
    } else if (running && task.operation === 'upload_image') {
      image.state = 'STAGING';
      delete image.writer;
    }
    if (image.fetchedBytes !== undefined) image.sizeBytes ??= image.fetchedBytes;
    for (const key of ['uploading', 'previousState', 'fetchedBytes']) delete image[key];
    restart(tasks, store, 'image', image, TASK_OF.image[image.state]);
    store.put('image', image.uuid, image);
  }
  for (const os of store.list('objectstore')) {
    const { spec, ...rest } = os;
    const next = spec ? { ...rest, ...fieldsOf(spec) } : os;
    restart(tasks, store, 'objectstore', next, TASK_OF.objectstore[next.state]);
    store.put('objectstore', next.uuid, next);
  }
}

/**
 * Starts the entity's operation task again when an older version left it without one, as a
 * request starts a task (tasks.js `start`: QUEUED, run once the simulator starts).
 */
function restart(tasks, store, kind, entity, operation) {
  if (!operation) return;
  const task = entity.taskUuid ? store.get('task', entity.taskUuid) : undefined;
  if (task && !DONE.has(task.status) && task.operation === operation) return;
  entity.taskUuid = tasks.start({
    operation,
    entity: { kind, uuid: entity.uuid, name: entity.name },
    params: task?.params ?? (entity.containerUuid ? { containerUuid: entity.containerUuid } : {}),
    message: 'started again: an older simulator left the operation without its task',
  }).uuid;
}
