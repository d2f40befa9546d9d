// The v3 views of the domain's entities (schemas ImageIntentResponse, Task, cluster and subnet
// intents) and the attributes the v3 lists filter and sort on.
import { imageAttributes } from '../../domain/images.js';
import { OPERATIONS } from '../../domain/tasks.js';
import { iso } from '../../domain/time.js';
import { clusterSettings, DEFAULT_VPC, seededUuid } from '../../domain/topology.js';
import { IMAGE, shown } from '../../domain/transitions.js';
import { withoutCredentials } from '../../errors.js';
import { CHECKSUM_TYPE } from '../v3.js';

export const API_VERSION = '3.1';
/** UUID the simulator gives its user in `owner_reference` (production: the user's own). */
const OWNER_UUID = '00000000-0000-0000-0000-000000000000';
/** `metadata.spec_hash` as production answers it on images, clusters and subnets: fifty zeros. */
const SPEC_HASH = '0'.repeat(50);

const operationType = (t) => OPERATIONS[t.operation]?.v3 ?? t.operation;

/**
 * The v3 view of a task (schema Task).
 * @param {any} t  the task
 * @param {string} [clusterUuid]  the cluster that runs it (`cluster_reference`), as v2.0 `cluster_uuid` names it
 */
export function taskV3(t, clusterUuid) {
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
  if (clusterUuid) out.cluster_reference = { kind: 'cluster', uuid: clusterUuid };
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

/** `categories_mapping` of `categories` (`{AppType: Default}` -> `{AppType: [Default]}`), as production answers it. */
const mappingOf = (categories = {}) => Object.fromEntries(Object.entries(categories).map(([k, v]) => [k, [v]]));

/** A cluster reference with the cluster's name, as the server fills it in. */
function clusterReference(topology, uuid) {
  const name = topology?.cluster(uuid)?.name;
  return { kind: 'cluster', uuid, ...(name ? { name } : {}) };
}

/**
 * The v3 view of an image (ImageIntentResponse).
 * @param {import('../../domain/images.js').Image} image
 * @param {{ origin: string, api: { basePaths: string[] }, user: string, domain?: any }} ctx  for `retrieval_uri_list`,
 *   `owner_reference` and the clusters' names (`domain.topology`)
 */
export function imageV3(image, ctx) {
  const topology = ctx.domain?.topology;
  const resources = {};
  if (image.imageType) resources.image_type = image.imageType;
  if (image.architecture) resources.architecture = image.architecture;
  // never its credentials (`user:password@`: they are sent to the source, never shown)
  if (image.sourceUri) resources.source_uri = withoutCredentials(image.sourceUri);
  if (image.version) resources.version = image.version;
  if (image.checksum) resources.checksum = image.checksum;
  const placement = image.placement ?? [];
  if (placement.length) resources.initial_placement_ref_list = placement.map((uuid) => ({ kind: 'cluster', uuid }));
  /** @type {Record<string, any>} */
  const statusResources = { ...resources };
  // a local file's checksum comes only in the upload's headers; the vendor's test reads it back here
  if (image.uploadChecksum)
    statusResources.checksum = {
      checksum_algorithm: CHECKSUM_TYPE[image.uploadChecksum.algorithm],
      checksum_value: image.uploadChecksum.value,
    };
  // the clusters the image was placed on, as the vendor's clients read them back from status
  if (placement.length)
    statusResources.initial_placement_ref_list = placement.map((uuid) => clusterReference(topology, uuid));
  if (image.sizeBytes !== undefined && image.sizeBytes !== null) {
    statusResources.size_bytes = image.sizeBytes;
    statusResources.retrieval_uri_list = [`${ctx.origin}${ctx.api.basePaths[0]}/images/${image.uuid}/file`];
  }
  if (image.clusterUuid) {
    const container = image.containerUuid ? topology?.container(image.containerUuid) : undefined;
    statusResources.current_cluster_reference_list = (placement.length ? placement : [image.clusterUuid]).map(
      (uuid) => ({
        ...clusterReference(topology, uuid),
        // where its file lives: the vmdisk of its storage container (the element view's vmDiskId)
        ...(container
          ? { file_location: { container_name: container.name, relative_path: `.acropolis/vmdisk/${image.uuid}` } }
          : {}),
      }),
    );
  }
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
      spec_hash: SPEC_HASH,
      creation_time: iso(image.createdUs),
      last_update_time: iso(image.updatedUs),
      categories: image.categories ?? {},
      // kept and answered as sent (an idempotency check compares them with what it sent); else
      // production's mapping of `categories`
      categories_mapping: image.categoriesMapping ?? mappingOf(image.categories),
      ...(image.useCategoriesMapping !== undefined ? { use_categories_mapping: image.useCategoriesMapping } : {}),
      owner_reference: { kind: 'user', uuid: OWNER_UUID, name: ctx.user },
    },
    spec,
    status,
  };
}

/** A /24's address in the mask form clusters answer: `10.10.100.10` -> `10.10.100.0/255.255.255.0`. */
const subnetOf = (ip) => `${ip.split('.').slice(0, 3).join('.')}.0/255.255.255.0`;

/**
 * The v3 view of a cluster (ClusterIntentResponse without `api_version`), the fields and values of
 * production's answers (docs/service.md, "Clusters and subnets"): the build and versions from the
 * topology, the rest as a cluster set up with defaults answers it.
 * @param {any} c  a stored cluster (topology.js)
 */
export function clusterV3(c) {
  const created = c.created;
  const settings = clusterSettings(c);
  const { build } = settings;
  // the release the build names (`...-release-fraser-2024.1-stable-pc-...` -> 2024.1), else its version
  const release = /(\d+(?:\.\d+)+)-stable/.exec(build.full_version)?.[1] ?? build.version;
  const config = {
    software_map: {
      NOS: { software_type: 'NOS', status: 'INSTALLED', version: release },
      NCC: { software_type: 'NCC', status: 'INSTALLED', version: 'ncc-5.0.0' },
    },
    encryption_status: 'NOT_SUPPORTED',
    supported_information_verbosity: 'BASIC_PLUS_CORE_DUMP',
    redundancy_factor: 2,
    domain_awareness_level: 'NODE',
    enabled_feature_list: ['PASSWORD_REMOTE_LOGIN_ENABLED', 'SHADOW_CLONES_ENABLED'],
    timezone: 'UTC',
    operation_mode: 'NORMAL',
  };
  const network = {
    external_ip: c.ip,
    ...(settings.dataServicesIp ? { external_data_services_ip: settings.dataServicesIp } : {}),
    external_subnet: subnetOf(c.ip),
    // the CVMs' internal network of a registered cluster; the central endpoint answers its own
    internal_subnet: c.central ? subnetOf(c.ip) : '192.168.5.0/255.255.255.128',
    name_server_ip_list: settings.nameServers,
    ntp_server_ip_list: settings.ntpServers,
    ...(settings.fqdn ? { fully_qualified_domain_name: settings.fqdn } : {}),
  };
  return {
    metadata: {
      kind: 'cluster',
      uuid: c.uuid,
      name: c.name,
      spec_version: 0,
      spec_hash: SPEC_HASH,
      creation_time: created,
      last_update_time: created,
      categories: {},
      categories_mapping: {},
    },
    spec: { name: c.name, resources: { config, network } },
    status: {
      state: 'COMPLETE',
      name: c.name,
      resources: {
        config: {
          ...config,
          ssl_key: {
            key_type: 'RSA_4096',
            // the self-signed certificate of the cluster, five years from its creation (simulator)
            expire_datetime: `${Number(created.slice(0, 4)) + 5}${created.slice(4)}`,
            signing_info: {
              country_code: '',
              state: '',
              city: '',
              organization: '',
              common_name: '',
              email_address: '',
            },
          },
          service_list: c.central ? ['PRISM_CENTRAL'] : ['AOS'],
          is_available: true,
          cluster_arch: 'X86_64',
          build,
        },
        network,
        nodes: {
          hypervisor_server_list: c.nodes.map((ip) => ({
            ip,
            type: c.central ? 'PRISM_CENTRAL' : 'AHV',
            version: settings.hypervisorVersion,
          })),
        },
        ...(c.central ? { runtime_status_list: ['SSP_CONFIG_OWNER'] } : {}),
      },
    },
  };
}

/**
 * The v3 view of a subnet (SubnetIntentResponse without `api_version`): an IPAM-managed VLAN subnet
 * of its cluster, with the fields production answers for one (docs/service.md, "Clusters and subnets").
 * @param {any} s  a stored subnet (topology.js)
 * @param {{ user: string, domain: any }} ctx  for `owner_reference` and the cluster's name servers
 */
export function subnetV3(s, ctx) {
  const cluster = ctx.domain.topology.cluster(s.clusterUuid);
  const vswitch = s.vswitchName ?? 'br0';
  const pool = { first: 100, last: 199 };
  const resources = {
    subnet_type: s.subnetType ?? 'VLAN',
    vswitch_name: vswitch,
    vlan_id: s.vlanId,
    // one virtual switch per name and cluster
    virtual_switch_uuid: seededUuid(s.clusterUuid, `vswitch-${vswitch}`),
    ip_config: {
      subnet_ip: `${s.prefix}.0`,
      prefix_length: 24,
      default_gateway_ip: `${s.prefix}.1`,
      pool_list: [{ range: `${s.prefix}.${pool.first} ${s.prefix}.${pool.last}` }],
      dhcp_server_address: { ip: `${s.prefix}.254` },
      dhcp_options: { domain_name_server_list: cluster ? clusterSettings(cluster).nameServers : [] },
    },
  };
  if (resources.subnet_type === 'OVERLAY') {
    // an overlay subnet's VPC, which clients read for OVERLAY subnets (docs/service.md)
    const vpc = s.vpc ?? { name: DEFAULT_VPC, uuid: seededUuid(s.clusterUuid, `vpc-${DEFAULT_VPC}`) };
    Object.assign(resources, {
      advanced_networking: true,
      vpc_reference: { kind: 'vpc', uuid: vpc.uuid, name: vpc.name },
      virtual_network_reference: { kind: 'virtual_network', uuid: vpc.uuid },
    });
  }
  const reference = { kind: 'cluster', uuid: s.clusterUuid, name: s.clusterName };
  const poolSize = pool.last - pool.first + 1;
  return {
    metadata: {
      kind: 'subnet',
      uuid: s.uuid,
      name: s.name,
      spec_version: 0,
      spec_hash: SPEC_HASH,
      creation_time: s.created,
      last_update_time: s.created,
      categories: {},
      categories_mapping: {},
      owner_reference: { kind: 'user', uuid: OWNER_UUID, name: ctx.user },
    },
    spec: { name: s.name, cluster_reference: reference, resources },
    status: {
      state: 'COMPLETE',
      name: s.name,
      cluster_reference: reference,
      resources: {
        ...resources,
        // no VM has a NIC on it: every address is free
        ip_usage_stats: {
          num_macs: 0,
          num_free_ips: 256,
          num_assigned_ips: 0,
          ip_pools_stats: [
            { range: resources.ip_config.pool_list[0].range, num_free_ips: poolSize, num_total_ips: poolSize },
          ],
        },
      },
    },
  };
}
