// Named types of the entities and answers the clients return: interfaces over the generated
// schemas, so that an editor shows `Image` rather than the expanded object, and the workflow
// helpers' results carry what they guarantee (a created image has its uuid and is COMPLETE).
import type { components as central } from './generated/central.js';
import type { components as element } from './generated/element.js';
import type { components as objects } from './generated/objects.js';

type C = central['schemas'];
type E = element['schemas'];
type O = objects['schemas'];

// ---- central v3

/** An image as `GET /images/{uuid}` (images_get) returns it: `metadata`, `spec`, `status`. */
type ImageSchema = C['ImageIntentResponse'];
export interface Image extends ImageSchema {}
/** What an image is made of (`spec`): name, description, `resources` (image type, source URI, ...). */
type ImageSpecSchema = C['Image'];
export interface ImageSpec extends ImageSpecSchema {}
/** Metadata of an image (`uuid`, `spec_version`, categories, ...). */
type ImageMetadataSchema = C['ImageMetadata'];
export interface ImageMetadata extends ImageMetadataSchema {}
/** An image as an entity of `POST /images/list` (images_list): only `metadata` is always sent. */
type ImageListEntrySchema = C['ImageIntentResource'];
export interface ImageListEntry extends ImageListEntrySchema {}
/** A page of `POST /images/list` (images_list): `metadata.total_matches` and `entities`. */
type ImageListSchema = C['ImageListResponse'];
export interface ImageList extends ImageListSchema {}
/** The image state: `PENDING`, `COMPLETE`, `ERROR` or `DELETE_PENDING`. */
export type ImageState = C['ImageState'];
/** An image that `createImageFromUrl` returns: it has its uuid, and its state is `COMPLETE`. */
export interface CompleteImage extends Image {
  metadata: ImageMetadata & { uuid: string };
  status: Image['status'] & { state: 'COMPLETE' };
}
/** A v3 task (`GET /tasks/{uuid}`, tasks_get). */
type TaskSchema = C['Task'];
export interface Task extends TaskSchema {}
/** The v3 task status: `QUEUED`, `RUNNING`, `SUCCEEDED`, `FAILED`, `ABORTED`, ... */
export type TaskStatus = C['TaskStatus'];
/** A v3 task that `waitForTask` returns: it ended `SUCCEEDED`. */
export interface SucceededTask extends Task {
  status: 'SUCCEEDED';
}
/** A cluster as `GET /clusters/{uuid}` (clusters_get) returns it: `metadata`, `spec`, `status` as in the cluster list. */
type ClusterSchema = C['ClusterIntentResponse'];
export interface Cluster extends ClusterSchema {}
/** A subnet as `GET /subnets/{uuid}` (subnets_get) returns it: `metadata`, `spec` (`resources.vlan_id`, `subnet_type`, ...), `status`. */
type SubnetSchema = C['SubnetIntentResponse'];
export interface Subnet extends SubnetSchema {}
/** The status of a service such as the object store service (`GET /services/{name}/status`). */
type ServiceStatusSchema = C['ServiceEnablementStatus'];
export interface ServiceStatus extends ServiceStatusSchema {}
/** The object store service's status once `enableObjectsService` returns: `ENABLED`. */
export interface EnabledServiceStatus extends ServiceStatus {
  service_enablement_status: 'ENABLED';
}

// ---- element v0.8 / v2.0

/** An image of the element-level v0.8 API (`GET /v0.8/images/{uuid}`, images_get_v0_8). */
type ImageV0_8Schema = E['ImageV0_8'];
export interface ImageV0_8 extends ImageV0_8Schema {}
/** A v0.8 task (`GET /v0.8/tasks/{uuid}`, tasks_get_v0_8; `progressStatus`). */
type TaskV0_8Schema = E['TaskV0_8'];
export interface TaskV0_8 extends TaskV0_8Schema {}
/** A v2.0 task (`GET /v2.0/tasks/{uuid}`, tasks_get_v2_0; `progress_status`). */
type TaskV2_0Schema = E['TaskV2_0'];
export interface TaskV2_0 extends TaskV2_0Schema {}
/** A v0.8 task that `waitForTask` returns: it ended `Succeeded`. */
export interface SucceededTaskV0_8 extends TaskV0_8 {
  progressStatus: 'Succeeded';
}
/** A v2.0 task that `waitForTask` returns: it ended `Succeeded`. */
export interface SucceededTaskV2_0 extends TaskV2_0 {
  progress_status: 'Succeeded';
}
/** A storage container (`GET /v2.0/storage_containers`): `storage_container_uuid`, `name`, usage. */
type StorageContainerSchema = E['StorageContainerV2_0'];
export interface StorageContainer extends StorageContainerSchema {}
/** The storage container list (`GET /v2.0/storage_containers`, storage_containers_list_v2_0). */
type StorageContainerListSchema = E['StorageContainerListV2_0'];
export interface StorageContainerList extends StorageContainerListSchema {}

// ---- object store v3

/** An object store as `GET /objectstores/{uuid}` returns it (its `metadata.uuid` always set). */
type ObjectStoreSchema = O['ObjectstoreIntentResponse'];
export interface ObjectStore extends ObjectStoreSchema {}
/** An object store as an entry of `GET /objectstores/list` (objectstores_list, `specs[]`): `metadata`, `spec`, `status` with its `name`. */
type ObjectStoreListEntrySchema = O['ObjectstoreListResponse']['specs'][number];
export interface ObjectStoreListEntry extends ObjectStoreListEntrySchema {}
/** What an object store is made of (`spec`): name, cluster, network, ... */
type ObjectStoreSpecSchema = O['Objectstore'];
export interface ObjectStoreSpec extends ObjectStoreSpecSchema {}
/** An entity of a groups listing (`entity_id` and the attributes asked for in `data[]`). */
type GroupEntitySchema = O['GroupEntityResult'];
export interface GroupEntity extends GroupEntitySchema {}
