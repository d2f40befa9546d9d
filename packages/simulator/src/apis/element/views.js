// The element-level views (v0.8 camelCase, v2.0 snake_case) of the domain's images, storage
// containers and tasks.
import { hasData } from '../../domain/images.js';
import { OPERATIONS } from '../../domain/tasks.js';

const PROGRESS = {
  QUEUED: 'Queued',
  RUNNING: 'Running',
  SUCCEEDED: 'Succeeded',
  FAILED: 'Failed',
  ABORTED: 'Aborted',
  SUSPENDED: 'Running',
};
const ENTITY_TYPE = { image: 'Image', objectstore: 'ObjectStore', service: 'Service' };

/** The kind of entity a task acts on, as the element API names it (`Image`). */
export const entityTypeOf = (t) => ENTITY_TYPE[t.entity.kind] ?? t.entity.kind;

/** A task's operation as the element API names it (`ImageCreate`). */
export const operationType = (t) => OPERATIONS[t.operation]?.element ?? t.operation;
const failed = (t) => t.status === 'FAILED' || t.status === 'ABORTED';
const imageState = (i) => (hasData(i) ? 'ACTIVE' : 'INACTIVE');

/** Which name of a pair each version uses. */
const VERSION = { v0_8: 0, v2_0: 1 };

/**
 * The field names of tasks and images: [v0.8, v2.0] (TaskV0_8/TaskV2_0, the image schemas); a null
 * name is a field that version does not have.
 */
const FIELDS = {
  request: ['metaRequest', 'meta_request'],
  method: ['methodName', 'method_name'],
  created: ['createTime', 'create_time_usecs'],
  updated: ['lastUpdatedTime', 'last_updated_time_usecs'],
  list: ['entityList', 'entity_list'],
  entityUuid: ['uuid', 'entity_id'],
  entityType: ['entityType', 'entity_type'],
  entityName: ['entityName', 'entity_name'],
  operation: ['operationType', 'operation_type'],
  percentage: ['percentageComplete', 'percentage_complete'],
  progress: ['progressStatus', 'progress_status'],
  started: ['startTime', 'start_time_usecs'],
  completed: ['completeTime', 'complete_time_usecs'],
  imageLogical: ['logicalTimestamp', 'logical_timestamp'],
  imageState: ['imageState', 'image_state'],
  imageCreated: ['createdTimeInUsecs', 'created_time_in_usecs'],
  imageUpdated: ['updatedTimeInUsecs', 'updated_time_in_usecs'],
  imageType: ['imageType', 'image_type'],
  imageContainerUuid: ['containerUuid', 'storage_container_uuid'],
  imageContainerId: ['containerId', 'storage_container_id'],
  imageContainerName: [null, 'storage_container_name'],
  imageDiskId: ['vmDiskId', 'vm_disk_id'],
  imageDiskSize: [null, 'vm_disk_size'],
};

/** The names of `fields` in one version: `{ request: 'metaRequest', ... }`. */
const namesIn = (fields, version) =>
  Object.fromEntries(Object.entries(fields).map(([key, pair]) => [key, pair[VERSION[version]]]));
const NAMES = { v0_8: namesIn(FIELDS, 'v0_8'), v2_0: namesIn(FIELDS, 'v2_0') };

/** The element view of a task in one version, without its version's own fields. */
function taskView(t, version) {
  const f = NAMES[version];
  const entity = { [f.entityUuid]: t.entity.uuid, [f.entityType]: entityTypeOf(t) };
  if (t.entity.name) entity[f.entityName] = t.entity.name;
  const out = {
    uuid: t.uuid,
    [f.request]: { [f.method]: operationType(t) },
    [f.created]: t.createdUs,
    [f.updated]: t.updatedUs,
    [f.list]: [entity],
    [f.operation]: operationType(t),
    message: t.message ?? '',
    [f.percentage]: t.percentage,
    [f.progress]: PROGRESS[t.status],
  };
  if (t.startedUs) out[f.started] = t.startedUs;
  if (t.completedUs) out[f.completed] = t.completedUs;
  return out;
}

/** The v0.8 view of a task (TaskV0_8). */
export function taskV0_8(t) {
  const out = taskView(t, 'v0_8');
  out.metaResponse = failed(t) ? { error: t.errorCode, errorDetail: t.errorDetail } : {};
  return out;
}

/** The v2.0 view of a task (TaskV2_0); `clusterUuid` is the cluster that ran it. */
export function taskV2_0(t, clusterUuid) {
  const out = taskView(t, 'v2_0');
  out.meta_response = failed(t)
    ? { error_code: 1, error: t.errorCode, error_detail: t.errorDetail }
    : { error_code: 0 };
  out.subtask_uuid_list = [];
  if (clusterUuid) out.cluster_uuid = clusterUuid;
  return out;
}

/**
 * The element view of an image in one version.
 * @param {import('../../domain/images.js').Image} i
 * @param {any} c  its storage container, if any
 * @param {'v0_8' | 'v2_0'} version
 */
function imageView(i, c, version) {
  const f = NAMES[version];
  const out = {
    uuid: i.uuid,
    name: i.name,
    deleted: false,
    [f.imageLogical]: i.specVersion,
    [f.imageState]: imageState(i),
    [f.imageCreated]: i.createdUs,
    [f.imageUpdated]: i.updatedUs,
  };
  if (i.annotation ?? i.description) out.annotation = i.annotation ?? i.description;
  if (i.imageType) out[f.imageType] = i.imageType;
  if (c) {
    out[f.imageContainerUuid] = c.uuid;
    out[f.imageContainerId] = c.numericId;
    if (f.imageContainerName) out[f.imageContainerName] = c.name;
  }
  if (hasData(i)) {
    out[f.imageDiskId] = i.uuid;
    if (f.imageDiskSize) out[f.imageDiskSize] = i.sizeBytes;
  }
  return out;
}

/** The v0.8 view of an image. */
export const imageV0_8 = (i, c) => imageView(i, c, 'v0_8');
/** The v2.0 view of an image. */
export const imageV2_0 = (i, c) => imageView(i, c, 'v2_0');

/** The storage tiers of a container, fastest first. */
const TIERS = ['SSD-PCIe', 'SSD-SATA', 'DAS-SATA'];

/**
 * The v2.0 view of a storage container, its usage grown by the images it holds.
 * @param {any} c  the container
 * @param {import('../../domain/images.js').Image[]} images  every image
 */
export function containerV2_0(c, images) {
  const used =
    c.baseUsage + images.filter((i) => i.containerUuid === c.uuid && hasData(i)).reduce((n, i) => n + i.sizeBytes, 0);
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
    // a container's tiering as a real answer shows it (docs/service.md, "Storage containers")
    seq_io_preference: [...TIERS],
    random_io_preference: [...TIERS],
    down_migrate_times_in_secs: Object.fromEntries(TIERS.map((tier) => [tier, 1800])),
    ilm_policy: null,
    // no remote sites: no container is mapped to one
    mapped_remote_containers: {},
    // no VM does I/O on it; counters the service does not collect answer -1, as production's do
    stats: {
      controller_num_iops: '0',
      controller_avg_io_latency_usecs: '0',
      controller_io_bandwidth_kBps: '0',
      hypervisor_num_iops: '-1',
      timespan_usecs: '-1',
    },
    usage_stats: {
      'storage.usage_bytes': String(used),
      'storage.user_usage_bytes': String(used),
      'storage.capacity_bytes': String(c.capacity),
      'storage.free_bytes': String(c.capacity - used),
    },
  };
}
