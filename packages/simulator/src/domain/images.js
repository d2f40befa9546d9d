// Images: the one image store behind v3, v0.8 and v2.0. Every change of an image goes through
// its transition table (transitions.js `IMAGE`), in one transaction with the task it starts; a
// task's end moves the image only from the state the task left it in. The API adapters translate
// the wire to these calls and word the domain's errors their way.
//
// Bytes come from exactly one writer at a time, whichever API asks: the writer slot is taken in
// a transaction (with a token, so that only its holder releases it) and is persisted, so a stop
// mid-write is seen and undone at the next start (`recover`). A file is renamed into place before
// the transaction that acknowledges it: a stop between the two leaves a file that start-up
// removes, never an acknowledged image without its bytes.
import { randomUUID } from 'node:crypto';
import { ChecksumMismatch, Conflict, Invalid, MovedOn, NotFound, Refused, StoreUnexplained } from './errors.js';
import { imageJobs } from './image-jobs.js';
import { createMachine } from './machine.js';
import { DONE } from './tasks.js';
import { iso, nowUs } from './time.js';
import { hasData, IMAGE, rowOf, shown } from './transitions.js';

export { hasData } from './transitions.js';

/**
 * @typedef {object} Image  an image document (the store's `image` kind)
 * @property {string} uuid
 * @property {string} name
 * @property {string} [description]   v3 description
 * @property {string} [annotation]    element annotation
 * @property {string} [imageType]     DISK_IMAGE | ISO_IMAGE
 * @property {string} [architecture]
 * @property {string} [sourceUri]     fetched by the create task
 * @property {string} [version]
 * @property {any} [checksum]
 * @property {{ algorithm: 'sha1' | 'sha256', value: string }} [uploadChecksum]  what an upload's bytes were checked against, as sent
 * @property {boolean} [insecureSource]  the source's certificate is not checked
 * @property {Record<string, string>} categories   v3 `metadata.categories`, as sent
 * @property {Record<string, string[]>} [categoriesMapping]  v3 `metadata.categories_mapping`, as sent
 * @property {boolean} [useCategoriesMapping]  v3 `metadata.use_categories_mapping`
 * @property {'CREATING' | 'UPDATING' | 'STAGING' | 'COMPLETE' | 'ERROR' | 'DELETING'} state  a state of transitions.js IMAGE
 * @property {Image['state']} [before]  the state to return to when the running update or delete ends
 * @property {number | null} sizeBytes  null until the image has its bytes
 * @property {string} [containerUuid]
 * @property {string} [clusterUuid]
 * @property {string[]} [placement]  v3 `initial_placement_ref_list`: the clusters it is placed on (set at create)
 * @property {number} createdUs
 * @property {number} updatedUs
 * @property {number} specVersion
 * @property {string} [taskUuid]   the last task started on it (the running one, in CREATING, UPDATING, STAGING, DELETING)
 * @property {'upload' | 'stage'} [writer]  who is writing its bytes now
 * @property {string} [writerToken]  the claim of that writer
 * @property {string} [error]      why it is in ERROR
 */

/**
 * The attributes of an image that the v3 image list filters and sorts on: every one it carries
 * (stored with it: store.js).
 * @param {any} i  an image document (or a part of one)
 * @returns {Record<string, unknown>}
 */
export const imageAttributes = (i) => ({
  name: i.name,
  uuid: i.uuid,
  state: i.state === undefined ? undefined : shown(IMAGE, i.state),
  image_type: i.imageType,
  architecture: i.architecture,
  description: i.description,
  source_uri: i.sourceUri,
  creation_time: iso(i.createdUs),
  last_update_time: iso(i.updatedUs),
  size_bytes: i.sizeBytes ?? undefined,
  product_name: i.version?.product_name,
  product_version: i.version?.product_version,
});

/** The attributes the v3 image list sorts on (a sort index each in the store). */
export const IMAGE_SORT = ['name', 'uuid', 'state', 'image_type', 'creation_time', 'last_update_time', 'size_bytes'];

/**
 * The attributes of an image the store indexes: the list's, and the writer that start-up recovery
 * looks for (see `recover`).
 * @param {any} i  an image document
 * @returns {Record<string, unknown>}
 */
export const imageIndexes = (i) => ({
  ...imageAttributes(i),
  _writer: i.writer,
});

/** What an image is doing, for a refusal: its shown state, and its running task or writer. */
function doing(image) {
  const running = {
    CREATING: 'its create task runs',
    UPDATING: 'its update task runs',
    STAGING: 'its upload task runs',
    DELETING: 'it is being deleted',
  }[image.state];
  const parts = [`it is ${shown(IMAGE, image.state)}`];
  if (running) parts.push(running);
  if (image.writer) parts.push('it is receiving its data (an upload)');
  else if (image.state === 'CREATING' && image.sourceUri) parts.push('its source_uri is being fetched');
  else if (hasData(image)) parts.push(`it has its data already (${image.sizeBytes} bytes)`);
  return parts.join(', ');
}

/**
 * @param {object} o
 * @param {import('./store.js').Store} o.store
 * @param {ReturnType<typeof import('./tasks.js').createTasks>} o.tasks
 * @param {ReturnType<typeof import('./files.js').createFiles>} o.files
 * @param {ReturnType<typeof import('./topology.js').createTopology>} o.topology
 * @param {number} o.sourceLimitBytes  largest source fetched
 * @param {number} o.sourceTimeoutMs   time limit of one fetch
 * @param {(url: URL) => string | undefined} [o.trust]  the CA to trust for a source URL (the simulator's own)
 * @param {(fn: () => void) => void} o.retry  runs a write that must happen (releasing a writer) again
 *   later when the disk refuses it now
 */
export function createImages({ store, tasks, files, topology, sourceLimitBytes, sourceTimeoutMs, trust, retry }) {
  /** @returns {Image} @throws {NotFound} */
  function require(uuid) {
    const image = store.get('image', uuid);
    if (!image) throw new NotFound('image', uuid);
    return image;
  }

  const machine = createMachine({
    store,
    table: IMAGE,
    tasks,
    notFound: (uuid) => new NotFound('image', uuid),
    refuse: (image, event) => new Refused('image', image.uuid, event, doing(image)),
    movedOn: (uuid, found, event) => {
      const image = store.get('image', uuid);
      return new MovedOn('image', uuid, image ? doing(image) : found, event);
    },
    stamp: (i) => {
      i.updatedUs = nowUs();
    },
  });

  /** Writer claims whose upload has ended but whose release is not written yet: free for the next claim. */
  const abandoned = new Set();

  /**
   * Moves an image by its table (machine.js), in the open transaction or one of its own. A writer
   * whose upload ended while its release could not be written (a full disk) is gone first.
   * @param {string} uuid
   * @param {string} event  a row's `event`
   * @param {(image: Image) => void} [change]
   * @param {any} [params]  of the task the row starts
   * @returns {Image} the image as stored
   * @throws {NotFound} | {Refused}
   */
  function move(uuid, event, change, params) {
    return store.batch(() => {
      const image = require(uuid);
      if (image.writerToken && abandoned.has(image.writerToken)) freeSlot(image);
      return machine.move(image, event, change, params);
    });
  }

  /** @param {Image} i */
  function freeSlot(i) {
    delete i.writer;
    delete i.writerToken;
  }

  /**
   * Takes the image's one writer slot, in one transaction with the checks of its table.
   * @param {string} uuid
   * @param {'upload' | 'stage'} event  v3 upload, or the v0.8 two-phase upload
   * @returns {{ image: Image, token: string }}
   * @throws {NotFound} | {Refused}
   */
  function claim(uuid, event) {
    const token = randomUUID();
    const image = move(uuid, event, (i) => {
      i.writer = event;
      i.writerToken = token;
    });
    return { image, token };
  }

  /**
   * Gives the writer slot of `token` back (its bytes did not all arrive); written again later when
   * the disk refuses it now.
   */
  function release(uuid, token) {
    const free = () => {
      store.batch(() => {
        const image = store.get('image', uuid);
        if (image?.writerToken === token) machine.move(image, 'upload cut', freeSlot);
      });
      abandoned.delete(token);
    };
    try {
      free();
    } catch {
      abandoned.add(token);
      retry(free);
    }
  }

  const defaultContainer = () => topology.containers()[0];

  /** The clusters an image is placed on: each registered (not the central endpoint), once. @throws {Invalid} */
  function checkPlacement(clusters = []) {
    /** @type {Record<string, string>} */
    const details = {};
    clusters.forEach((uuid, i) => {
      const cluster = topology.cluster(uuid);
      if (!cluster)
        details[`placement[${i}]`] = `no cluster has UUID ${uuid} (list them with POST /api/svc/v3/clusters/list)`;
      else if (cluster.central)
        details[`placement[${i}]`] = `${uuid} is the central endpoint itself; name a registered cluster`;
      else if (clusters.indexOf(uuid) !== i) details[`placement[${i}]`] = `cluster ${uuid} is named twice`;
    });
    if (Object.keys(details).length) throw new Invalid(details);
  }

  tasks.define(
    imageJobs({ store, files, machine, topology, sourceLimitBytes, sourceTimeoutMs, trust, defaultContainer }),
  );

  return {
    /** @returns {Image | undefined} */
    get: (uuid) => store.get('image', uuid),
    require,
    /** @returns {Image[]} every image, oldest first (reads them all) */
    list: () => store.list('image'),
    /**
     * One page of images, from the store's indexes (the attributes of `imageAttributes`).
     * @param {import('./store.js').PageQuery} query
     * @returns {{ total: number, docs: Image[] }}
     */
    page: (query) => store.page('image', query),
    /** Changes whenever an image is written: answers derived from the list may be reused while it holds. */
    generation: () => store.generation('image'),

    /**
     * Creates an image (CREATING) and its create task, in one transaction; the task fetches
     * `sourceUri` when there is one.
     * @param {Partial<Image> & { name: string }} fields
     * @returns {{ image: Image, task: any }}
     * @throws {Conflict} `exists` when `fields.uuid` is taken; {Invalid} `placement[i]` naming a
     *   cluster that is not registered, the central endpoint, or one named twice
     */
    create(fields) {
      const uuid = fields.uuid ?? randomUUID();
      checkPlacement(fields.placement);
      return store.batch(() => {
        if (store.get('image', uuid)) throw new Conflict('exists', `image : ${uuid} already exists.`);
        const now = nowUs();
        /** @type {Image} */
        const image = machine.create({
          categories: {},
          ...fields,
          uuid,
          sizeBytes: null,
          createdUs: now,
          specVersion: 0,
        });
        return { image, task: tasks.get(/** @type {string} */ (image.taskUuid)) };
      });
    },

    /**
     * Imports the images of a registered cluster into the catalogue (v3 `images/migrate`): a task
     * on the cluster. The simulator's clusters hold no images of their own, so the task finds
     * nothing to add; images already in the catalogue are kept.
     * @param {string} clusterUuid
     * @returns {any} the import task
     * @throws {NotFound} for an unknown cluster; {Invalid} `cluster` for the central endpoint itself
     */
    migrate(clusterUuid) {
      const cluster = topology.cluster(clusterUuid);
      if (!cluster) throw new NotFound('cluster', clusterUuid);
      if (cluster.central)
        throw new Invalid({ cluster: `${clusterUuid} is the central endpoint itself; name a registered cluster` });
      return store.batch(() =>
        tasks.start({
          operation: 'migrate_images',
          entity: { kind: 'cluster', uuid: cluster.uuid, name: cluster.name },
        }),
      );
    },

    /**
     * Updates an image's fields (each key given is set, `undefined` included) and bumps its
     * `specVersion`; the image is UPDATING until the update task ends.
     * @param {string} uuid
     * @param {Partial<Image>} fields
     * @param {{ specVersion?: number }} [expect]  the spec_version the client read (v3)
     * @returns {{ image: Image, task: any }}
     * @throws {NotFound}; {Refused} in a state that takes no update; {Conflict} `stale` when `expect.specVersion` is not current
     */
    update(uuid, fields, expect = {}) {
      const image = store.batch(() => {
        const current = require(uuid);
        if (
          expect.specVersion !== undefined &&
          expect.specVersion !== current.specVersion &&
          rowOf(IMAGE, current, 'update')
        )
          throw new Conflict(
            'stale',
            `image ${uuid}: spec_version ${expect.specVersion} is not the current one (${current.specVersion}); read the image again and retry`,
          );
        return move(uuid, 'update', (i) => {
          Object.assign(i, fields);
          i.specVersion += 1;
        });
      });
      return { image, task: tasks.get(/** @type {string} */ (image.taskUuid)) };
    },

    /**
     * Deletes an image: DELETING, then gone with its bytes when the task ends.
     * @param {string} uuid
     * @returns {{ image: Image, task: any }}
     * @throws {NotFound}; {Refused} while another operation runs or bytes arrive
     */
    remove(uuid) {
      const image = move(uuid, 'delete');
      return { image, task: tasks.get(/** @type {string} */ (image.taskUuid)) };
    },

    /**
     * Receives an image's bytes (v3 `PUT .../file`): kept only when complete and, if given, when
     * their digest matches.
     * @param {string} uuid
     * @param {import('node:stream').Readable} source
     * @param {{ algorithm?: 'sha1' | 'sha256', expectedDigest?: string, idleMs?: number }} [o]  `idleMs`:
     *   how long `source` may be silent before the upload is abandoned, in ms (default: no limit)
     * @returns {Promise<Image>}
     * @throws {NotFound}; {Refused} (see the table); {ChecksumMismatch}; {SourceIdle} (files.js); the
     *   stream's or the disk's error. An upload that fails keeps nothing and gives the writer slot back.
     */
    async upload(uuid, source, { algorithm, expectedDigest, idleMs } = {}) {
      const { token } = claim(uuid, 'upload');
      let kept;
      try {
        const written = await files.write(uuid, source, { algorithm, idleMs });
        if (expectedDigest !== undefined && written.digest !== expectedDigest.toLowerCase()) {
          written.discard();
          throw new ChecksumMismatch(
            /** @type {string} */ (algorithm),
            written.size,
            /** @type {string} */ (written.digest),
          );
        }
        // from the check to the acknowledgement, nothing awaits: no other request runs in between
        if (store.get('image', uuid)?.writerToken !== token) {
          written.discard();
          throw new MovedOn('image', uuid, 'no longer held by this upload', 'the upload');
        }
        written.commit();
        try {
          kept = move(uuid, 'uploaded', (i) => {
            i.sizeBytes = written.size;
            if (expectedDigest !== undefined)
              i.uploadChecksum = { algorithm: /** @type {'sha1' | 'sha256'} */ (algorithm), value: expectedDigest };
            freeSlot(i);
          });
        } catch (error) {
          // renamed into place but not acknowledged: not the image's
          files.remove(uuid);
          throw error;
        }
      } finally {
        if (!kept) release(uuid, token);
      }
      return kept;
    },

    /**
     * Receives an image's bytes in two phases (element v0.8 `PUT .../upload`): the bytes are
     * kept, then a task (started in the transaction that acknowledges them) puts them in the
     * storage container and the image becomes ACTIVE.
     * @param {string} uuid
     * @param {import('node:stream').Readable} source
     * @param {string} containerUuid  an existing storage container
     * @param {{ idleMs?: number }} [o]  how long `source` may be silent before the upload is abandoned, in ms
     * @returns {Promise<any>} the upload task
     * @throws {NotFound}; {Refused} (see the table); {SourceIdle} (files.js); the stream's or the disk's error
     */
    async uploadStaged(uuid, source, containerUuid, { idleMs } = {}) {
      const { token } = claim(uuid, 'stage');
      let staged;
      try {
        const written = await files.write(uuid, source, { writer: 'stage', idleMs });
        // from the check to the acknowledgement, nothing awaits: no other request runs in between
        if (store.get('image', uuid)?.writerToken !== token) {
          written.discard();
          throw new MovedOn('image', uuid, 'no longer held by this upload', 'the upload');
        }
        written.commit();
        try {
          staged = move(uuid, 'staged', freeSlot, { containerUuid });
        } catch (error) {
          files.remove(uuid);
          throw error;
        }
      } finally {
        if (!staged) release(uuid, token);
      }
      return tasks.get(/** @type {string} */ (staged.taskUuid));
    },

    /**
     * The image's bytes, opened: a stream of them and their size (files.js `open`); the caller owns
     * the stream (it closes the file when it ends or is destroyed).
     * @param {string} uuid
     * @returns {Promise<{ size: number, stream: import('node:stream').Readable } | undefined>} undefined
     *   when it has none
     * @throws {NotFound} also when the image is deleted while its file is opened
     */
    async bytes(uuid) {
      if (!hasData(require(uuid))) return undefined;
      const opened = await files.open(uuid);
      if (!opened) require(uuid);
      return opened;
    },

    /**
     * Start-up recovery, before tasks run again: a writer cut by a stop is released (its bytes were
     * never acknowledged), and every file that no image claims is removed (partial files, the file
     * of an upload not acknowledged, of an image whose delete committed). A task that stopped
     * mid-way runs again at `start` (its job is idempotent).
     * @returns {{ resolved: { uuid: string, writer: string, outcome: string }[], notes: Map<string, string> }}
     *   what was resolved, and the progress_message of each create task that runs again
     */
    recover() {
      const resolved = [];
      /** @type {Map<string, string>} */
      const notes = new Map();
      // by the index of `_writer` (imageIndexes): a large catalogue is not read at start
      for (const image of store.having('image', '_writer')) {
        machine.move(image, 'upload cut', freeSlot);
        resolved.push({
          uuid: image.uuid,
          writer: /** @type {string} */ (image.writer),
          outcome: 'upload discarded (not acknowledged); the image takes a new upload',
        });
      }
      const keeps = (uuid) => {
        const image = store.get('image', uuid);
        if (!image) return false;
        if (hasData(image) || image.state === 'STAGING') return true;
        // a fetch renamed into place, awaiting its task's end
        const task = image.taskUuid && store.get('task', image.taskUuid);
        return image.state === 'CREATING' && Boolean(image.sourceUri) && Boolean(task) && !DONE.has(task.status);
      };
      // image bytes a delete committed, or of an image that has none: removed; of no image: refused
      const all = Boolean(store.get('unlink', '*'));
      const explained = (uuid) => all || Boolean(store.get('unlink', uuid) ?? store.get('image', uuid));
      const { unexplained } = files.sweep({ keep: keeps, explained });
      if (unexplained.length) throw new StoreUnexplained(unexplained, false);
      store.batch(() => {
        for (const { uuid } of store.list('unlink')) store.remove('unlink', uuid);
      });
      // a fetch cut by the stop starts again; one renamed into place is kept
      for (const task of store.having('task', '_active')) {
        const image = task.operation === 'create_image' && store.get('image', task.entity.uuid);
        if (!image?.sourceUri || image.taskUuid !== task.uuid || image.state !== 'CREATING') continue;
        const kept = files.size(image.uuid) !== undefined;
        notes.set(
          task.uuid,
          kept
            ? 'resumed after a restart of the simulator: the fetched data was kept'
            : 'resumed after a restart of the simulator: the partial download was discarded and the source is fetched again',
        );
        resolved.push({ uuid: image.uuid, writer: 'fetch', outcome: kept ? 'fetched data kept' : 'fetched again' });
      }
      return { resolved, notes };
    },
  };
}
