export { createCentralClient, createElementClient, createObjectsClient, bodySerializer } from './clients.js';
export type {
  CentralClient,
  CentralListEntity,
  CentralListRequest,
  CentralOperations,
  CentralPaths,
  CentralSchemas,
  CentralWaitOptions,
  CentralWorkflows,
  ElementClient,
  ElementOperations,
  ElementPaths,
  ElementSchemas,
  ElementWorkflows,
  ObjectsClient,
  ObjectsOperations,
  ObjectsPaths,
  ObjectsSchemas,
  ObjectsWorkflows,
  PageOptions,
  UploadImageInput,
  UploadOptions,
} from './clients.js';
export { ClientOptionsError, basicAuth } from './options.js';
export type { ClientOptions, ClientOptionName, CommonClientOptions, RetryOptions } from './options.js';
export {
  ApiError,
  InvalidArgumentError,
  NetworkError,
  RequestTimeoutError,
  TaskFailedError,
  TaskTimeoutError,
  WorkflowError,
  isApiError,
} from './errors.js';
export type { ApiErrorBody, ElementErrorBody, OperationRef, V3ErrorBody } from './errors.js';
export { unwrap } from './workflow.js';
export type { UploadSource, WaitOptions } from './workflow.js';
export { isIdempotent } from './transport.js';
export { operationTable } from './generated/operations.js';
export type { ApiName } from './generated/operations.js';
export { isBinaryBody } from './binary.js';
export type { BinaryBody } from './binary.js';
