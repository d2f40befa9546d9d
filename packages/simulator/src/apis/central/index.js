// Central v3 (`/api/svc/v3`): images, tasks, clusters, subnets and services, over the domain's one
// image store that the element-level API shares. Handlers only: each translates the wire to the
// domain and the domain's answer to the v3 view (views.js).

import { IMAGE_SORT } from '../../domain/images.js';
import { TASK_SORT } from '../../domain/tasks.js';
import { IMAGE, shown } from '../../domain/transitions.js';
import { HttpError, notFound, withoutCredentials } from '../../errors.js';
import { BATCH_ANSWER_LIMIT } from '../../limits.js';
import { listQuery, pageOf } from '../lists.js';
import { v3ErrorBody, v3MapError, v3Unauthorized } from '../v3.js';
import {
  API_VERSION,
  CLUSTER_ATTRIBUTES,
  clusterV3,
  clusterValues,
  IMAGE_ATTRIBUTES,
  imageV3,
  SUBNET_ATTRIBUTES,
  subnetV3,
  subnetValues,
  taskV3,
} from './views.js';

/** The status of a request the schema refuses. */
export const validationStatus = 422;
/** The error body of this API (v3). */
export const errorBody = v3ErrorBody(API_VERSION);
/** The answer to a missing or wrong credential: the intent gateway's JSON 401. */
export const unauthorized = v3Unauthorized(API_VERSION);
/** The domain's errors in this API's words; its field names in the v3 bodies. */
export const mapError = v3MapError({
  cluster: 'cluster_reference.uuid',
  placement: 'spec.resources.initial_placement_ref_list',
  categories: 'metadata.categories',
  categoriesMapping: 'metadata.categories_mapping',
});

/**
 * The image list is the hot path of polling clients: its answer depends on the images alone (and
 * the request), so the pipeline answers the same page asked again, no image changed in between,
 * with the bytes it sent before (adapter `cachedAnswers`, wire/answer-cache.js).
 * @type {Record<string, (domain: import('../../domain/index.js').Domain) => number>}
 */
export const cachedAnswers = { images_list: (domain) => domain.images.generation() };

const uuidOf = (ctx) => ctx.params.uuid.toLowerCase();

/** The list answer's metadata (`kind`, `total_matches`, the paging and what was asked). */
function listMetadata(kind, body, { total, offset, page }) {
  const metadata = { kind, total_matches: total, offset, length: page.length };
  // production takes null (and an empty filter) as "not given"
  for (const k of ['filter', 'sort_attribute', 'sort_order'])
    if (body[k] !== undefined && body[k] !== null && body[k] !== '') metadata[k] = body[k];
  return metadata;
}

/** The categories of a v3 `metadata`, kept as sent. */
function categoriesOf(metadata) {
  const out = { categories: metadata.categories ?? {} };
  if (metadata.categories_mapping !== undefined) out.categoriesMapping = metadata.categories_mapping;
  if (metadata.use_categories_mapping !== undefined) out.useCategoriesMapping = metadata.use_categories_mapping;
  return out;
}

/** 202 with the image and its task's UUID (a string, as create and update answers carry it). */
function accepted(ctx, { image, task }) {
  const view = imageV3(image, ctx);
  view.status.execution_context = { task_uuid: task.uuid };
  return { status: 202, body: view };
}

/**
 * The handlers of the central API, keyed by operationId. Each takes the request context
 * (`ctx.domain`, `ctx.body`, `ctx.params`, ...; see wire/pipeline.js) and resolves `{ status, body | json | stream, headers }`.
 * @type {Record<string, (ctx: import('../../wire/pipeline.js').Context) => Promise<any>>}
 */
export const handlers = {
  async images_create(ctx) {
    const { spec, metadata } = ctx.body;
    const r = spec.resources ?? {};
    // production: a source_uri without a scheme fails inside the service, answered as 500 INTERNAL_ERROR
    if (r.source_uri !== undefined && !/^[a-z][a-z0-9+.-]*:\/\//i.test(r.source_uri))
      throw new HttpError(
        500,
        'INTERNAL_ERROR',
        `spec.resources.source_uri "${withoutCredentials(r.source_uri)}" has no scheme: give an http, https or nfs URL`,
      );
    ctx.domain.categories.check(categoriesOf(metadata));
    const placement = r.initial_placement_ref_list?.map((ref) => ref.uuid.toLowerCase());
    return accepted(
      ctx,
      ctx.domain.images.create({
        uuid: metadata.uuid?.toLowerCase(),
        name: spec.name,
        description: spec.description,
        imageType: r.image_type,
        architecture: r.architecture,
        sourceUri: r.source_uri,
        version: r.version,
        checksum: r.checksum,
        insecureSource: r.source_options?.allow_insecure_connection === true,
        ...(placement ? { placement } : {}),
        ...categoriesOf(metadata),
      }),
    );
  },

  async images_list(ctx) {
    const body = ctx.body ?? {};
    const query = listQuery(body, {
      filter: IMAGE_ATTRIBUTES,
      sort: IMAGE_SORT,
    });
    const { total, docs } = ctx.domain.images.page(query);
    const found = { total, offset: query.offset, page: docs };
    // assembled as text around each image's JSON, and encoded once: a cached answer is sent as it is
    const json = Buffer.from(
      `{"api_version":"${API_VERSION}","metadata":${JSON.stringify(listMetadata('image', body, found))},"entities":[${found.page.map((i) => JSON.stringify(imageV3(i, ctx))).join(',')}]}`,
    );
    return { status: 200, json };
  },

  async images_get(ctx) {
    return { status: 200, body: imageV3(ctx.domain.images.require(uuidOf(ctx)), ctx) };
  },

  async images_update(ctx) {
    const { spec, metadata } = ctx.body;
    if (metadata.spec_version === undefined)
      throw new HttpError(
        422,
        'INVALID_REQUEST',
        'metadata.spec_version is required to update an image: send the spec_version of the image you read',
        { 'metadata.spec_version': 'is required' },
      );
    const r = spec.resources ?? {};
    const fields = { name: spec.name, description: spec.description };
    if (r.image_type) fields.imageType = r.image_type;
    if (r.architecture) fields.architecture = r.architecture;
    if (r.version) fields.version = r.version;
    const categories = categoriesOf(metadata);
    ctx.domain.categories.check(categories);
    if (metadata.categories) fields.categories = categories.categories;
    if (metadata.categories_mapping) fields.categoriesMapping = categories.categoriesMapping;
    if (metadata.use_categories_mapping !== undefined) fields.useCategoriesMapping = categories.useCategoriesMapping;
    return accepted(ctx, ctx.domain.images.update(uuidOf(ctx), fields, { specVersion: metadata.spec_version }));
  },

  async images_delete(ctx) {
    const { image, task } = ctx.domain.images.remove(uuidOf(ctx));
    return {
      status: 202,
      body: {
        status: { state: shown(IMAGE, image.state), execution_context: { task_uuid: task.uuid } },
        spec: '',
        api_version: API_VERSION,
        metadata: { kind: 'image', uuid: image.uuid, categories: image.categories ?? {} },
      },
    };
  },

  async images_upload_file(ctx) {
    const type = ctx.headers['x-svc-checksum-type'];
    const expected = ctx.headers['x-svc-checksum-bytes'];
    if ((type === undefined) !== (expected === undefined))
      throw new HttpError(
        400,
        'INVALID_ARGUMENT',
        'X-Svc-Checksum-Type and X-Svc-Checksum-Bytes go together: send both or neither',
      );
    await ctx.domain.images.upload(uuidOf(ctx), ctx.bytes, {
      algorithm: type === 'SHA_1' ? 'sha1' : type === 'SHA_256' ? 'sha256' : undefined,
      expectedDigest: expected === undefined ? undefined : String(expected),
      idleMs: ctx.uploadIdleMs,
    });
    return { status: 200 };
  },

  async images_download_file(ctx) {
    const uuid = uuidOf(ctx);
    const bytes = await ctx.domain.images.bytes(uuid);
    if (!bytes) throw new HttpError(404, 'ENTITY_NOT_FOUND', `image : ${uuid} has no data yet.`);
    return {
      status: 200,
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes.size) },
      stream: bytes.stream,
    };
  },

  async tasks_get(ctx) {
    const task = ctx.domain.tasks.get(uuidOf(ctx));
    if (!task) throw notFound('task', uuidOf(ctx));
    return { status: 200, body: taskV3(task, ctx.domain.topology.home()) };
  },

  async tasks_list(ctx) {
    const body = ctx.body ?? {};
    const query = listQuery(body, {
      filter: ['status', 'operation_type', 'entity_uuid', 'uuid'],
      sort: TASK_SORT,
    });
    const { total, docs } = ctx.domain.tasks.page(query);
    const found = { total, offset: query.offset, page: docs };
    return {
      status: 200,
      body: {
        api_version: API_VERSION,
        metadata: listMetadata('task', body, found),
        entities: found.page.map((t) => taskV3(t, ctx.domain.topology.home())),
      },
    };
  },

  async tasks_poll(ctx) {
    const { tasks } = ctx.domain;
    const uuids = ctx.body.task_uuid_list.map((u) => u.toLowerCase());
    const unknown = uuids.find((u) => !tasks.get(u));
    if (unknown) throw notFound('task', unknown);
    const done = await ctx.idle(() => tasks.waitAny(uuids, ctx.body.poll_timeout_seconds * 1000, ctx.gone()));
    const home = ctx.domain.topology.home();
    return { status: 200, body: { entities: done.map((t) => taskV3(t, home)), has_poll_timed_out: done.length === 0 } };
  },

  async tasks_abort(ctx) {
    const uuid = uuidOf(ctx);
    const result = ctx.domain.tasks.abort(uuid);
    if (!result) throw notFound('task', uuid);
    if (result === 'done')
      throw new HttpError(
        409,
        'INVALID_REQUEST',
        `task ${uuid} has ended already (${ctx.domain.tasks.get(uuid).status}); it cannot be aborted.`,
      );
    return { status: 200 };
  },

  async clusters_list(ctx) {
    const body = ctx.body ?? {};
    const found = pageOf(ctx.domain.topology.clusters(), clusterValues, body, {
      filter: CLUSTER_ATTRIBUTES,
      sort: ['name', 'uuid'],
    });
    return {
      status: 200,
      body: {
        api_version: API_VERSION,
        metadata: listMetadata('cluster', body, found),
        entities: found.page.map(clusterV3),
      },
    };
  },

  async clusters_get(ctx) {
    const cluster = ctx.domain.topology.cluster(uuidOf(ctx));
    if (!cluster) throw notFound('cluster', uuidOf(ctx));
    return { status: 200, body: { api_version: API_VERSION, ...clusterV3(cluster) } };
  },

  async subnets_get(ctx) {
    const subnet = ctx.domain.topology.subnet(uuidOf(ctx));
    if (!subnet) throw notFound('subnet', uuidOf(ctx));
    return { status: 200, body: { api_version: API_VERSION, ...subnetV3(subnet, ctx) } };
  },

  async images_migrate(ctx) {
    const task = ctx.domain.images.migrate(ctx.body.cluster_reference.uuid.toLowerCase());
    return { status: 202, body: { task_uuid: task.uuid } };
  },

  async batch_create(ctx) {
    // at most 60 sub-requests: the description's maxItems, checked with the body
    const { api_request_list: requests, action_on_failure: onFailure = 'CONTINUE' } = ctx.body;
    // room for the largest answer first, so that many batches at once wait rather than pile up
    const lease = await ctx.hold?.(BATCH_ANSWER_LIMIT);
    // the answer in pieces, each sub-request's as its pipeline gave it (a cached list is not copied)
    /** @type {Buffer[]} */
    const pieces = [Buffer.from(`{"api_version":"${API_VERSION}","api_response_list":[`)];
    let size = pieces[0].length + 2;
    // NON_SEQUENTIAL lets the service choose the order: the simulator keeps the given one
    // a sub-request that waits (a long poll) holds only what the answer has built so far
    const idle = (wait) => (lease ? lease.idle(wait, size, ctx.gone()) : wait());
    for (const [i, r] of requests.entries()) {
      // nobody to answer: what was not run was never acknowledged
      if (ctx.gone().aborted) break;
      let { status, json } = await ctx.dispatch(
        { method: r.operation, path: r.path_and_params, body: r.body },
        { idle },
      );
      const head = (answered) =>
        Buffer.from(
          `${i ? ',' : ''}{"status":"${answered}","path_and_params":${JSON.stringify(r.path_and_params)}${json.length ? ',"api_response":' : ''}`,
        );
      let entry = [head(status), ...json, Buffer.from('}')];
      let length = entry.reduce((n, piece) => n + piece.length, 0);
      if (size + length > BATCH_ANSWER_LIMIT) {
        // its effect stands (a list's answer is what grows): only its answer is left out
        const error = new HttpError(
          413,
          'INVALID_REQUEST',
          `The answer of this sub-request (${length} bytes) would take the batch's answer past its limit of ${BATCH_ANSWER_LIMIT} bytes: send it alone or in a smaller batch, or ask for a smaller page`,
        );
        status = error.status;
        json = [Buffer.from(JSON.stringify(errorBody(error, 'batch_create')))];
        entry = [head(status), ...json, Buffer.from('}')];
        length = entry.reduce((n, piece) => n + piece.length, 0);
      }
      pieces.push(...entry);
      size += length;
      if (onFailure === 'ABORT' && (status < 200 || status > 299)) break;
    }
    pieces.push(Buffer.from(']}'));
    lease?.keep(size);
    return { status: 200, json: pieces };
  },

  async subnets_list(ctx) {
    const body = ctx.body ?? {};
    const found = pageOf(ctx.domain.topology.subnets(), subnetValues, body, {
      filter: SUBNET_ATTRIBUTES,
      sort: ['name', 'uuid', 'vlan_id'],
    });
    return {
      status: 200,
      body: {
        api_version: API_VERSION,
        metadata: listMetadata('subnet', body, found),
        entities: found.page.map((s) => subnetV3(s, ctx)),
      },
    };
  },

  async services_oss_enable(ctx) {
    return { status: 202, body: { task_uuid: ctx.domain.objectstores.enableService() } };
  },

  async services_get_status(ctx) {
    const name = ctx.params.service_name;
    if (name !== 'oss') throw new HttpError(404, 'ENTITY_NOT_FOUND', `service : ${name} does not exist.`);
    const service = ctx.domain.objectstores.service();
    const body = { service_enablement_status: service.state };
    if (service.taskUuid) body.task_uuid = service.taskUuid;
    return { status: 200, body };
  },
};
