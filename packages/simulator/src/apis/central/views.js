// The v3 views of the domain's entities (schemas ImageIntentResponse, Task, cluster and subnet
// intents) and the attributes the v3 lists filter and sort on.
import { imageAttributes } from '../../domain/images.js';
import { OPERATIONS } from '../../domain/tasks.js';
import { iso } from '../../domain/time.js';
import { IMAGE, shown } from '../../domain/transitions.js';

export const API_VERSION = '3.1';
/** UUID the simulator gives its user in `owner_reference` (production: the user's own). */
const OWNER_UUID = '00000000-0000-0000-0000-000000000000';

const operationType = (t) => OPERATIONS[t.operation]?.v3 ?? t.operation;

/** The v3 view of a task (schema Task). */
export function taskV3(t) {
  const out = {
    uuid: t.uuid,
    status: t.status,
    api_version: API_VERSION,
    operation_type: operationType(t),
    progress_message: t.message || operationType(t),
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

/** What an image list's `filter` may name (production filters on any attribute the entity carries). */
export const IMAGE_ATTRIBUTES = Object.keys(imageAttributes({ createdUs: 0, updatedUs: 0 }));

/** The attributes of a cluster that `clusters_list` filters on. */
export const clusterValues = (c) => ({
  name: c.name,
  uuid: c.uuid,
  external_ip: c.ip,
  service_list: c.central ? 'PRISM_CENTRAL' : 'AOS',
});
export const CLUSTER_ATTRIBUTES = Object.keys(clusterValues({}));

/** The attributes of a subnet that `subnets_list` filters and sorts on: every one it carries. */
export const subnetValues = (s) => ({
  name: s.name,
  uuid: s.uuid,
  subnet_type: s.subnetType ?? 'VLAN',
  vswitch_name: s.vswitchName ?? 'br0',
  vlan_id: s.vlanId,
  cluster_name: s.clusterName,
  cluster_uuid: s.clusterUuid,
});
export const SUBNET_ATTRIBUTES = Object.keys(subnetValues({}));

/**
 * The v3 view of an image (ImageIntentResponse).
 * @param {import('../../domain/images.js').Image} image
 * @param {{ origin: string, api: { basePaths: string[] }, user: string }} ctx  for `retrieval_uri_list` and `owner_reference`
 */
export function imageV3(image, ctx) {
  const resources = {};
  if (image.imageType) resources.image_type = image.imageType;
  if (image.architecture) resources.architecture = image.architecture;
  if (image.sourceUri) resources.source_uri = image.sourceUri;
  if (image.version) resources.version = image.version;
  if (image.checksum) resources.checksum = image.checksum;
  /** @type {Record<string, any>} */
  const statusResources = { ...resources };
  if (image.sizeBytes !== undefined && image.sizeBytes !== null) {
    statusResources.size_bytes = image.sizeBytes;
    statusResources.retrieval_uri_list = [`${ctx.origin}${ctx.api.basePaths[0]}/images/${image.uuid}/file`];
  }
  if (image.clusterUuid)
    statusResources.current_cluster_reference_list = [{ kind: 'cluster', uuid: image.clusterUuid }];
  const spec = { name: image.name, resources };
  if (image.description) spec.description = image.description;
  const status = { state: shown(IMAGE, image.state), name: image.name, resources: statusResources };
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
      // kept and answered as sent: an idempotency check compares them with what it sent
      ...(image.categoriesMapping !== undefined ? { categories_mapping: image.categoriesMapping } : {}),
      ...(image.useCategoriesMapping !== undefined ? { use_categories_mapping: image.useCategoriesMapping } : {}),
      owner_reference: { kind: 'user', uuid: OWNER_UUID, name: ctx.user },
    },
    spec,
    status,
  };
}

export function clusterV3(c) {
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

export function subnetV3(s) {
  const resources = {
    subnet_type: s.subnetType ?? 'VLAN',
    vswitch_name: s.vswitchName ?? 'br0',
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
