// Code samples for every operation of a bundled OpenAPI document, made at build time so that they
// always follow the spec: a curl command and a TypeScript call through the generated client
// (@svc/client). The build adds them to the explorer's copy of each spec as `x-codeSamples`.
//
//   x-codeSamples:
//     - { lang: Shell, label: curl, source: "curl -k -u \"$SVC_USER:$SVC_PASSWORD\" ..." }
//     - { lang: TypeScript, label: '@svc/client', source: "import { createCentralClient } ..." }
//
// The samples read the endpoint and the credentials from the environment (SVC_HOST, SVC_USER,
// SVC_PASSWORD); they never hold a password.

import { deref, exampleOf, mediaKind, operations, parametersOf, requestBodyOf } from '@svc/oas';

/** Labels of the two samples (used by the page and the tests). */
export const CURL_LABEL = 'curl';
export const CLIENT_LABEL = '@svc/client';

/** Environment variables the samples read. */
export const ENV = { host: 'SVC_HOST', user: 'SVC_USER', password: 'SVC_PASSWORD' };

/**
 * Name of the client factory of an API: `central` -> `createCentralClient`.
 * @param {string} api
 */
export function clientFactory(api) {
  const words = api.split(/[^a-zA-Z0-9]+/).filter(Boolean);
  return `create${words.map((w) => w[0].toUpperCase() + w.slice(1)).join('')}Client`;
}

/**
 * The endpoint of the first server of a document, split for both languages:
 * `https://{host}:{port}/api/svc/v3` -> `https://$SVC_HOST:9440/api/svc/v3` (shell) and
 * `https://${process.env.SVC_HOST}:9440/api/svc/v3` (TypeScript). Variables other than `host`
 * take their default.
 * @param {any} document
 * @returns {{ shell: string, ts: string }}
 */
export function serverOf(document) {
  const server = document.servers?.[0];
  if (!server || typeof server.url !== 'string') throw new Error('code samples: the document has no server');
  const variables = server.variables ?? {};
  const parts = server.url.split(/(\{[^}]+\})/);
  let shell = '';
  let ts = '';
  for (const part of parts) {
    const variable = /^\{([^}]+)\}$/.exec(part)?.[1];
    if (variable === 'host') {
      shell += `$${ENV.host}`;
      ts += `\${process.env.${ENV.host}}`;
    } else if (variable !== undefined) {
      const value = variables[variable]?.default;
      if (value === undefined) throw new Error(`code samples: server variable {${variable}} has no default`);
      shell += escapeDoubleQuoted(String(value));
      ts += escapeTemplate(String(value));
    } else {
      shell += escapeDoubleQuoted(part);
      ts += escapeTemplate(part);
    }
  }
  return { shell: shell.replace(/\/+$/, ''), ts: ts.replace(/\/+$/, '') };
}

/** Text inside a bash double-quoted string. */
function escapeDoubleQuoted(text) {
  return text.replace(/[\\"$`]/g, (c) => `\\${c}`);
}

/** Text inside a TypeScript template literal. */
function escapeTemplate(text) {
  return text.replace(/[\\`]/g, (c) => `\\${c}`).replace(/\$\{/g, '\\${');
}

/** A bash single-quoted word. */
export function shellQuote(text) {
  return `'${String(text).replace(/'/g, `'\\''`)}'`;
}

/**
 * The request body of an operation as the samples send it: `requestBodyOf` of @svc/oas, a JSON
 * body without an example sent as `{}`.
 * @returns {null | { kind: 'json' | 'binary' | 'other', contentType: string, value?: any }}
 */
function sampleBody(document, operation) {
  const body = requestBodyOf(document, operation);
  return body && { kind: body.kind, contentType: body.mediaType, value: body.example ?? {} };
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

/** The request URL path with path parameters filled in and required query parameters added. */
function filledPath(path, params) {
  let filled = path;
  for (const { name, value } of params.path) filled = filled.split(`{${name}}`).join(encodeURIComponent(String(value)));
  const query = params.query.map(({ name, value }) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  return query.length ? `${filled}?${query.join('&')}` : filled;
}

/**
 * The curl sample of an operation.
 * - `-k`: every endpoint of these APIs may use a self-signed certificate (the service
 *   description says clients may skip verification); the comment says to drop it otherwise.
 * - `-u "$SVC_USER:$SVC_PASSWORD"`: basic auth from the environment.
 * - JSON bodies from the first named request example, binary bodies from a file.
 */
export function curlSample(document, path, method, pathItem, operation) {
  const params = sampleParameters(document, pathItem, operation);
  const body = sampleBody(document, operation);
  const accept = successTypes(document, operation);
  const url = `${serverOf(document).shell}${escapeDoubleQuoted(filledPath(path, params))}`;
  const lines = [
    '# -k: the endpoint may use a self-signed certificate; drop it when the certificate is trusted.',
    `curl -k -u "$${ENV.user}:$${ENV.password}" \\`,
    `  -X ${method.toUpperCase()} "${url}"`,
  ];
  const add = (line) => {
    lines[lines.length - 1] += ' \\';
    lines.push(`  ${line}`);
  };
  const acceptType = accept.includes('application/json') ? 'application/json' : accept[0];
  if (acceptType) add(`-H ${shellQuote(`Accept: ${acceptType}`)}`);
  for (const { name, value } of params.header) add(`-H ${shellQuote(`${name}: ${value}`)}`);
  if (body?.kind === 'json') {
    add(`-H ${shellQuote(`Content-Type: ${body.contentType}`)}`);
    add(`--data-raw ${shellQuote(JSON.stringify(body.value, null, 2))}`);
  } else if (body?.kind === 'binary') {
    add(`-H ${shellQuote(`Content-Type: ${body.contentType}`)}`);
    add('--data-binary @image.qcow2');
  } else if (body) {
    add(`-H ${shellQuote(`Content-Type: ${body.contentType}`)}`);
    add('--data-binary @body');
  }
  if (acceptType && mediaKind(acceptType) !== 'json') add('-o image.qcow2');
  return `${lines.join('\n')}\n`;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A JavaScript literal for a JSON value, indented (single-quoted strings, bare keys where
 * possible): `{ kind: 'image', offset: 0 }`.
 * @param {any} value
 * @param {string} [indent] indentation of the line the literal starts on
 */
export function tsLiteral(value, indent = '') {
  if (value === null) return 'null';
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r')}'`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((v) => tsLiteral(v, inner));
    const flat = `[${items.join(', ')}]`;
    if (flat.length <= 60 && !flat.includes('\n')) return flat;
    return `[\n${items.map((i) => `${inner}${i},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  const items = entries.map(([k, v]) => `${IDENTIFIER.test(k) ? k : tsLiteral(k)}: ${tsLiteral(v, inner)}`);
  const flat = `{ ${items.join(', ')} }`;
  if (flat.length <= 60 && !flat.includes('\n')) return flat;
  return `{\n${items.map((i) => `${inner}${i},`).join('\n')}\n${indent}}`;
}

/**
 * The TypeScript sample of an operation: the call through the generated client of the API.
 * @param {string} api the API name (`central`), which names the client factory
 */
export function clientSample(api, document, path, method, pathItem, operation) {
  const factory = clientFactory(api);
  const params = sampleParameters(document, pathItem, operation);
  const body = sampleBody(document, operation);
  const accept = successTypes(document, operation);
  const binaryAnswer = accept.length > 0 && !accept.some((t) => mediaKind(t) === 'json');
  const imports = [`import { ${factory} } from '@svc/client';`];
  const fsImports = [];
  if (body?.kind === 'binary' || body?.kind === 'other') fsImports.push('readFile');
  if (binaryAnswer) fsImports.push('writeFile');
  if (fsImports.length) imports.unshift(`import { ${fsImports.join(', ')} } from 'node:fs/promises';`);

  const options = [];
  const paramGroups = [];
  for (const where of ['path', 'query', 'header']) {
    if (params[where].length === 0) continue;
    paramGroups.push(`${where}: ${tsLiteral(Object.fromEntries(params[where].map(({ name, value }) => [name, value])), '    ')}`);
  }
  if (paramGroups.length) {
    const flat = `params: { ${paramGroups.join(', ')} }`;
    options.push(flat.length <= 80 && !flat.includes('\n') ? flat : `params: {\n${paramGroups.map((g) => `    ${g},`).join('\n')}\n  }`);
  }
  const headers = {};
  if (body?.kind === 'json') options.push(`body: ${tsLiteral(body.value, '  ')}`);
  else if (body) {
    options.push(`body: await readFile('${body.kind === 'binary' ? 'image.qcow2' : 'body'}')`);
    headers['Content-Type'] = body.contentType;
  }
  if (binaryAnswer) {
    options.push(`parseAs: 'arrayBuffer'`);
    headers.Accept = accept[0];
  }
  if (Object.keys(headers).length) options.push(`headers: ${tsLiteral(headers, '  ')}`);
  const call = options.length
    ? `await client.${method.toUpperCase()}('${path}', {\n${options.map((o) => `  ${o},`).join('\n')}\n});`
    : `await client.${method.toUpperCase()}('${path}');`;
  const { ts } = serverOf(document);
  const lines = [
    ...imports,
    '',
    `const client = ${factory}({`,
    `  baseUrl: \`${ts}\`,`,
    `  username: process.env.${ENV.user}!,`,
    `  password: process.env.${ENV.password}!,`,
    '});',
    '',
    `const { data, error, response } = ${call}`,
    'if (error !== undefined) throw new Error(`${response.status}: ${JSON.stringify(error)}`);',
  ];
  if (binaryAnswer) lines.push(`await writeFile('image.qcow2', new Uint8Array(data));`);
  else lines.push('console.log(response.status, data);');
  return `${lines.join('\n')}\n`;
}

/**
 * A copy of `document` where every operation has `x-codeSamples` with the curl and the
 * @svc/client samples (after any samples the spec already has, with the same labels replaced).
 * @param {string} api the API name (`central`)
 * @param {any} document the bundled document (not modified)
 * @returns {any}
 */
export function withCodeSamples(api, document) {
  const copy = structuredClone(document);
  for (const { path, method, pathItem, operation } of operations(copy)) {
    const ours = [
      { lang: 'Shell', label: CURL_LABEL, source: curlSample(copy, path, method, pathItem, operation) },
      { lang: 'TypeScript', label: CLIENT_LABEL, source: clientSample(api, copy, path, method, pathItem, operation) },
    ];
    const theirs = (operation['x-codeSamples'] ?? []).filter((s) => s.label !== CURL_LABEL && s.label !== CLIENT_LABEL);
    operation['x-codeSamples'] = [...theirs, ...ours];
  }
  return copy;
}
