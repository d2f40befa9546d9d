// Object stores (`/oss/api/svc/v3`): create -> PENDING with percent_complete rising -> COMPLETE,
// get, delete (DELETING_INPUT, then 404), certificate regeneration (REPLACING_CERT), and the groups
// listings of stores and of a store's buckets. Handlers and views only: the domain does every write.

import { iso } from '../../domain/time.js';
import { HttpError } from '../../errors.js';
import { parseFilter, sortBy } from '../lists.js';
import { v3ErrorBody, v3MapError, v3Unauthorized } from '../v3.js';

const API_VERSION = '3.0';

/** The status of a request the schema refuses. */
export const validationStatus = 422;
/** The error body of this API (v3, `api_version` 3.0). */
export const errorBody = v3ErrorBody(API_VERSION);
/** The answer to a missing or wrong credential: the intent gateway's JSON 401. */
export const unauthorized = v3Unauthorized(API_VERSION);

/** The v3 fields of objects_create that the domain's names stand for. */
const FIELDS = {
  cluster: 'spec.resources.cluster_reference.uuid',
  infraSubnet: 'spec.resources.buckets_infra_network_reference.uuid',
  clientSubnet: 'spec.resources.client_access_network_reference.uuid',
};
/** The domain's errors in this API's words (the v3 statuses and reasons). */
export const mapError = v3MapError(FIELDS);

/**
 * The domain fields of an objects_create `spec` (schema Objectstore).
 * @param {any} spec
 * @returns {import('../../domain/objectstores.js').ObjectStoreFields}
 */
export function fieldsOf(spec) {
  const r = spec.resources;
  const agg = r.aggregate_resources;
  return {
    name: spec.name,
    ...(spec.description !== undefined ? { description: spec.description } : {}),
    domain: r.domain,
    ...(r.num_worker_nodes !== undefined ? { workerNodes: r.num_worker_nodes } : {}),
    clusterUuid: r.cluster_reference.uuid.toLowerCase(),
    infraSubnetUuid: r.buckets_infra_network_reference.uuid.toLowerCase(),
    infraDns: r.buckets_infra_network_dns,
    infraVip: r.buckets_infra_network_vip,
    clientSubnetUuid: r.client_access_network_reference.uuid.toLowerCase(),
    ...(r.client_access_network_ip_list ? { clientIps: r.client_access_network_ip_list } : {}),
    ...(r.client_access_network_ipv4_range
      ? {
          clientIpRange: {
            start: r.client_access_network_ipv4_range.ipv4_start,
            end: r.client_access_network_ipv4_range.ipv4_end,
          },
        }
      : {}),
    ...(agg
      ? {
          aggregate: {
            vcpus: agg.total_vcpu_count,
            memoryMib: agg.total_memory_size_mib,
            capacityGib: agg.total_capacity_gib,
          },
        }
      : {}),
  };
}

/**
 * The v3 `spec` of a stored object store (schema Objectstore), its references named.
 * @param {any} ctx
 * @param {import('../../domain/objectstores.js').ObjectStore} os
 */
function specOf(ctx, os) {
  const { topology } = ctx.domain;
  const reference = (kind, uuid) => {
    const found = kind === 'cluster' ? topology.cluster(uuid) : topology.subnet(uuid);
    return { kind, uuid, ...(found ? { name: found.name } : {}) };
  };
  /** @type {Record<string, any>} */
  const resources = {
    domain: os.domain,
    cluster_reference: reference('cluster', os.clusterUuid),
    buckets_infra_network_reference: reference('subnet', os.infraSubnetUuid),
    buckets_infra_network_dns: os.infraDns,
    buckets_infra_network_vip: os.infraVip,
    client_access_network_reference: reference('subnet', os.clientSubnetUuid),
  };
  if (os.workerNodes !== undefined) resources.num_worker_nodes = os.workerNodes;
  if (os.clientIps) resources.client_access_network_ip_list = os.clientIps;
  if (os.clientIpRange)
    resources.client_access_network_ipv4_range = { ipv4_start: os.clientIpRange.start, ipv4_end: os.clientIpRange.end };
  if (os.aggregate)
    resources.aggregate_resources = {
      ...(os.aggregate.vcpus !== undefined ? { total_vcpu_count: os.aggregate.vcpus } : {}),
      ...(os.aggregate.memoryMib !== undefined ? { total_memory_size_mib: os.aggregate.memoryMib } : {}),
      ...(os.aggregate.capacityGib !== undefined ? { total_capacity_gib: os.aggregate.capacityGib } : {}),
    };
  return { name: os.name, ...(os.description !== undefined ? { description: os.description } : {}), resources };
}

/** A store's progress: its running task's, 100 when COMPLETE. */
function percent(ctx, os) {
  if (os.state === 'COMPLETE') return 100;
  return ctx.domain.objectstores.task(os)?.percentage ?? 0;
}

/** The v3 view of an object store. */
function view(ctx, os) {
  return {
    api_version: API_VERSION,
    metadata: {
      kind: 'objectstore',
      uuid: os.uuid,
      creation_time: iso(os.createdUs),
      last_update_time: iso(os.updatedUs),
      categories: {},
    },
    spec: specOf(ctx, os),
    status: { state: os.state, percent_complete: percent(ctx, os) },
  };
}

const uuidOf = (ctx) => ctx.params.uuid.toLowerCase();

/** Every attribute the groups listing answers for an object store, as strings. */
function attributes(ctx, os) {
  const cluster = ctx.domain.topology.cluster(os.clusterUuid);
  const infra = ctx.domain.topology.subnet(os.infraSubnetUuid);
  const client = ctx.domain.topology.subnet(os.clientSubnetUuid);
  const agg = os.aggregate ?? {};
  const workers = os.workerNodes ?? 1;
  const ips = os.clientIps ?? (os.clientIpRange ? [os.clientIpRange.start, os.clientIpRange.end] : []);
  return {
    uuid: [os.uuid],
    name: [os.name],
    domain: [os.domain],
    state: [os.state],
    percentage_complete: [String(percent(ctx, os))],
    error_message_list: os.error ? [os.error] : [],
    cluster_name: [cluster?.name ?? ''],
    num_msp_workers: [String(workers)],
    num_vcpu_per_msp_worker: [String(Math.max(10, agg.vcpus ?? 0) / workers)],
    total_capacity_gib: [String(agg.capacityGib ?? 0)],
    total_vcpu_count: [String(agg.vcpus ?? 0)],
    total_memory_size_mib: [String(agg.memoryMib ?? 0)],
    usage_bytes: [String((os.buckets ?? []).reduce((n, b) => n + b.usageBytes, 0))],
    num_buckets: [String((os.buckets ?? []).length)],
    num_objects: [String((os.buckets ?? []).reduce((n, b) => n + b.objects, 0))],
    num_alerts_critical: ['0'],
    num_alerts_warning: ['0'],
    num_alerts_info: ['0'],
    num_alerts_internal: ['0'],
    client_access_network_ip_list: ips,
    client_access_network_ip_used_list: os.state === 'COMPLETE' ? ips : [],
    client_access_network_name: [client?.name ?? ''],
    buckets_infra_network_name: [infra?.name ?? ''],
    buckets_infra_network_vip: [os.infraVip],
    buckets_infra_network_dns: [os.infraDns],
    ipv4_address: os.state === 'COMPLETE' ? ips.slice(0, 1) : [],
    last_completed_step: [os.state === 'COMPLETE' ? 'DEPLOYED' : 'PRECHECKS'],
  };
}

/** The groups answer for entities with string-valued attributes. */
function groups(body, entityType, entities) {
  const known = Object.keys(entities[0]?.values ?? { name: 1 });
  // production answers an attribute it does not know without values, not with an error; an empty
  // name is no attribute at all
  const asked = (body.group_member_attributes ?? [{ attribute: 'name' }]).map((a) => a.attribute);
  const empty = asked.indexOf('');
  if (empty >= 0)
    throw new HttpError(
      400,
      'INVALID_ARGUMENT',
      `group_member_attributes[${empty}].attribute is empty: name an attribute of ${entityType} (${known.join(', ')})`,
    );
  const keep = parseFilter(body.filter_criteria, 'filter_criteria', ['name', 'state', 'domain']);
  let matched = entities.filter((e) => keep(Object.fromEntries(Object.entries(e.values).map(([k, v]) => [k, v[0]]))));
  if (body.entity_ids) matched = matched.filter((e) => body.entity_ids.includes(e.id));
  const first = (e) => Object.fromEntries(Object.entries(e.values).map(([k, v]) => [k, v[0]]));
  matched = sortBy(
    matched,
    first,
    body.group_member_sort_attribute,
    body.group_member_sort_order,
    'group_member_sort_attribute',
    known,
  );
  const offset = body.group_member_offset ?? 0;
  const count = body.group_member_count ?? 20;
  const now = Date.now() * 1000;
  const entityResults = matched.slice(offset, offset + count).map((e) => ({
    entity_id: e.id,
    data: asked.map((name) => ({
      name,
      values: e.values[name]?.length ? [{ values: e.values[name], time: now }] : [],
    })),
  }));
  return {
    entity_type: entityType,
    filtered_entity_count: matched.length,
    total_entity_count: entities.length,
    filtered_group_count: 1,
    total_group_count: 1,
    group_results: [
      { entity_results: entityResults, filtered_entity_count: matched.length, total_entity_count: entities.length },
    ],
  };
}

/**
 * The handlers of the object store API, keyed by operationId.
 * @type {Record<string, (ctx: import('../../wire/pipeline.js').Context) => Promise<any>>}
 */
export const handlers = {
  async objectstores_create(ctx) {
    return { status: 202, body: view(ctx, ctx.domain.objectstores.create(fieldsOf(ctx.body.spec))) };
  },
  async objectstores_list(ctx) {
    const specs = ctx.domain.objectstores.list().map((os) => {
      const { metadata, spec, status } = view(ctx, os);
      return { metadata, spec, status: { ...status, name: os.name } };
    });
    return {
      status: 200,
      body: { api_version: API_VERSION, metadata: { kind: 'objectstore', total_matches: specs.length }, specs },
    };
  },
  async objectstores_get(ctx) {
    return { status: 200, body: view(ctx, ctx.domain.objectstores.require(uuidOf(ctx))) };
  },
  async objectstores_delete(ctx) {
    ctx.domain.objectstores.remove(uuidOf(ctx));
    return { status: 202 };
  },
  async objectstores_regenerate_self_signed_cert(ctx) {
    ctx.domain.objectstores.regenerateCert(uuidOf(ctx));
    return { status: 202 };
  },
  async groups_list(ctx) {
    const entities = ctx.domain.objectstores.list().map((os) => ({ id: os.uuid, values: attributes(ctx, os) }));
    return { status: 200, body: groups(ctx.body, ctx.body.entity_type, entities) };
  },
  async objectstores_groups_list(ctx) {
    const os = ctx.domain.objectstores.require(uuidOf(ctx));
    const entities = (os.buckets ?? []).map((b) => ({
      id: b.name,
      values: {
        uuid: [b.uuid ?? b.name],
        name: [b.name],
        object_count: [String(b.objects)],
        storage_usage_bytes: [String(b.usageBytes)],
        versioning: ['false'],
        suspend_versioning: ['false'],
        worm: ['false'],
        bucket_notification_state: ['false'],
        website: ['false'],
        cors: ['false'],
        retention_start: [],
        retention_duration_days: ['0'],
      },
    }));
    return { status: 200, body: groups(ctx.body, ctx.body.entity_type ?? 'bucket', entities) };
  },
};
