// Object stores (`/oss/api/svc/v3`): create -> PENDING with percent_complete rising -> COMPLETE,
// get, delete (DELETING_INPUT, then 404), certificate regeneration (REPLACING_CERT), and the groups
// listings of stores and of a store's buckets.
import { randomUUID } from 'node:crypto';
import { HttpError } from './http.js';
import { parseFilter, sortBy } from './lists.js';

const API_VERSION = '3.0';
const iso = (us) => new Date(Math.floor(us / 1000)).toISOString().replace(/\.\d{3}Z$/, 'Z');
const notFound = (uuid) => new HttpError(404, 'ENTITY_NOT_FOUND', `objectstore : ${uuid} does not exist.`);
const busy = (store) =>
  new HttpError(
    409,
    'CONCURRENT_REQUESTS_NOT_ALLOWED',
    `objectstore ${store.uuid} is in state ${store.state}; retry when the operation has finished.`,
  );

/**
 * @param {object} o
 * @param {import('./store.js').Store} o.store
 * @param {ReturnType<import('./tasks.js').createTasks>} o.tasks
 */
export function objectsHandlers({ store, tasks }) {
  const percent = (os) => {
    if (os.state === 'COMPLETE') return 100;
    const task = os.taskUuid && tasks.get(os.taskUuid);
    return task ? task.percentage : 0;
  };

  function view(os) {
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
      status: { state: os.state, percent_complete: percent(os) },
    };
  }

  const get = (uuid) => {
    const os = store.get('objectstore', uuid.toLowerCase());
    if (!os) throw notFound(uuid);
    return os;
  };

  /** Every attribute the groups listing answers for an object store, as strings. */
  function attributes(os) {
    const r = os.spec.resources;
    const cluster = store.get('cluster', r.cluster_reference.uuid);
    const infra = store.get('subnet', r.buckets_infra_network_reference.uuid);
    const client = store.get('subnet', r.client_access_network_reference.uuid);
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
      percentage_complete: [String(percent(os))],
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
    const unknown = asked.find((a) => entities.length && !known.includes(a));
    if (unknown)
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

  /** Starts a task on a store, shows its in-progress state, answers 202 (no body). */
  function accepted(os, operation, state) {
    const task = tasks.start({ operation, entity: { kind: 'objectstore', uuid: os.uuid, name: os.spec.name } });
    store.update('objectstore', os.uuid, (o) => {
      o.state = state;
      o.taskUuid = task.uuid;
      o.updatedUs = Date.now() * 1000;
    });
    return { status: 202 };
  }

  function checkReference(field, kind, uuid) {
    if (!store.get(kind, uuid.toLowerCase())) {
      throw new HttpError(
        422,
        'INVALID_ARGUMENT',
        `Request could not be processed: ${field}: no ${kind} has UUID ${uuid} (list them with POST /api/svc/v3/${kind}s/list)`,
        { [field]: `no ${kind} has UUID ${uuid}` },
      );
    }
  }

  return {
    async objectstores_create(ctx) {
      const { spec } = ctx.body;
      const r = spec.resources;
      checkReference('spec.resources.cluster_reference.uuid', 'cluster', r.cluster_reference.uuid);
      checkReference(
        'spec.resources.buckets_infra_network_reference.uuid',
        'subnet',
        r.buckets_infra_network_reference.uuid,
      );
      checkReference(
        'spec.resources.client_access_network_reference.uuid',
        'subnet',
        r.client_access_network_reference.uuid,
      );
      if (store.list('objectstore').some((o) => o.spec.name === spec.name)) {
        throw new HttpError(409, 'ENTITY_ALREADY_EXISTS', `An object store named "${spec.name}" already exists.`);
      }
      const uuid = randomUUID();
      const now = Date.now() * 1000;
      const task = tasks.start({
        operation: 'create_objectstore',
        entity: { kind: 'objectstore', uuid, name: spec.name },
      });
      const os = { uuid, spec, state: 'PENDING', createdUs: now, updatedUs: now, taskUuid: task.uuid, buckets: [] };
      store.put('objectstore', uuid, os);
      return { status: 202, body: view(os) };
    },
    async objectstores_get(ctx) {
      return { status: 200, body: view(get(ctx.params.uuid)) };
    },
    async objectstores_delete(ctx) {
      const os = get(ctx.params.uuid);
      if (os.state !== 'COMPLETE' && !os.state.includes('ERROR')) throw busy(os);
      return accepted(os, 'delete_objectstore', 'DELETING_INPUT');
    },
    async objectstores_regenerate_self_signed_cert(ctx) {
      const os = get(ctx.params.uuid);
      if (os.state !== 'COMPLETE') throw busy(os);
      return accepted(os, 'regenerate_cert', 'REPLACING_CERT');
    },
    async groups_list(ctx) {
      const entities = store.list('objectstore').map((os) => ({ id: os.uuid, values: attributes(os) }));
      return { status: 200, body: groups(ctx.body, ctx.body.entity_type, entities) };
    },
    async objectstores_groups_list(ctx) {
      const os = get(ctx.params.uuid);
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
}

/** Jobs of the object store tasks: how each end shows on the store. */
export function objectsJobs({ store }) {
  const set = (uuid, change) =>
    store.update('objectstore', uuid, (o) => {
      change(o);
      o.updatedUs = Date.now() * 1000;
    });
  return {
    create_objectstore: {
      succeed: (task) =>
        set(task.entity.uuid, (o) => {
          o.state = 'COMPLETE';
          // a new store comes with one bucket, so the bucket listing has something to page
          o.buckets = [{ name: 'default-bucket', objects: 0, usageBytes: 0 }];
        }),
      fail: (task, error) =>
        set(task.entity.uuid, (o) => {
          o.state = 'DEPLOYMENT_ERROR';
          o.error = error.message;
        }),
    },
    delete_objectstore: {
      succeed: (task) => store.remove('objectstore', task.entity.uuid),
      fail: (task, error) =>
        set(task.entity.uuid, (o) => {
          o.state = 'DELETION_ERROR';
          o.error = error.message;
        }),
    },
    regenerate_cert: {
      succeed: (task) =>
        set(task.entity.uuid, (o) => {
          o.state = 'COMPLETE';
        }),
      fail: (task, error) =>
        set(task.entity.uuid, (o) => {
          o.state = 'CERT_ERROR';
          o.error = error.message;
        }),
    },
  };
}
