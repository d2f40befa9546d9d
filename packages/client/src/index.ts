export type { BinaryBody } from './binary.js';
export { isBinaryBody } from './binary.js';
export type {
  CentralBatchBody,
  CentralBatchOptions,
  CentralBatchRequest,
  CentralBatchResult,
  CentralClient,
  CentralListEntity,
  CentralListRequest,
  CentralOperations,
  CentralPaths,
  CentralSchemas,
  CentralWaitOptions,
  CentralWorkflows,
} from './central.js';
export { createCentralClient } from './central.js';
export type {
  ControlClient,
  ControlFaults,
  ControlOperations,
  ControlPaths,
  ControlSchemas,
  ControlSettings,
  ControlWorkflows,
  FaultRuleInput,
  RequestFilter,
} from './control.js';
export { createControlClient } from './control.js';
export type { UploadOptions } from './create.js';
export { bodySerializer } from './create.js';
export type {
  ElementClient,
  ElementOperations,
  ElementPaths,
  ElementSchemas,
  ElementWorkflows,
  UploadImageInput,
} from './element.js';
export { createElementClient } from './element.js';
export type {
  ApiErrorBody,
  ElementErrorBody,
  InvalidResponseKind,
  NetworkFailureKind,
  OperationRef,
  V3ErrorBody,
} from './errors.js';
export {
  ApiError,
  InvalidArgumentError,
  InvalidResponseError,
  isApiError,
  NetworkError,
  PaginationError,
  RedirectError,
  RequestTimeoutError,
  TaskFailedError,
  TaskTimeoutError,
  WorkflowError,
} from './errors.js';
export type { ApiName } from './generated/operations.js';
export { operationTable } from './generated/operations.js';
export { isIdempotent } from './middleware.js';
export type { ObjectsClient, ObjectsOperations, ObjectsPaths, ObjectsSchemas, ObjectsWorkflows } from './objects.js';
export { createObjectsClient } from './objects.js';
export type { ClientOptionName, ClientOptions, CommonClientOptions, RetryOptions, TlsOptions } from './options.js';
export { basicAuth, ClientOptionsError } from './options.js';
export type { PageOptions } from './paging.js';
export { DEFAULT_MAX_ITEMS } from './paging.js';
export type {
  Cluster,
  CompleteImage,
  EnabledServiceStatus,
  GroupEntity,
  Image,
  ImageList,
  ImageListEntry,
  ImageMetadata,
  ImageSpec,
  ImageState,
  ImageV0_8,
  ObjectStore,
  ObjectStoreListEntry,
  ObjectStoreSpec,
  ServiceStatus,
  StorageContainer,
  StorageContainerList,
  Subnet,
  SucceededTask,
  SucceededTaskV0_8,
  SucceededTaskV2_0,
  Task,
  TaskStatus,
  TaskV0_8,
  TaskV2_0,
} from './types.js';
export type { UploadSource, WaitOptions } from './workflow.js';
export { unwrap } from './workflow.js';
