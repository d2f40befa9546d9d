export { createCentralClient } from './central.js';
export type { CentralClient, CentralListEntity, CentralListRequest, CentralOperations, CentralPaths, CentralSchemas, CentralWaitOptions, CentralWorkflows } from './central.js';
export { createElementClient } from './element.js';
export type { ElementClient, ElementOperations, ElementPaths, ElementSchemas, ElementWorkflows, UploadImageInput } from './element.js';
export { createObjectsClient } from './objects.js';
export type { ObjectsClient, ObjectsOperations, ObjectsPaths, ObjectsSchemas, ObjectsWorkflows } from './objects.js';
export { bodySerializer } from './create.js';
export type { UploadOptions } from './create.js';
export type { PageOptions } from './paging.js';
export { ClientOptionsError, basicAuth } from './options.js';
export type { ClientOptions, ClientOptionName, CommonClientOptions, RetryOptions } from './options.js';
export {
  ApiError,
  InvalidArgumentError,
  InvalidResponseError,
  NetworkError,
  PaginationError,
  RequestTimeoutError,
  TaskFailedError,
  TaskTimeoutError,
  WorkflowError,
  isApiError,
} from './errors.js';
export type { ApiErrorBody, ElementErrorBody, InvalidResponseKind, OperationRef, V3ErrorBody } from './errors.js';
export { unwrap } from './workflow.js';
export type { UploadSource, WaitOptions } from './workflow.js';
export { isIdempotent } from './transport.js';
export { operationTable } from './generated/operations.js';
export type { ApiName } from './generated/operations.js';
export { isBinaryBody } from './binary.js';
export type { BinaryBody } from './binary.js';
