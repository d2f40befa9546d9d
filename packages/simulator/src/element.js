// Element-level v0.8 and v2.0 (`/api/svc` and the legacy `/PrismGateway/services/rest`): the
// two-phase image upload over the image store that v3 shares, storage containers and tasks.
import { randomUUID } from 'node:crypto';
import { HttpError } from './http.js';
import { parseFilter, sortBy } from './lists.js';

const ELEMENT_OPERATION = {
  create_image: 'ImageCreate',
  update_image: 'ImageUpdate',
  upload_image: 'ImageUpdate',
  delete_image: 'ImageDelete',
  create_objectstore: 'ObjectStoreCreate',
  delete_objectstore: 'ObjectStoreDelete',
  regenerate_cert: 'ObjectStoreUpdate',
  enable_service: 'ServiceEnable',
};
const PROGRESS = {
  QUEUED: 'Queued',
  RUNNING: 'Running',
  SUCCEEDED: 'Succeeded',
  FAILED: 'Failed',
  ABORTED: 'Aborted',
  SUSPENDED: 'Running',
};
const ENTITY_TYPE = { image: 'Image', objectstore: 'ObjectStore', service: 'Service' };

/** 404 of the element-level API. */
const notFound = (what, uuid) => new HttpError(404, 'ENTITY_NOT_FOUND', `${what} with UUID ${uuid} is not found.`);

/** The v0.8 view of a task (TaskV0_8). */
export function taskV0_8(t) {
  const out = {
    uuid: t.uuid,
    metaRequest: { methodName: ELEMENT_OPERATION[t.operation] ?? t.operation },
    metaResponse:
      t.status === 'FAILED' || t.status === 'ABORTED' ? { error: t.errorCode, errorDetail: t.errorDetail } : {},
    createTime: t.createdUs,
    lastUpdatedTime: t.updatedUs,
    entityList: [
      {
        uuid: t.entity.uuid,
        entityType: ENTITY_TYPE[t.entity.kind] ?? t.entity.kind,
        ...(t.entity.name ? { entityName: t.entity.name } : {}),
      },
    ],
    operationType: ELEMENT_OPERATION[t.operation] ?? t.operation,
    message: t.message ?? '',
    percentageComplete: t.percentage,
    progressStatus: PROGRESS[t.status],
  };
  if (t.startedUs) out.startTime = t.startedUs;
  if (t.completedUs) out.completeTime = t.completedUs;
  return out;
}

/** The v2.0 view of a task (TaskV2_0). */
export function taskV2_0(t, clusterUuid) {
  const failed = t.status === 'FAILED' || t.status === 'ABORTED';
  const out = {
    uuid: t.uuid,
    meta_request: { method_name: ELEMENT_OPERATION[t.operation] ?? t.operation },
    meta_response: failed ? { error_code: 1, error: t.errorCode, error_detail: t.errorDetail } : { error_code: 0 },
    create_time_usecs: t.createdUs,
    last_updated_time_usecs: t.updatedUs,
    entity_list: [
      {
        entity_id: t.entity.uuid,
        entity_type: ENTITY_TYPE[t.entity.kind] ?? t.entity.kind,
        ...(t.entity.name ? { entity_name: t.entity.name } : {}),
      },
    ],
    operation_type: ELEMENT_OPERATION[t.operation] ?? t.operation,
    message: t.message ?? '',
    percentage_complete: t.percentage,
    progress_status: PROGRESS[t.status],
    subtask_uuid_list: [],
  };
  if (clusterUuid) out.cluster_uuid = clusterUuid;
  if (t.startedUs) out.start_time_usecs = t.startedUs;
  if (t.completedUs) out.complete_time_usecs = t.completedUs;
  return out;
}

/**
 * @param {object} o
 * @param {import('./store.js').Store} o.store
 * @param {ReturnType<import('./tasks.js').createTasks>} o.tasks
 * @param {ReturnType<import('./files.js').createFiles>} o.files
 */
export function elementHandlers({ store, tasks, files }) {
  const hasData = (i) => i.sizeBytes !== null && i.sizeBytes !== undefined;
  const imageState = (i) => (hasData(i) ? 'ACTIVE' : 'INACTIVE');
  const container = (uuid) => (uuid ? store.get('container', uuid) : undefined);
  const peCluster = () => store.list('container')[0]?.clusterUuid;

  function imageV0_8(i) {
    const c = container(i.containerUuid);
    const out = {
      uuid: i.uuid,
      name: i.name,
      deleted: false,
      logicalTimestamp: i.specVersion,
      imageState: imageState(i),
      createdTimeInUsecs: i.createdUs,
      updatedTimeInUsecs: i.updatedUs,
    };
    if (i.annotation ?? i.description) out.annotation = i.annotation ?? i.description;
    if (i.imageType) out.imageType = i.imageType;
    if (c) Object.assign(out, { containerUuid: c.uuid, containerId: c.numericId });
    if (hasData(i)) out.vmDiskId = i.uuid;
    return out;
  }

  function imageV2_0(i) {
    const c = container(i.containerUuid);
    const out = {
      uuid: i.uuid,
      name: i.name,
      deleted: false,
      logical_timestamp: i.specVersion,
      image_state: imageState(i),
      created_time_in_usecs: i.createdUs,
      updated_time_in_usecs: i.updatedUs,
    };
    if (i.annotation ?? i.description) out.annotation = i.annotation ?? i.description;
    if (i.imageType) out.image_type = i.imageType;
    if (c)
      Object.assign(out, {
        storage_container_uuid: c.uuid,
        storage_container_id: c.numericId,
        storage_container_name: c.name,
      });
    if (hasData(i)) Object.assign(out, { vm_disk_id: i.uuid, vm_disk_size: i.sizeBytes });
    return out;
  }

  function containerV2_0(c) {
    const used =
      c.baseUsage +
      store
        .list('image')
        .filter((i) => i.containerUuid === c.uuid && hasData(i))
        .reduce((n, i) => n + i.sizeBytes, 0);
    return {
      id: c.id,
      storage_container_uuid: c.uuid,
      name: c.name,
      cluster_uuid: c.clusterUuid,
      storage_pool_uuid: c.storagePoolUuid,
      marked_for_removal: false,
      max_capacity: c.capacity,
      total_explicit_reserved_capacity: 0,
      total_implicit_reserved_capacity: 0,
      advertised_capacity: null,
      replication_factor: 2,
      oplog_replication_factor: 2,
      nfs_whitelist: [],
      nfs_whitelist_inherited: true,
      erasure_code: 'off',
      erasure_code_delay_secs: null,
      on_disk_dedup: 'NONE',
      finger_print_on_write: 'off',
      compression_enabled: true,
      compression_delay_in_secs: 0,
      enable_software_encryption: false,
      is_nutanix_managed: null,
      vstore_name_list: [c.name],
      usage_stats: {
        'storage.usage_bytes': String(used),
        'storage.user_usage_bytes': String(used),
        'storage.capacity_bytes': String(c.capacity),
        'storage.free_bytes': String(c.capacity - used),
      },
    };
  }

  const getImage = (uuid) => {
    const image = store.get('image', uuid.toLowerCase());
    if (!image || image.state === 'DELETE_PENDING') throw notFound('Image', uuid);
    return image;
  };
  const getTask = (uuid) => {
    const task = tasks.get(uuid.toLowerCase());
    if (!task) throw notFound('Task', uuid);
    return task;
  };
  const listed = () => store.list('image').filter((i) => i.state !== 'DELETE_PENDING');

  /** Creates the image record (and its task) from a v0.8 or v2.0 create body. */
  function createImage({ name, annotation, imageType, url, containerUuid, containerName, field }) {
    let c;
    if (containerUuid) {
      c = container(containerUuid.toLowerCase());
      if (!c) throw new HttpError(400, 'INVALID_ARGUMENT', `${field}: no storage container has UUID ${containerUuid}`);
    } else if (containerName) {
      c = store.list('container').find((x) => x.name === containerName);
      if (!c)
        throw new HttpError(400, 'INVALID_ARGUMENT', `${field}: no storage container is named "${containerName}"`);
    }
    const uuid = randomUUID();
    const now = Date.now() * 1000;
    store.put('image', uuid, {
      uuid,
      name,
      annotation,
      imageType,
      sourceUri: url,
      state: 'PENDING',
      sizeBytes: null,
      containerUuid: c?.uuid,
      createdUs: now,
      updatedUs: now,
      specVersion: 0,
      categories: {},
    });
    const task = tasks.start({ operation: 'create_image', entity: { kind: 'image', uuid, name } });
    store.update('image', uuid, (i) => {
      i.taskUuid = task.uuid;
    });
    return task;
  }

  function deleteImage(uuid) {
    const image = getImage(uuid);
    if (image.uploading)
      throw new HttpError(
        400,
        'INVALID_ARGUMENT',
        `Image ${image.uuid} is receiving its data; delete it when the upload has ended.`,
      );
    store.update('image', image.uuid, (i) => {
      i.state = 'DELETE_PENDING';
    });
    const task = tasks.start({
      operation: 'delete_image',
      entity: { kind: 'image', uuid: image.uuid, name: image.name },
    });
    return task;
  }

  function pageV2_0(items, query, attributes) {
    const keep = parseFilter(query.filter_criteria, 'filter_criteria', attributes);
    let matched = items.filter(keep);
    if (query.sort_criteria) {
      const descending = query.sort_criteria.startsWith('-');
      matched = sortBy(
        matched,
        (x) => x,
        query.sort_criteria.replace(/^[+-]/, ''),
        descending ? 'DESCENDING' : 'ASCENDING',
        'sort_criteria',
        attributes,
      );
    }
    const count = query.count === undefined ? matched.length : Number(query.count);
    const page = query.page === undefined ? 1 : Number(query.page);
    const start = (page - 1) * count;
    const slice = matched.slice(start, start + count);
    const metadata = {
      grand_total_entities: items.length,
      total_entities: matched.length,
      count: slice.length,
      page,
      start_index: slice.length ? start : 0,
      end_index: slice.length ? start + slice.length - 1 : 0,
    };
    if (query.filter_criteria) metadata.filter_criteria = query.filter_criteria;
    if (query.sort_criteria) metadata.sort_criteria = query.sort_criteria;
    return { metadata, slice };
  }

  async function longPoll(ctx, uuids, seconds) {
    const closed = new Promise((resolve) => ctx.req.socket.once('close', resolve));
    return Promise.race([tasks.waitAny(uuids, Math.min(seconds, 300) * 1000), closed.then(() => [])]);
  }

  return {
    async images_list_v0_8(ctx) {
      const keep = parseFilter(ctx.query.filterCriteria, 'filterCriteria', ['name', 'uuid', 'imageState', 'imageType']);
      const all = listed().map(imageV0_8);
      const entities = all.filter(keep);
      return {
        status: 200,
        body: { metadata: { grandTotalEntities: all.length, totalEntities: entities.length }, entities },
      };
    },
    async images_create_v0_8(ctx) {
      const b = ctx.body;
      const spec = b.imageImportSpec;
      const task = createImage({
        name: b.name,
        annotation: b.annotation,
        imageType: b.imageType,
        url: spec?.url,
        containerUuid: spec?.containerUuid,
        containerName: spec?.containerName,
        field: 'imageImportSpec',
      });
      return { status: 200, body: { taskUuid: task.uuid } };
    },
    async images_get_v0_8(ctx) {
      return { status: 200, body: imageV0_8(getImage(ctx.params.uuid)) };
    },
    async images_delete_v0_8(ctx) {
      return { status: 200, body: { taskUuid: deleteImage(ctx.params.uuid).uuid } };
    },
    async images_upload_v0_8(ctx) {
      const image = getImage(ctx.params.uuid);
      const containerUuid = String(ctx.headers['x-svc-destination-container']).toLowerCase();
      if (!container(containerUuid))
        throw new HttpError(
          404,
          'ENTITY_NOT_FOUND',
          `X-Svc-Destination-Container: storage container with UUID ${containerUuid} is not found.`,
        );
      if (image.state === 'PENDING' && image.sourceUri)
        throw new HttpError(
          400,
          'INVALID_ARGUMENT',
          `Image ${image.uuid} is being created from ${image.sourceUri}; the upload is for images created without a URL.`,
        );
      // claim the image in one transaction: two uploads at once cannot both see it INACTIVE
      const claimed = store.update('image', image.uuid, (i) => {
        if (hasData(i) || i.uploading)
          throw new HttpError(
            400,
            'INVALID_ARGUMENT',
            `Image ${i.uuid} is not in state INACTIVE (it is ${i.uploading ? 'receiving an upload' : imageState(i)}); the upload proceeds only while the image is INACTIVE.`,
          );
        i.uploading = true;
      });
      let written;
      try {
        written = await files.write(claimed.uuid, ctx.req);
      } catch (error) {
        store.update('image', claimed.uuid, (i) => {
          delete i.uploading;
        });
        throw error;
      }
      written.commit();
      const task = tasks.start({
        operation: 'upload_image',
        entity: { kind: 'image', uuid: claimed.uuid, name: claimed.name },
        params: { containerUuid },
      });
      return { status: 200, body: { taskUuid: task.uuid } };
    },
    async tasks_get_v0_8(ctx) {
      return { status: 200, body: taskV0_8(getTask(ctx.params.uuid)) };
    },
    async tasks_poll_v0_8(ctx) {
      const task = tasks.get(ctx.params.uuid.toLowerCase());
      if (!task) return { status: 200, body: { timedOut: false, isUnrecognized: true } };
      const done = await longPoll(ctx, [task.uuid], Number(ctx.query.timeoutseconds ?? 30));
      return {
        status: 200,
        body: done.length
          ? { taskInfo: taskV0_8(done[0]), isUnrecognized: false }
          : { timedOut: true, isUnrecognized: false },
      };
    },
    async tasks_list_v0_8(ctx) {
      const q = ctx.query;
      const split = (v) =>
        v === undefined
          ? undefined
          : [v]
              .flat()
              .flatMap((x) => String(x).split(','))
              .filter(Boolean);
      const entityUuids = split(q.entityUuids);
      const operations = split(q.operationTypeList);
      const includeCompleted = String(q.includeCompleted) === 'true';
      let list = tasks
        .list()
        .filter(
          (t) =>
            (!entityUuids || entityUuids.includes(t.entity.uuid)) &&
            (!operations || operations.includes(ELEMENT_OPERATION[t.operation])) &&
            (includeCompleted || !['SUCCEEDED', 'FAILED', 'ABORTED'].includes(t.status)),
        );
      if (q.epochCutOffTime !== undefined) list = list.filter((t) => t.createdUs >= Number(q.epochCutOffTime));
      const total = list.length;
      if (q.count !== undefined) list = list.slice(-Number(q.count));
      return {
        status: 200,
        body: { metadata: { grandTotalEntities: total, totalEntities: total }, entities: list.map(taskV0_8) },
      };
    },
    async images_list_v2_0(ctx) {
      const { metadata, slice } = pageV2_0(listed().map(imageV2_0), ctx.query, [
        'name',
        'uuid',
        'image_state',
        'image_type',
      ]);
      return { status: 200, body: { metadata, entities: slice } };
    },
    async images_create_v2_0(ctx) {
      const b = ctx.body;
      if (b.vm_disk_clone_spec)
        throw new HttpError(
          400,
          'INVALID_ARGUMENT',
          'vm_disk_clone_spec: the simulator has no VM disks to clone; use image_import_spec',
        );
      const spec = b.image_import_spec;
      const task = createImage({
        name: b.name,
        annotation: b.annotation,
        imageType: b.image_type,
        url: spec?.url,
        containerUuid: spec?.storage_container_uuid,
        containerName: spec?.storage_container_name,
        field: 'image_import_spec',
      });
      return { status: 201, body: { task_uuid: task.uuid } };
    },
    async images_get_v2_0(ctx) {
      return { status: 200, body: imageV2_0(getImage(ctx.params.uuid)) };
    },
    async images_update_v2_0(ctx) {
      const image = getImage(ctx.params.uuid);
      const b = ctx.body ?? {};
      store.update('image', image.uuid, (i) => {
        if (b.name !== undefined) i.name = b.name;
        if (b.annotation !== undefined) i.annotation = b.annotation;
        if (b.image_type !== undefined) i.imageType = b.image_type;
        i.specVersion += 1;
        i.updatedUs = Date.now() * 1000;
      });
      const task = tasks.start({
        operation: 'update_image',
        entity: { kind: 'image', uuid: image.uuid, name: b.name ?? image.name },
      });
      store.update('image', image.uuid, (i) => {
        i.previousState = i.state;
      });
      return { status: 200, body: { task_uuid: task.uuid } };
    },
    async images_delete_v2_0(ctx) {
      return { status: 200, body: { task_uuid: deleteImage(ctx.params.uuid).uuid } };
    },
    async storage_containers_list_v2_0(ctx) {
      const { metadata, slice } = pageV2_0(store.list('container').map(containerV2_0), ctx.query, [
        'name',
        'storage_container_uuid',
      ]);
      return { status: 200, body: { metadata, entities: slice } };
    },
    async storage_containers_get_v2_0(ctx) {
      const c = container(ctx.params.uuid.toLowerCase());
      if (!c) throw notFound('Storage container', ctx.params.uuid);
      return { status: 200, body: containerV2_0(c) };
    },
    async tasks_get_v2_0(ctx) {
      return { status: 200, body: taskV2_0(getTask(ctx.params.uuid), peCluster()) };
    },
    async tasks_poll_v2_0(ctx) {
      const uuids = ctx.body.completed_tasks.map((u) => u.toLowerCase());
      for (const u of uuids) getTask(u);
      const done = await longPoll(ctx, uuids, ctx.body.timeout_interval ?? 30);
      return {
        status: 200,
        body: done.length
          ? { completed_tasks_info: done.map((t) => taskV2_0(t, peCluster())) }
          : { completed_tasks_info: [], timed_out: true },
      };
    },
    async tasks_list_v2_0(ctx) {
      const b = ctx.body ?? {};
      const entityUuids = b.entity_list?.map((e) => e.entity_id ?? e.uuid);
      const operations = b.operation_type_list;
      const includeCompleted = b.include_completed ?? true;
      let list = tasks
        .list()
        .filter(
          (t) =>
            (!entityUuids || entityUuids.includes(t.entity.uuid)) &&
            (!operations || operations.includes(ELEMENT_OPERATION[t.operation])) &&
            (includeCompleted || !['SUCCEEDED', 'FAILED', 'ABORTED'].includes(t.status)),
        );
      const total = list.length;
      if (b.count !== undefined) list = list.slice(-b.count);
      return {
        status: 200,
        body: {
          metadata: { grand_total_entities: total, total_entities: total, count: list.length },
          entities: list.map((t) => taskV2_0(t, peCluster())),
        },
      };
    },
  };
}
