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

/** A task's operation as the element API names it (`ImageCreate`). */
export const operationType = (t) => OPERATIONS[t.operation]?.element ?? t.operation;
const failed = (t) => t.status === 'FAILED' || t.status === 'ABORTED';
const imageState = (i) => (hasData(i) ? 'ACTIVE' : 'INACTIVE');

/** The v0.8 view of a task (TaskV0_8). */
export function taskV0_8(t) {
  const out = {
    uuid: t.uuid,
    metaRequest: { methodName: operationType(t) },
    metaResponse: failed(t) ? { error: t.errorCode, errorDetail: t.errorDetail } : {},
    createTime: t.createdUs,
    lastUpdatedTime: t.updatedUs,
    entityList: [
      {
        uuid: t.entity.uuid,
        entityType: ENTITY_TYPE[t.entity.kind] ?? t.entity.kind,
        ...(t.entity.name ? { entityName: t.entity.name } : {}),
      },
    ],
    operationType: operationType(t),
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
  const out = {
    uuid: t.uuid,
    meta_request: { method_name: operationType(t) },
    meta_response: failed(t) ? { error_code: 1, error: t.errorCode, error_detail: t.errorDetail } : { error_code: 0 },
    create_time_usecs: t.createdUs,
    last_updated_time_usecs: t.updatedUs,
    entity_list: [
      {
        entity_id: t.entity.uuid,
        entity_type: ENTITY_TYPE[t.entity.kind] ?? t.entity.kind,
        ...(t.entity.name ? { entity_name: t.entity.name } : {}),
      },
    ],
    operation_type: operationType(t),
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

/** The v0.8 view of an image. */
export function imageV0_8(i, c) {
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

/** The v2.0 view of an image. */
export function imageV2_0(i, c) {
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
    usage_stats: {
      'storage.usage_bytes': String(used),
      'storage.user_usage_bytes': String(used),
      'storage.capacity_bytes': String(c.capacity),
      'storage.free_bytes': String(c.capacity - used),
    },
  };
}
