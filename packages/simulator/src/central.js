// Central v3 (`/api/svc/v3`): images, tasks, clusters, subnets and services, over the one image
// store that the element-level API shares. Handlers are keyed by operationId.
import { HttpError } from './http.js';
import { DEFAULT_LENGTH, parseFilter, sortBy } from './lists.js';
import { TaskError } from './tasks.js';

const API_VERSION = '3.1';
const isoCache = new Map();
/** Microseconds since the epoch -> `2026-11-02T10:01:12Z` (memoized: lists format the same times again and again). */
const iso = (us) => {
  let text = isoCache.get(us);
  if (text === undefined) {
    if (isoCache.size > 50_000) isoCache.clear();
    text = new Date(Math.floor(us / 1000)).toISOString().replace(/\.\d{3}Z$/, 'Z');
    isoCache.set(us, text);
  }
  return text;
};
const V3_OPERATION = {
  create_image: 'create_image_intentful',
  update_image: 'update_image_intentful',
  delete_image: 'delete_image_intentful',
  upload_image: 'upload_image',
  create_objectstore: 'create_objectstore',
  delete_objectstore: 'delete_objectstore',
  regenerate_cert: 'regenerate_objectstore_cert',
  enable_service: 'enable_oss_service',
};
/** UUID the simulator gives its user in `owner_reference` (production: the user's own). */
const OWNER_UUID = '00000000-0000-0000-0000-000000000000';

/** 404 with the v3 error body: `<kind> : <uuid> does not exist.` */
export function notFound(kind, uuid) {
  return new HttpError(404, 'ENTITY_NOT_FOUND', `${kind} : ${uuid} does not exist.`);
}

/** The v3 view of a task (schema Task). */
export function taskV3(t) {
  const out = {
    uuid: t.uuid,
    status: t.status,
    api_version: API_VERSION,
    operation_type: V3_OPERATION[t.operation] ?? t.operation,
    progress_message: t.message || V3_OPERATION[t.operation] || t.operation,
    percentage_complete: t.percentage,
    logical_timestamp: t.logicalTimestamp,
    creation_time: iso(t.createdUs),
    creation_time_usecs: t.createdUs,
    last_update_time: iso(t.updatedUs),
    last_update_time_usecs: t.updatedUs,
    entity_reference_list: [
      { kind: t.entity.kind, uuid: t.entity.uuid, ...(t.entity.name ? { name: t.entity.name } : {}) },
    ],
    subtask_reference_list: [],
  };
  if (t.startedUs) Object.assign(out, { start_time: iso(t.startedUs), start_time_usecs: t.startedUs });
  if (t.completedUs) Object.assign(out, { completion_time: iso(t.completedUs), completion_time_usecs: t.completedUs });
  if (t.requested) out.requested_status = t.requested;
  if (t.status === 'FAILED' || t.status === 'ABORTED')
    Object.assign(out, { error_code: t.errorCode, error_detail: t.errorDetail });
  return out;
}

/**
 * @param {object} o
 * @param {import('./store.js').Store} o.store
 * @param {ReturnType<import('./tasks.js').createTasks>} o.tasks
 * @param {ReturnType<import('./files.js').createFiles>} o.files
 * @param {string} o.user
 * @param {string} o.centralBase  the v3 base path, for `retrieval_uri_list`
 */
export function centralHandlers({ store, tasks, files, user, centralBase }) {
  const getImage = (uuid) => {
    const image = store.get('image', uuid);
    if (!image) throw notFound('image', uuid);
    return image;
  };

  /** The v3 view of an image (ImageIntentResponse). */
  function imageV3(image, origin) {
    const resources = {};
    if (image.imageType) resources.image_type = image.imageType;
    if (image.architecture) resources.architecture = image.architecture;
    if (image.sourceUri) resources.source_uri = image.sourceUri;
    if (image.version) resources.version = image.version;
    if (image.checksum) resources.checksum = image.checksum;
    const statusResources = { ...resources };
    if (image.sizeBytes !== undefined && image.sizeBytes !== null) {
      statusResources.size_bytes = image.sizeBytes;
      statusResources.retrieval_uri_list = [`${origin}${centralBase}/images/${image.uuid}/file`];
    }
    if (image.clusterUuid)
      statusResources.current_cluster_reference_list = [{ kind: 'cluster', uuid: image.clusterUuid }];
    const spec = { name: image.name, resources };
    if (image.description) spec.description = image.description;
    const status = { state: image.state, name: image.name, resources: statusResources };
    if (image.description) status.description = image.description;
    if (image.taskUuid) status.execution_context = { task_uuid: [image.taskUuid] };
    if (image.error) status.message_list = [{ message: image.error, reason: 'INTERNAL_ERROR' }];
    return {
      api_version: API_VERSION,
      metadata: {
        kind: 'image',
        uuid: image.uuid,
        spec_version: image.specVersion,
        creation_time: iso(image.createdUs),
        last_update_time: iso(image.updatedUs),
        categories: image.categories ?? {},
        owner_reference: { kind: 'user', uuid: OWNER_UUID, name: user },
      },
      spec,
      status,
    };
  }

  /** @type {WeakMap<object, { origin: string, json: string }>} an image document -> its v3 view as JSON (a changed image is a new document) */
  const viewCache = new WeakMap();
  /** @type {Map<string, { generation: number, json: string }>} origin + request body -> the list answer */
  const listCache = new Map();
  function imageJson(image, origin) {
    const hit = viewCache.get(image);
    if (hit?.origin === origin) return hit.json;
    const json = JSON.stringify(imageV3(image, origin));
    viewCache.set(image, { origin, json });
    return json;
  }

  function listPage(body, items, valuesOf, kind, filterAttributes, sortAttributes) {
    const keep = parseFilter(body.filter, 'filter', filterAttributes);
    const matched = sortBy(
      items.filter((i) => keep(valuesOf(i))),
      valuesOf,
      body.sort_attribute,
      body.sort_order,
      'sort_attribute',
      sortAttributes,
    );
    const offset = body.offset ?? 0;
    const length = body.length ?? DEFAULT_LENGTH;
    const page = matched.slice(offset, offset + length);
    const metadata = { kind, total_matches: matched.length, offset, length: page.length };
    for (const k of ['filter', 'sort_attribute', 'sort_order']) if (body[k] !== undefined) metadata[k] = body[k];
    return { metadata, page };
  }

  /** Starts the image's task and answers 202 with the image and the task's UUID (a string, as create and update answers carry it). */
  function accepted(operation, image, origin) {
    const task = tasks.start({ operation, entity: { kind: 'image', uuid: image.uuid, name: image.name } });
    const stored = store.update('image', image.uuid, (i) => {
      i.taskUuid = task.uuid;
    });
    const view = imageV3(stored, origin);
    view.status.execution_context = { task_uuid: task.uuid };
    return { status: 202, body: view };
  }

  const imageValues = (i) => ({
    name: i.name,
    uuid: i.uuid,
    state: i.state,
    image_type: i.imageType,
    creation_time: iso(i.createdUs),
    last_update_time: iso(i.updatedUs),
    size_bytes: i.sizeBytes ?? undefined,
  });
  const taskValues = (t) => ({
    status: t.status,
    operation_type: V3_OPERATION[t.operation] ?? t.operation,
    entity_uuid: t.entity.uuid,
    creation_time: iso(t.createdUs),
    uuid: t.uuid,
  });
  const uuidOf = (ctx) => ctx.params.uuid.toLowerCase();

  return {
    async images_create(ctx) {
      const { spec, metadata } = ctx.body;
      const now = Date.now() * 1000;
      const uuid = metadata.uuid?.toLowerCase() ?? crypto.randomUUID();
      if (store.get('image', uuid))
        throw new HttpError(409, 'ENTITY_ALREADY_EXISTS', `image : ${uuid} already exists.`);
      const r = spec.resources ?? {};
      const image = {
        uuid,
        name: spec.name,
        description: spec.description,
        imageType: r.image_type,
        architecture: r.architecture,
        sourceUri: r.source_uri,
        version: r.version,
        checksum: r.checksum,
        insecureSource: r.source_options?.allow_insecure_connection === true,
        categories: metadata.categories ?? {},
        state: 'PENDING',
        sizeBytes: null,
        createdUs: now,
        updatedUs: now,
        specVersion: 0,
      };
      store.put('image', uuid, image);
      return accepted('create_image', image, ctx.origin);
    },

    async images_list(ctx) {
      const body = ctx.body ?? {};
      // the same page asked again with no image changed in between (polling clients): the same answer
      const key = `${ctx.origin} ${JSON.stringify(body)}`;
      const generation = store.generation('image');
      const cached = listCache.get(key);
      if (cached?.generation === generation) return { status: 200, json: cached.json };
      const { metadata, page } = listPage(
        body,
        store.list('image'),
        imageValues,
        'image',
        ['name', 'uuid', 'state', 'image_type'],
        ['name', 'uuid', 'state', 'image_type', 'creation_time', 'last_update_time', 'size_bytes'],
      );
      // assembled from each image's cached JSON: the list is the hot path of polling clients
      const json = `{"api_version":"${API_VERSION}","metadata":${JSON.stringify(metadata)},"entities":[${page.map((i) => imageJson(i, ctx.origin)).join(',')}]}`;
      if (listCache.size >= 64) listCache.clear();
      listCache.set(key, { generation, json });
      return { status: 200, json };
    },

    async images_get(ctx) {
      return { status: 200, body: imageV3(getImage(uuidOf(ctx)), ctx.origin) };
    },

    async images_update(ctx) {
      const uuid = uuidOf(ctx);
      const { spec, metadata } = ctx.body;
      // one transaction: the spec_version check and the write cannot interleave with another update
      const updated = store.update('image', uuid, (image) => {
        if (image.state === 'DELETE_PENDING')
          throw new HttpError(409, 'CONCURRENT_REQUESTS_NOT_ALLOWED', `image ${uuid} is being deleted.`);
        if (metadata.spec_version === undefined)
          throw new HttpError(
            422,
            'INVALID_REQUEST',
            'metadata.spec_version is required to update an image: send the spec_version of the image you read',
            { 'metadata.spec_version': 'is required' },
          );
        if (metadata.spec_version !== image.specVersion) {
          throw new HttpError(
            409,
            'CONCURRENT_REQUESTS_NOT_ALLOWED',
            `Concurrent requests on image ${uuid} are not allowed; retry with the current spec_version (${image.specVersion}, not ${metadata.spec_version}).`,
          );
        }
        const r = spec.resources ?? {};
        image.name = spec.name;
        image.description = spec.description;
        if (r.image_type) image.imageType = r.image_type;
        if (r.architecture) image.architecture = r.architecture;
        if (r.version) image.version = r.version;
        if (metadata.categories) image.categories = metadata.categories;
        image.specVersion += 1;
        image.updatedUs = Date.now() * 1000;
        image.previousState = image.state === 'PENDING' ? (image.previousState ?? 'PENDING') : image.state;
        image.state = 'PENDING';
      });
      if (!updated) throw notFound('image', uuid);
      return accepted('update_image', updated, ctx.origin);
    },

    async images_delete(ctx) {
      const uuid = uuidOf(ctx);
      const image = store.update('image', uuid, (i) => {
        if (i.state === 'DELETE_PENDING')
          throw new HttpError(409, 'CONCURRENT_REQUESTS_NOT_ALLOWED', `image ${uuid} is already being deleted.`);
        i.state = 'DELETE_PENDING';
        i.updatedUs = Date.now() * 1000;
      });
      if (!image) throw notFound('image', uuid);
      const task = tasks.start({ operation: 'delete_image', entity: { kind: 'image', uuid, name: image.name } });
      store.update('image', uuid, (i) => {
        i.taskUuid = task.uuid;
      });
      return {
        status: 202,
        body: {
          status: { state: 'DELETE_PENDING', execution_context: { task_uuid: task.uuid } },
          spec: '',
          api_version: API_VERSION,
          metadata: { kind: 'image', uuid, categories: image.categories ?? {} },
        },
      };
    },

    async images_upload_file(ctx) {
      const uuid = uuidOf(ctx);
      const image = getImage(uuid);
      if (image.state === 'DELETE_PENDING')
        throw new HttpError(409, 'CONCURRENT_REQUESTS_NOT_ALLOWED', `image ${uuid} is being deleted.`);
      if (image.uploading)
        throw new HttpError(409, 'CONCURRENT_REQUESTS_NOT_ALLOWED', `image ${uuid} is receiving an upload already.`);
      if (image.sizeBytes !== null && image.sizeBytes !== undefined)
        throw new HttpError(
          409,
          'CONCURRENT_REQUESTS_NOT_ALLOWED',
          `image ${uuid} has its data already (${image.sizeBytes} bytes); create a new image to upload other data.`,
        );
      const type = ctx.headers['x-svc-checksum-type'];
      const expected = ctx.headers['x-svc-checksum-bytes'];
      if ((type === undefined) !== (expected === undefined)) {
        throw new HttpError(
          400,
          'INVALID_ARGUMENT',
          'X-Svc-Checksum-Type and X-Svc-Checksum-Bytes go together: send both or neither',
        );
      }
      store.update('image', uuid, (i) => {
        i.uploading = true;
      });
      try {
        const written = await files.write(uuid, ctx.req, {
          algorithm: type === 'SHA_1' ? 'sha1' : type === 'SHA_256' ? 'sha256' : undefined,
        });
        if (expected !== undefined && written.digest !== String(expected).toLowerCase()) {
          written.discard();
          throw new HttpError(
            400,
            'INVALID_ARGUMENT',
            `X-Svc-Checksum-Bytes does not match the data: the ${type} of the ${written.size} bytes received is ${written.digest}`,
          );
        }
        written.commit();
        store.update('image', uuid, (i) => {
          i.sizeBytes = written.size;
          i.updatedUs = Date.now() * 1000;
          if (i.state === 'PENDING' && !i.sourceUri) i.state = 'COMPLETE';
        });
      } finally {
        store.update('image', uuid, (i) => {
          delete i.uploading;
        });
      }
      return { status: 200 };
    },

    async images_download_file(ctx) {
      const uuid = uuidOf(ctx);
      const image = getImage(uuid);
      const size = image.sizeBytes === null || image.sizeBytes === undefined ? undefined : files.size(uuid);
      if (size === undefined) throw new HttpError(404, 'ENTITY_NOT_FOUND', `image : ${uuid} has no data yet.`);
      return {
        status: 200,
        headers: { 'content-type': 'application/octet-stream', 'content-length': String(size) },
        stream: files.read(uuid),
      };
    },

    async tasks_get(ctx) {
      const task = tasks.get(uuidOf(ctx));
      if (!task) throw notFound('task', uuidOf(ctx));
      return { status: 200, body: taskV3(task) };
    },

    async tasks_list(ctx) {
      const body = ctx.body ?? {};
      const { metadata, page } = listPage(
        body,
        tasks.list(),
        taskValues,
        'task',
        ['status', 'operation_type', 'entity_uuid', 'uuid'],
        ['status', 'operation_type', 'creation_time', 'uuid'],
      );
      return { status: 200, body: { api_version: API_VERSION, metadata, entities: page.map(taskV3) } };
    },

    async tasks_poll(ctx) {
      const uuids = ctx.body.task_uuid_list.map((u) => u.toLowerCase());
      const unknown = uuids.find((u) => !store.get('task', u));
      if (unknown) throw notFound('task', unknown);
      const timeoutMs = ctx.body.poll_timeout_seconds * 1000;
      const closed = new Promise((resolve) => ctx.req.socket.once('close', resolve));
      const done = await Promise.race([tasks.waitAny(uuids, timeoutMs), closed.then(() => [])]);
      return { status: 200, body: { entities: done.map(taskV3), has_poll_timed_out: done.length === 0 } };
    },

    async tasks_abort(ctx) {
      const uuid = uuidOf(ctx);
      const result = tasks.abort(uuid);
      if (!result) throw notFound('task', uuid);
      if (result === 'done')
        throw new HttpError(
          409,
          'INVALID_REQUEST',
          `task ${uuid} has ended already (${tasks.get(uuid).status}); it cannot be aborted.`,
        );
      return { status: 200 };
    },

    async clusters_list(ctx) {
      const body = ctx.body ?? {};
      const values = (c) => ({ name: c.name, uuid: c.uuid });
      const { metadata, page } = listPage(
        body,
        store.list('cluster'),
        values,
        'cluster',
        ['name', 'uuid'],
        ['name', 'uuid'],
      );
      return { status: 200, body: { api_version: API_VERSION, metadata, entities: page.map(clusterV3) } };
    },

    async subnets_list(ctx) {
      const body = ctx.body ?? {};
      const values = (s) => ({ name: s.name, uuid: s.uuid, vlan_id: s.vlanId, cluster_name: s.clusterName });
      const { metadata, page } = listPage(
        body,
        store.list('subnet'),
        values,
        'subnet',
        ['name', 'uuid', 'vlan_id', 'cluster_name'],
        ['name', 'uuid', 'vlan_id'],
      );
      return { status: 200, body: { api_version: API_VERSION, metadata, entities: page.map(subnetV3) } };
    },

    async services_oss_enable() {
      const current = store.get('service', 'oss');
      if (current?.state === 'ENABLED') {
        return { status: 202, body: { task_uuid: current.taskUuid } };
      }
      const task = tasks.start({
        operation: 'enable_service',
        entity: { kind: 'service', uuid: '00000000-0000-4000-8000-00000000055a', name: 'oss' },
      });
      store.put('service', 'oss', { state: 'ENABLING', taskUuid: task.uuid });
      return { status: 202, body: { task_uuid: task.uuid } };
    },

    async services_get_status(ctx) {
      const name = ctx.params.service_name;
      if (name !== 'oss') throw new HttpError(404, 'ENTITY_NOT_FOUND', `service : ${name} does not exist.`);
      const service = store.get('service', 'oss');
      const body = { service_enablement_status: service?.state ?? 'DISABLED' };
      if (service?.taskUuid) body.task_uuid = service.taskUuid;
      return { status: 200, body };
    },
  };
}

/** Jobs of the image tasks (see tasks.js): what each does and how its end shows on the image. */
export function imageJobs({ store, files, sourceLimitBytes, sourceTimeoutMs }) {
  const setImage = (uuid, change) =>
    store.update('image', uuid, (i) => {
      change(i);
      i.updatedUs = Date.now() * 1000;
    });
  const containerOf = () => store.list('container')[0];
  return {
    create_image: {
      async run(task, signal) {
        const image = store.get('image', task.entity.uuid);
        if (!image?.sourceUri) return;
        const size = await files.fetchSource(image.uuid, image.sourceUri, {
          limit: sourceLimitBytes,
          timeoutMs: sourceTimeoutMs,
          insecure: image.insecureSource,
          signal,
        });
        setImage(image.uuid, (i) => {
          i.fetchedBytes = size;
        });
      },
      succeed(task) {
        setImage(task.entity.uuid, (i) => {
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
        setImage(task.entity.uuid, (i) => {
          i.state = 'ERROR';
          i.error = error.message;
        });
      },
    },
    update_image: {
      succeed(task) {
        setImage(task.entity.uuid, (i) => {
          i.state = i.previousState === 'PENDING' ? 'COMPLETE' : (i.previousState ?? 'COMPLETE');
          delete i.previousState;
        });
      },
      fail(task) {
        setImage(task.entity.uuid, (i) => {
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
        setImage(task.entity.uuid, (i) => {
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
        setImage(task.entity.uuid, (i) => {
          i.sizeBytes = files.size(i.uuid) ?? 0;
          i.containerUuid = task.params.containerUuid;
          i.clusterUuid ??= store.get('container', task.params.containerUuid)?.clusterUuid;
          i.state = 'COMPLETE';
          delete i.uploading;
        });
      },
      fail(task) {
        files.remove(task.entity.uuid);
        setImage(task.entity.uuid, (i) => {
          delete i.uploading;
        });
      },
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
  };
}

function clusterV3(c) {
  const created = c.created;
  return {
    metadata: {
      kind: 'cluster',
      uuid: c.uuid,
      name: c.name,
      spec_version: 0,
      creation_time: created,
      last_update_time: created,
      categories: {},
    },
    spec: { name: c.name, resources: { network: { external_ip: c.ip } } },
    status: {
      state: 'COMPLETE',
      name: c.name,
      resources: {
        config: {
          service_list: c.central ? ['PRISM_CENTRAL'] : ['AOS'],
          is_available: true,
          redundancy_factor: 2,
          build: { version: '7.0', is_long_term_support: false },
        },
        network: { external_ip: c.ip },
        nodes: {
          hypervisor_server_list: c.nodes.map((ip) => ({
            ip,
            type: c.central ? 'PRISM_CENTRAL' : 'AHV',
            version: '10.0',
          })),
        },
      },
    },
  };
}

function subnetV3(s) {
  const resources = {
    subnet_type: 'VLAN',
    vlan_id: s.vlanId,
    ip_config: {
      subnet_ip: `${s.prefix}.0`,
      prefix_length: 24,
      default_gateway_ip: `${s.prefix}.1`,
      pool_list: [{ range: `${s.prefix}.100 ${s.prefix}.199` }],
    },
  };
  const cluster = { kind: 'cluster', uuid: s.clusterUuid, name: s.clusterName };
  return {
    metadata: {
      kind: 'subnet',
      uuid: s.uuid,
      name: s.name,
      spec_version: 0,
      creation_time: s.created,
      last_update_time: s.created,
      categories: {},
    },
    spec: { name: s.name, cluster_reference: cluster, resources },
    status: { state: 'COMPLETE', name: s.name, cluster_reference: cluster, resources },
  };
}
