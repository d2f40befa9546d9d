export { createCentralClient, bodySerializer } from './central.js';
export type { CentralClient, CentralOperations, CentralPaths, CentralSchemas } from './central.js';
export { ClientOptionsError, basicAuth } from './options.js';
export type { ClientOptions } from './options.js';
export { isBinaryBody } from './binary.js';
export type { BinaryBody } from './binary.js';
