// Object stores (`/oss/api/svc/v3`): create -> PENDING with percent_complete rising -> COMPLETE,
// get, delete (DELETING_INPUT, then 404), certificate regeneration (REPLACING_CERT), and the groups
// listings of stores and of a store's buckets. Handlers and views only: the domain does every write.

import { parseFilter, sortBy } from '../../domain/lists.js';
import { iso } from '../../domain/time.js';
import { HttpError } from '../../errors.js';
import { v3ErrorBody } from '../v3.js';

const API_VERSION = '3.0';

/** The status of a request the schema refuses. */
export const validationStatus = 422;
/** The error body of this API (v3, `api_version` 3.0). */
export const errorBody = v3ErrorBody(API_VERSION);

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
    spec: os.spec,
    status: { state: os.state, percent_complete: percent(ctx, os) },
  };
}

const uuidOf = (ctx) => ctx.params.uuid.toLowerCase();

/** Every attribute the groups listing answers for an object store, as strings. */
function attributes(ctx, os) {
  const r = os.spec.resources;
  const cluster = ctx.domain.topology.cluster(r.cluster_reference.uuid);
  const infra = ctx.domain.topology.subnet(r.buckets_infra_network_reference.uuid);
  const client = ctx.domain.topology.subnet(r.client_access_network_reference.uuid);
  const agg = r.aggregate_resources ?? {};
  const ips =
    r.client_access_network_ip_list ??
    (r.client_access_network_ipv4_range
      ? [r.client_access_network_ipv4_range.ipv4_start, r.client_access_network_ipv4_range.ipv4_end]
      : []);
  return {
    name: [os.spec.name],
    domain: [r.domain],
    state: [os.state],
    percentage_complete: [String(percent(ctx, os))],
    error_message_list: os.error ? [os.error] : [],
    cluster_name: [cluster?.name ?? ''],
    num_msp_workers: [String(r.num_worker_nodes ?? 1)],
    num_vcpu_per_msp_worker: [String(Math.max(10, agg.total_vcpu_count ?? 0) / (r.num_worker_nodes ?? 1))],
    total_capacity_gib: [String(agg.total_capacity_gib ?? 0)],
    total_vcpu_count: [String(agg.total_vcpu_count ?? 0)],
    total_memory_size_mib: [String(agg.total_memory_size_mib ?? 0)],
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
    buckets_infra_network_vip: [r.buckets_infra_network_vip],
    buckets_infra_network_dns: [r.buckets_infra_network_dns],
    ipv4_address: os.state === 'COMPLETE' ? ips.slice(0, 1) : [],
    last_completed_step: [os.state === 'COMPLETE' ? 'DEPLOYED' : 'PRECHECKS'],
  };
}

/** The groups answer for entities with string-valued attributes. */
function groups(body, entityType, entities) {
  const known = Object.keys(entities[0]?.values ?? { name: 1 });
  const asked = (body.group_member_attributes ?? [{ attribute: 'name' }]).map((a) => a.attribute);
  // findIndex: an unknown attribute may be "" (falsy)
  const at = entities.length ? asked.findIndex((a) => !known.includes(a)) : -1;
  const unknown = asked[at];
  if (at >= 0)
    throw new HttpError(
      400,
      'INVALID_ARGUMENT',
      `group_member_attributes: "${unknown}" is not an attribute of ${entityType} (attributes: ${known.join(', ')})`,
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
      values: e.values[name].length ? [{ values: e.values[name], time: now }] : [],
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
 * @type {Record<string, (ctx: import('../../http.js').Context) => Promise<any>>}
 */
export const handlers = {
  async objectstores_create(ctx) {
    return { status: 202, body: view(ctx, ctx.domain.objectstores.create(ctx.body.spec)) };
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
        name: [b.name],
        object_count: [String(b.objects)],
        storage_usage_bytes: [String(b.usageBytes)],
        versioning: ['false'],
        worm: ['false'],
      },
    }));
    return { status: 200, body: groups(ctx.body, ctx.body.entity_type ?? 'bucket', entities) };
  },
};
