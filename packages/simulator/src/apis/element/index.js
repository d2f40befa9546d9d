// Element-level v0.8 and v2.0 (`/api/svc` and the legacy `/PrismGateway/services/rest`): the
// two-phase image upload over the domain's image store that v3 shares, storage containers and
// tasks. Handlers only: the domain does every write.

import { Invalid, NotFound, Refused } from '../../domain/errors.js';
import { DONE } from '../../domain/tasks.js';
import { HttpError } from '../../errors.js';
import { parseFilter, sortBy } from '../lists.js';
import { containerV2_0, entityTypeOf, imageV0_8, imageV2_0, operationType, taskV0_8, taskV2_0 } from './views.js';

/** The status of a request the schema refuses. */
export const validationStatus = 400;

/**
 * The domain's errors in the element API's words: a 404 names the entity its way, and a refused
 * transition or a conflict is a 400 (production's element gateway has no 409).
 * @param {import('../../domain/errors.js').DomainError} error
 * @returns {HttpError}
 */
export function mapError(error) {
  if (error instanceof NotFound) {
    const kind = error.kind.charAt(0).toUpperCase() + error.kind.slice(1);
    return new HttpError(404, 'ENTITY_NOT_FOUND', `${kind} with UUID ${error.uuid} is not found.`);
  }
  if (error instanceof Invalid)
    return new HttpError(400, 'INVALID_ARGUMENT', error.message, /** @type {Record<string, string>} */ (error.details));
  return new HttpError(400, 'INVALID_ARGUMENT', error.message);
}

/** The error body of this API: `{ message }`. */
export const errorBody = (error) => ({ message: error.message });

const notFound = (what, uuid) => new HttpError(404, 'ENTITY_NOT_FOUND', `${what} with UUID ${uuid} is not found.`);

/** An image the element API shows: a DELETE_PENDING one is gone for it already. */
function getImage(ctx) {
  const image = ctx.domain.images.get(ctx.params.uuid.toLowerCase());
  if (!image || image.state === 'DELETING') throw notFound('Image', ctx.params.uuid);
  return image;
}
function getTask(ctx, uuid) {
  const task = ctx.domain.tasks.get(uuid.toLowerCase());
  if (!task) throw notFound('Task', uuid);
  return task;
}
const listed = (ctx) => ctx.domain.images.list().filter((i) => i.state !== 'DELETING');
const containerOf = (ctx, i) => ctx.domain.topology.container(i.containerUuid);
const peCluster = (ctx) => ctx.domain.topology.home();

/** The fields of a create body in v0.8 and v2.0: the image's, then its import spec's. */
const CREATE_FIELDS = {
  v0_8: {
    spec: 'imageImportSpec',
    imageType: 'imageType',
    url: 'url',
    containerUuid: 'containerUuid',
    containerName: 'containerName',
  },
  v2_0: {
    spec: 'image_import_spec',
    imageType: 'image_type',
    url: 'url',
    containerUuid: 'storage_container_uuid',
    containerName: 'storage_container_name',
    // a framework names the container `container_name` (docs/service.md, "Where production is lenient")
    containerNameAlias: 'container_name',
    containerId: 'storage_container_id',
  },
};

/**
 * Creates the image (and its task) from a v0.8 or v2.0 create body.
 * @param {import('../../wire/pipeline.js').Context} ctx
 * @param {{ spec: string, imageType: string, url: string, containerUuid: string, containerName: string, containerNameAlias?: string, containerId?: string }} f
 *   the body's field names
 * @returns {any} the create task
 * @throws {HttpError} 400 naming the import spec when its storage container does not exist
 */
function createImage(ctx, f) {
  const { topology } = ctx.domain;
  const b = ctx.body;
  const spec = b[f.spec] ?? {};
  const containerUuid = spec[f.containerUuid];
  const containerName = spec[f.containerName] ?? (f.containerNameAlias && spec[f.containerNameAlias]);
  let c;
  if (containerUuid) {
    c = topology.container(containerUuid.toLowerCase());
    if (!c) throw new HttpError(400, 'INVALID_ARGUMENT', `${f.spec}: no storage container has UUID ${containerUuid}`);
  } else if (containerName) {
    c = topology.containers().find((x) => x.name === containerName);
    if (!c) throw new HttpError(400, 'INVALID_ARGUMENT', `${f.spec}: no storage container is named "${containerName}"`);
  } else if (f.containerId && spec[f.containerId] !== undefined) {
    // v2.0 also names the container by its numeric id (the number after `::` of its `id`)
    const id = spec[f.containerId];
    c = topology.containers().find((x) => x.numericId === id);
    if (!c) throw new HttpError(400, 'INVALID_ARGUMENT', `${f.spec}: no storage container has the id ${id}`);
  }
  return ctx.domain.images.create({
    name: b.name,
    annotation: b.annotation,
    imageType: b[f.imageType],
    sourceUri: spec[f.url],
    containerUuid: c?.uuid,
  }).task;
}

const deleteImage = (ctx) => ctx.domain.images.remove(getImage(ctx).uuid).task;

/** A v2.0 page (`count`, `page`, `filter_criteria`, `sort_criteria`) of view objects. */
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
  // one-based indexes, and the filter and sort echoed empty when none was given, as a real
  // storage container list answers (docs/service.md, "Storage containers")
  const metadata = {
    grand_total_entities: items.length,
    total_entities: matched.length,
    count: slice.length,
    page,
    start_index: slice.length ? start + 1 : 0,
    end_index: slice.length ? start + slice.length : 0,
    filter_criteria: query.filter_criteria ?? '',
    sort_criteria: query.sort_criteria ?? '',
  };
  return { metadata, slice };
}

/**
 * The tasks of a task list, filtered by entity, entity type (as the element views name it, `Image`;
 * any case), operation and completion.
 * @param {import('../../wire/pipeline.js').Context} ctx
 * @param {{ entityUuids?: string[], entityTypes?: string[], operations?: string[], includeCompleted: boolean }} o
 *   an absent list does not filter
 */
function tasksOf(ctx, { entityUuids, entityTypes, operations, includeCompleted }) {
  const types = entityTypes?.map((type) => type.toLowerCase());
  return ctx.domain.tasks
    .list()
    .filter(
      (t) =>
        (!entityUuids || entityUuids.includes(t.entity.uuid)) &&
        (!types || types.includes(entityTypeOf(t).toLowerCase())) &&
        (!operations || operations.includes(operationType(t))) &&
        (includeCompleted || !DONE.has(t.status)),
    );
}

const longPoll = (ctx, uuids, seconds) =>
  ctx.idle(() => ctx.domain.tasks.waitAny(uuids, Math.min(seconds, 300) * 1000, ctx.gone()));

/**
 * The handlers of the element API (v0.8 and v2.0), keyed by operationId.
 * @type {Record<string, (ctx: import('../../wire/pipeline.js').Context) => Promise<any>>}
 */
export const handlers = {
  async images_list_v0_8(ctx) {
    const keep = parseFilter(/** @type {string | undefined} */ (ctx.query.filterCriteria), 'filterCriteria', [
      'name',
      'uuid',
      'imageState',
      'imageType',
    ]);
    const all = listed(ctx).map((i) => imageV0_8(i, containerOf(ctx, i)));
    const entities = all.filter(keep);
    return {
      status: 200,
      body: { metadata: { grandTotalEntities: all.length, totalEntities: entities.length }, entities },
    };
  },
  async images_create_v0_8(ctx) {
    return { status: 200, body: { taskUuid: createImage(ctx, CREATE_FIELDS.v0_8).uuid } };
  },
  async images_get_v0_8(ctx) {
    const image = getImage(ctx);
    return { status: 200, body: imageV0_8(image, containerOf(ctx, image)) };
  },
  async images_delete_v0_8(ctx) {
    return { status: 200, body: { taskUuid: deleteImage(ctx).uuid } };
  },
  async images_upload_v0_8(ctx) {
    const image = getImage(ctx);
    // the container by its UUID, or by its numeric id (the number after `::` of its v2.0 `id`)
    const given = String(ctx.headers['x-svc-destination-container']).toLowerCase();
    const container = /^\d+$/.test(given)
      ? ctx.domain.topology.containers().find((c) => String(c.numericId) === given)
      : ctx.domain.topology.container(given);
    if (!container)
      throw new HttpError(
        404,
        'ENTITY_NOT_FOUND',
        `X-Svc-Destination-Container: storage container ${/^\d+$/.test(given) ? 'with id' : 'with UUID'} ${given} is not found.`,
      );
    const containerUuid = container.uuid;
    let task;
    try {
      task = await ctx.domain.images.uploadStaged(image.uuid, ctx.bytes, containerUuid, { idleMs: ctx.uploadIdleMs });
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      // production's wording: the upload proceeds only while the image is INACTIVE
      throw new HttpError(
        400,
        'INVALID_ARGUMENT',
        `Image ${image.uuid} is not in state INACTIVE: ${error.message} The upload proceeds only while the image is INACTIVE.`,
      );
    }
    // both names: the vendor's cloud provider interface reads `task_uuid` from this answer, the
    // other v0.8 calls answer `taskUuid` (docs/service.md, "The v0.8 upload's answer")
    return { status: 200, body: { taskUuid: task.uuid, task_uuid: task.uuid } };
  },
  async tasks_get_v0_8(ctx) {
    return { status: 200, body: taskV0_8(getTask(ctx, ctx.params.uuid)) };
  },
  async tasks_poll_v0_8(ctx) {
    const task = ctx.domain.tasks.get(ctx.params.uuid.toLowerCase());
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
    let list = tasksOf(ctx, {
      entityUuids: split(q.entityUuids),
      entityTypes: split(q.entityTypes),
      operations: split(q.operationTypeList),
      includeCompleted: String(q.includeCompleted) === 'true',
    });
    if (q.epochCutOffTime !== undefined) list = list.filter((t) => t.createdUs >= Number(q.epochCutOffTime));
    const total = list.length;
    if (q.count !== undefined) list = list.slice(-Number(q.count));
    return {
      status: 200,
      body: { metadata: { grandTotalEntities: total, totalEntities: total }, entities: list.map(taskV0_8) },
    };
  },
  async images_list_v2_0(ctx) {
    const views = listed(ctx).map((i) => imageV2_0(i, containerOf(ctx, i)));
    const { metadata, slice } = pageV2_0(views, ctx.query, ['name', 'uuid', 'image_state', 'image_type']);
    // the image list answers only its counts (ListMetadataV2_0)
    const { grand_total_entities, total_entities } = metadata;
    return { status: 200, body: { metadata: { grand_total_entities, total_entities }, entities: slice } };
  },
  async images_create_v2_0(ctx) {
    if (ctx.body.vm_disk_clone_spec)
      throw new HttpError(
        400,
        'INVALID_ARGUMENT',
        'vm_disk_clone_spec: the simulator has no VM disks to clone; use image_import_spec',
      );
    return { status: 201, body: { task_uuid: createImage(ctx, CREATE_FIELDS.v2_0).uuid } };
  },
  async images_get_v2_0(ctx) {
    const image = getImage(ctx);
    return { status: 200, body: imageV2_0(image, containerOf(ctx, image)) };
  },
  async images_update_v2_0(ctx) {
    const image = getImage(ctx);
    const b = ctx.body ?? {};
    const fields = {};
    if (b.name !== undefined) fields.name = b.name;
    if (b.annotation !== undefined) fields.annotation = b.annotation;
    if (b.image_type !== undefined) fields.imageType = b.image_type;
    const { task } = ctx.domain.images.update(image.uuid, fields);
    return { status: 200, body: { task_uuid: task.uuid } };
  },
  async images_delete_v2_0(ctx) {
    return { status: 200, body: { task_uuid: deleteImage(ctx).uuid } };
  },
  async storage_containers_list_v2_0(ctx) {
    const images = ctx.domain.images.list();
    const views = ctx.domain.topology.containers().map((c) => containerV2_0(c, images));
    const { metadata, slice } = pageV2_0(views, ctx.query, ['name', 'storage_container_uuid']);
    return { status: 200, body: { metadata, entities: slice } };
  },
  async storage_containers_get_v2_0(ctx) {
    const c = ctx.domain.topology.container(ctx.params.uuid.toLowerCase());
    if (!c) throw notFound('Storage container', ctx.params.uuid);
    return { status: 200, body: containerV2_0(c, ctx.domain.images.list()) };
  },
  async tasks_get_v2_0(ctx) {
    return { status: 200, body: taskV2_0(getTask(ctx, ctx.params.uuid), peCluster(ctx)) };
  },
  async tasks_poll_v2_0(ctx) {
    const uuids = ctx.body.completed_tasks.map((u) => u.toLowerCase());
    for (const u of uuids) getTask(ctx, u);
    const done = await longPoll(ctx, uuids, ctx.body.timeout_interval ?? 30);
    return {
      status: 200,
      body: done.length
        ? { completed_tasks_info: done.map((t) => taskV2_0(t, peCluster(ctx))) }
        : { completed_tasks_info: [], timed_out: true },
    };
  },
  async tasks_list_v2_0(ctx) {
    const b = ctx.body ?? {};
    let list = tasksOf(ctx, {
      entityUuids: b.entity_list?.map((e) => e.entity_id ?? e.uuid),
      operations: b.operation_type_list,
      // the spec's default: `{}` lists the tasks in progress
      includeCompleted: b.include_completed === true,
    });
    const total = list.length;
    if (b.count !== undefined) list = list.slice(-b.count);
    return {
      status: 200,
      body: {
        metadata: { grand_total_entities: total, total_entities: total, count: list.length },
        entities: list.map((t) => taskV2_0(t, peCluster(ctx))),
      },
    };
  },
};
