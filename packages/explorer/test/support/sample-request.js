// The request a code sample of an operation sends when it is filled from the spec's examples: the
// first server with $SVC_HOST, the examples of the path and required parameters, the first request
// body example, TLS verification off (-k). The page fills the same request from its form; the
// tests fill it from the examples to check the samples of every operation of the bundles
// (type-checked, compiled) with the page's own sample code (src/page/samples.js).

import { deref, exampleOf, parametersOf, requestBodyOf } from '@svc/oas';
import { ENV } from '../../src/page/samples.js';

/**
 * The first server of a document as sample parts: `https://{host}:{port}/api/svc/v3` ->
 * `[{ text: 'https://' }, { env: 'SVC_HOST' }, { text: ':9440/api/svc/v3' }]`; variables other
 * than `host` take their default.
 * @param {any} document
 * @returns {Array<{ text: string } | { env: string }>}
 * @throws {Error} when the document has no server or a variable has no default
 */
export function serverParts(document) {
  const server = document.servers?.[0];
  if (!server || typeof server.url !== 'string') throw new Error('code samples: the document has no server');
  const variables = server.variables ?? {};
  return server.url
    .split(/(\{[^}]+\})/)
    .filter(Boolean)
    .map((part) => {
      const variable = /^\{([^}]+)\}$/.exec(part)?.[1];
      if (variable === undefined) return { text: part };
      if (variable === 'host') return { env: ENV.host };
      const value = variables[variable]?.default;
      if (value === undefined) throw new Error(`code samples: server variable {${variable}} has no default`);
      return { text: String(value) };
    });
}

/**
 * The request body of an operation as the samples send it: `requestBodyOf` of @svc/oas (a JSON
 * body without an example sent as `{}`), a binary body from `image.qcow2`, another from `body`.
 * @returns {import('../../src/page/samples.js').SampleRequest['body']}
 */
function sampleBody(document, operation) {
  const body = requestBodyOf(document, operation);
  if (!body) return null;
  if (body.kind === 'json') return { kind: 'json', contentType: body.mediaType, value: body.example ?? {} };
  return { kind: 'file', contentType: body.mediaType, file: body.kind === 'binary' ? 'image.qcow2' : 'body' };
}

/** The media types of the 2xx answers of an operation. */
function successTypes(document, operation) {
  const types = new Set();
  for (const [code, response] of Object.entries(operation.responses ?? {})) {
    if (!/^2/.test(code)) continue;
    for (const type of Object.keys(deref(document, response).content ?? {})) types.add(type);
  }
  return [...types];
}

/**
 * The values the samples fill in: every path parameter and every other required parameter,
 * from its example (a placeholder `<name>` when there is none).
 */
function sampleParameters(document, pathItem, operation) {
  const out = { path: [], query: [], header: [] };
  for (const parameter of parametersOf(document, pathItem, operation)) {
    if (!(parameter.in in out)) continue; // cookies are not sampled
    if (parameter.in !== 'path' && !parameter.required) continue;
    out[parameter.in].push({ name: parameter.name, value: exampleOf(document, parameter) ?? `<${parameter.name}>` });
  }
  return out;
}

/**
 * The request the build-time samples send for an operation: the first server with `$SVC_HOST`,
 * the examples of the path parameters and of the required query and header parameters, the first
 * request body example; `-k` (insecure), since the endpoints' certificates are self-signed by default.
 * @param {string} api the API name (`central`)
 * @returns {import('../../src/page/samples.js').SampleRequest}
 */
export function sampleRequest(api, document, path, method, pathItem, operation) {
  return {
    api,
    method,
    server: serverParts(document),
    path,
    params: sampleParameters(document, pathItem, operation),
    body: sampleBody(document, operation),
    accept: successTypes(document, operation),
    insecure: true,
  };
}
