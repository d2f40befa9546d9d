// Images: the one image store behind v3, v0.8 and v2.0, and its one state machine. Every write of
// an image's state happens here; the API adapters translate the wire to these calls.
//
// States: PENDING (created, updated, or its source being fetched) -> COMPLETE, or ERROR when the
// source cannot be fetched; DELETE_PENDING -> gone. Bytes come from exactly one writer at a time,
// whichever API asks: the `writer` slot (`upload` or `fetch`) is taken in a transaction of the store
// and persisted, so a stop mid-write is seen and resolved at the next start (`recover`).
import { conflict, HttpError, notFound } from '../errors.js';
import { DONE, TaskError } from './tasks.js';
import { iso, nowUs } from './time.js';

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
 * @property {boolean} [insecureSource]  the source's certificate is not checked
 * @property {Record<string, string>} categories   v3 `metadata.categories`, as sent
 * @property {Record<string, string[]>} [categoriesMapping]  v3 `metadata.categories_mapping`, as sent
 * @property {boolean} [useCategoriesMapping]  v3 `metadata.use_categories_mapping`
 * @property {'PENDING' | 'COMPLETE' | 'ERROR' | 'DELETE_PENDING'} state
 * @property {number | null} sizeBytes  null until the image has its bytes
 * @property {string} [containerUuid]
 * @property {string} [clusterUuid]
 * @property {string[]} [placement]  v3 `initial_placement_ref_list`: the clusters it is placed on (set at create)
 * @property {number} createdUs
 * @property {number} updatedUs
 * @property {number} specVersion
 * @property {string} [taskUuid]   the last task started on it
 * @property {'upload' | 'fetch'} [writer]  who is writing its bytes now
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
  state: i.state,
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
  // `uploading`: the flag of data dirs written before the writer slot
  _writer: i.writer ?? (i.uploading ? 'upload' : undefined),
});

/** @param {Image} i */
export const hasData = (i) => i.sizeBytes !== null && i.sizeBytes !== undefined;

/**
 * @param {object} o
 * @param {import('./store.js').Store} o.store
 * @param {ReturnType<typeof import('./tasks.js').createTasks>} o.tasks
 * @param {ReturnType<typeof import('./files.js').createFiles>} o.files
 * @param {ReturnType<typeof import('./topology.js').createTopology>} o.topology
 * @param {number} o.sourceLimitBytes  largest source fetched
 * @param {number} o.sourceTimeoutMs   time limit of one fetch
 * @param {(url: URL) => string | undefined} [o.trust]  the CA to trust for a source URL (the simulator's own)
 */
export function createImages({ store, tasks, files, topology, sourceLimitBytes, sourceTimeoutMs, trust }) {
  /** Changes an image in one transaction and stamps `updatedUs`; undefined when it is gone. */
  const change = (uuid, fn) =>
    store.update('image', uuid, (i) => {
      fn(i);
      i.updatedUs = nowUs();
    });

  /** @returns {Image} @throws {HttpError} 404 */
  function require(uuid) {
    const image = store.get('image', uuid);
    if (!image) throw notFound('image', uuid);
    return image;
  }

  /** Starts a task on an image and records it as the image's last task. */
  function startTask(operation, image, params) {
    const task = tasks.start({ operation, entity: { kind: 'image', uuid: image.uuid, name: image.name }, params });
    const stored = store.update('image', image.uuid, (i) => {
      i.taskUuid = task.uuid;
    });
    return { image: stored ?? image, task };
  }

  /**
   * Takes the image's one writer slot, in one transaction with the checks of the state.
   * @param {string} uuid
   * @param {'upload' | 'fetch'} writer
   * @returns {Image}
   * @throws {HttpError} 404, or 409 when the image is being deleted, has its bytes, or another writer holds the slot
   */
  function claim(uuid, writer) {
    const image = store.update('image', uuid, (i) => {
      if (i.state === 'DELETE_PENDING') throw conflict(`image ${uuid} is being deleted.`);
      if (i.writer === 'fetch' || (writer === 'upload' && i.sourceUri && i.state === 'PENDING' && !hasData(i)))
        throw conflict(
          `image ${uuid} is being created from its source_uri; the upload is for images created without one.`,
        );
      if (i.writer) throw conflict(`image ${uuid} is receiving an upload already.`);
      if (hasData(i))
        throw conflict(
          `image ${uuid} has its data already (${i.sizeBytes} bytes); create a new image to upload other data.`,
        );
      i.writer = writer;
    });
    if (!image) throw notFound('image', uuid);
    return image;
  }

  const release = (uuid) =>
    store.update('image', uuid, (i) => {
      delete i.writer;
    });

  const containerOf = () => topology.containers()[0];

  tasks.define({
    create_image: {
      async run(task, signal, progress) {
        const image = store.get('image', task.entity.uuid);
        if (!image?.sourceUri) return;
        try {
          claim(image.uuid, 'fetch');
        } catch (error) {
          throw new TaskError('CONFLICT', error.message);
        }
        try {
          const size = await files.fetchSource(image.uuid, image.sourceUri, {
            limit: sourceLimitBytes,
            timeoutMs: sourceTimeoutMs,
            insecure: image.insecureSource,
            signal,
            progress,
            trust,
          });
          change(image.uuid, (i) => {
            i.fetchedBytes = size;
            delete i.writer;
          });
        } finally {
          if (store.get('image', image.uuid)?.writer === 'fetch') release(image.uuid);
        }
      },
      succeed(task) {
        change(task.entity.uuid, (i) => {
          i.state = 'COMPLETE';
          if (i.fetchedBytes !== undefined) {
            i.sizeBytes = i.fetchedBytes;
            delete i.fetchedBytes;
            i.containerUuid ??= containerOf()?.uuid;
          }
          i.clusterUuid ??= containerOf()?.clusterUuid;
        });
      },
      fail(task, error) {
        change(task.entity.uuid, (i) => {
          i.state = 'ERROR';
          i.error = error.message;
        });
      },
    },
    update_image: {
      succeed(task) {
        change(task.entity.uuid, (i) => {
          i.state = i.previousState === 'PENDING' ? 'COMPLETE' : (i.previousState ?? 'COMPLETE');
          delete i.previousState;
        });
      },
      fail(task) {
        change(task.entity.uuid, (i) => {
          i.state = i.previousState ?? 'COMPLETE';
          delete i.previousState;
        });
      },
    },
    delete_image: {
      succeed(task) {
        store.remove('image', task.entity.uuid);
        files.remove(task.entity.uuid);
      },
      fail(task) {
        change(task.entity.uuid, (i) => {
          i.state = 'COMPLETE';
        });
      },
    },
    upload_image: {
      async run(task) {
        if (files.size(task.entity.uuid) === undefined)
          throw new TaskError(
            'DATA_LOST',
            'the uploaded data of the image is gone (the simulator stopped before it was kept); upload again',
          );
      },
      succeed(task) {
        change(task.entity.uuid, (i) => {
          i.sizeBytes = files.size(i.uuid) ?? 0;
          i.containerUuid = task.params.containerUuid;
          i.clusterUuid ??= topology.container(task.params.containerUuid)?.clusterUuid;
          i.state = 'COMPLETE';
          delete i.writer;
        });
      },
      fail(task) {
        files.remove(task.entity.uuid);
        release(task.entity.uuid);
      },
    },
  });

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
     * Creates an image (PENDING) and its create task, which fetches `sourceUri` when there is one.
     * @param {Partial<Image> & { name: string }} fields
     * @returns {{ image: Image, task: any }}
     * @throws {HttpError} 409 when `fields.uuid` is taken
     */
    create(fields) {
      const uuid = fields.uuid ?? crypto.randomUUID();
      if (store.get('image', uuid))
        throw new HttpError(409, 'ENTITY_ALREADY_EXISTS', `image : ${uuid} already exists.`);
      const now = nowUs();
      /** @type {Image} */
      const image = {
        categories: {},
        ...fields,
        uuid,
        state: 'PENDING',
        sizeBytes: null,
        createdUs: now,
        updatedUs: now,
        specVersion: 0,
      };
      store.put('image', uuid, image);
      return startTask('create_image', image);
    },

    /**
     * Imports the images of a registered cluster into the catalogue (v3 `images/migrate`): a task
     * on the cluster. The simulator's clusters hold no images of their own, so the task finds
     * nothing to add; images already in the catalogue are kept.
     * @param {string} clusterUuid
     * @returns {any} the import task
     * @throws {HttpError} 404 for an unknown cluster; 422 for the central endpoint itself
     */
    migrate(clusterUuid) {
      const cluster = topology.cluster(clusterUuid);
      if (!cluster) throw notFound('cluster', clusterUuid);
      if (cluster.central)
        throw new HttpError(
          422,
          'INVALID_REQUEST',
          `cluster_reference: ${clusterUuid} is the central endpoint itself; name a registered cluster`,
          { 'cluster_reference.uuid': 'must be a registered cluster, not the central endpoint' },
        );
      return tasks.start({
        operation: 'migrate_images',
        entity: { kind: 'cluster', uuid: cluster.uuid, name: cluster.name },
      });
    },

    /**
     * Updates an image's fields (each key given is set, `undefined` included) and bumps its
     * `specVersion`; the image is PENDING until the update task ends.
     * @param {string} uuid
     * @param {Partial<Image>} fields
     * @param {{ specVersion?: number }} [expect]  the spec_version the client read (v3): another answers 409
     * @returns {{ image: Image, task: any }}
     * @throws {HttpError} 404; 409 when the image is being deleted or `expect.specVersion` is stale
     */
    update(uuid, fields, expect = {}) {
      // one transaction: the spec_version check and the write cannot interleave with another update
      const updated = change(uuid, (image) => {
        if (image.state === 'DELETE_PENDING') throw conflict(`image ${uuid} is being deleted.`);
        if (expect.specVersion !== undefined && expect.specVersion !== image.specVersion)
          throw conflict(
            `Concurrent requests on image ${uuid} are not allowed; retry with the current spec_version (${image.specVersion}, not ${expect.specVersion}).`,
          );
        Object.assign(image, fields);
        image.specVersion += 1;
        image.previousState = image.state === 'PENDING' ? (image.previousState ?? 'PENDING') : image.state;
        image.state = 'PENDING';
      });
      if (!updated) throw notFound('image', uuid);
      return startTask('update_image', updated);
    },

    /**
     * Deletes an image: DELETE_PENDING, then gone with its bytes when the task ends.
     * @param {string} uuid
     * @returns {{ image: Image, task: any }}
     * @throws {HttpError} 404; 409 when it is being deleted already or receiving its bytes
     */
    remove(uuid) {
      const image = change(uuid, (i) => {
        if (i.state === 'DELETE_PENDING') throw conflict(`image ${uuid} is already being deleted.`);
        if (i.writer)
          throw conflict(
            `image ${uuid} is receiving its data (${i.writer === 'fetch' ? 'from its source_uri' : 'an upload'}); delete it when that has ended (or abort its task).`,
          );
        i.state = 'DELETE_PENDING';
      });
      if (!image) throw notFound('image', uuid);
      return startTask('delete_image', image);
    },

    /**
     * Receives an image's bytes (v3 `PUT .../file`): kept only when complete and, if given, when
     * their digest matches. The image must have no bytes and no other writer.
     * @param {string} uuid
     * @param {import('node:stream').Readable} source
     * @param {{ algorithm?: 'sha1' | 'sha256', expectedDigest?: string, checksumType?: string }} [o]
     * @returns {Promise<Image>}
     * @throws {HttpError} 404; 409 (see `claim`); 400 on a digest mismatch; the stream's or disk's error
     */
    async upload(uuid, source, { algorithm, expectedDigest, checksumType } = {}) {
      claim(uuid, 'upload');
      let kept;
      try {
        const written = await files.write(uuid, source, { algorithm });
        if (expectedDigest !== undefined && written.digest !== expectedDigest.toLowerCase()) {
          written.discard();
          throw new HttpError(
            400,
            'INVALID_ARGUMENT',
            `X-Svc-Checksum-Bytes does not match the data: the ${checksumType} of the ${written.size} bytes received is ${written.digest}`,
          );
        }
        written.commit();
        kept = change(uuid, (i) => {
          i.sizeBytes = written.size;
          if (i.state === 'PENDING' && !i.sourceUri) i.state = 'COMPLETE';
          delete i.writer;
        });
      } finally {
        if (!kept) release(uuid);
      }
      return kept;
    },

    /**
     * Receives an image's bytes in two phases (element v0.8 `PUT .../upload`): the bytes are
     * kept, then a task puts them in the storage container and the image becomes ACTIVE.
     * @param {string} uuid
     * @param {import('node:stream').Readable} source
     * @param {string} containerUuid  an existing storage container
     * @returns {Promise<any>} the upload task
     * @throws {HttpError} 404; 409 (see `claim`); the stream's or disk's error
     */
    async uploadStaged(uuid, source, containerUuid) {
      const image = claim(uuid, 'upload');
      try {
        const written = await files.write(uuid, source);
        written.commit();
      } catch (error) {
        release(uuid);
        throw error;
      }
      // the slot stays taken until the task has put the bytes in the container
      return startTask('upload_image', image, { containerUuid }).task;
    },

    /** A readable stream of the image's bytes, and their size; undefined when it has none. */
    bytes(uuid) {
      const image = require(uuid);
      const size = hasData(image) ? files.size(uuid) : undefined;
      return size === undefined ? undefined : { size, stream: files.read(uuid) };
    },

    /**
     * Start-up recovery, before tasks run again: an upload or fetch cut by a stop is resolved.
     * A staged upload whose bytes were kept goes on (its task runs again); any other cut upload
     * returns the image to a state that takes a new upload; a cut fetch is run again from the
     * start. Partial files are removed.
     * @returns {{ uuid: string, writer: string, outcome: string }[]} what was resolved
     */
    recover() {
      const resolved = [];
      // by the index of `_writer` (imageIndexes): a large catalogue is not read at start
      for (const image of store.having('image', '_writer')) {
        const writer = image.writer ?? (image.uploading ? 'upload' : undefined);
        if (!writer) continue;
        const task = image.taskUuid ? store.get('task', image.taskUuid) : undefined;
        const staged =
          writer === 'upload' &&
          task?.operation === 'upload_image' &&
          !DONE.has(task.status) &&
          files.size(image.uuid) !== undefined;
        if (staged) continue;
        store.update('image', image.uuid, (i) => {
          delete i.writer;
          delete i.uploading;
        });
        if (writer === 'fetch' && task && !DONE.has(task.status))
          tasks.noteResume(
            task.uuid,
            'resumed after a restart of the simulator: the partial download was discarded and the source is fetched again',
          );
        resolved.push({
          uuid: image.uuid,
          writer,
          outcome:
            writer === 'fetch' ? 'fetched again' : 'upload discarded (not acknowledged); the image takes a new upload',
        });
      }
      files.removeParts();
      return resolved;
    },
  };
}
