export { createCentralClient, createElementClient, createObjectsClient, bodySerializer } from './clients.js';
export type {
  CentralClient,
  CentralOperations,
  CentralPaths,
  CentralSchemas,
  ElementClient,
  ElementOperations,
  ElementPaths,
  ElementSchemas,
  ObjectsClient,
  ObjectsOperations,
  ObjectsPaths,
  ObjectsSchemas,
} from './clients.js';
export { ClientOptionsError, basicAuth } from './options.js';
export type { ClientOptions } from './options.js';
export { isBinaryBody } from './binary.js';
export type { BinaryBody } from './binary.js';
