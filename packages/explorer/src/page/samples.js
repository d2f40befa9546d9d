// Code samples of one request, in three languages: curl, TypeScript through @svc/client and
// Python with requests. One home for the text of the samples: the page fills the request from the
// "Try it out" form and the selected server, so the samples follow what the user typed; the
// tests fill it from the spec's examples for every operation (test/support/sample-request.js).
// ES module; scripts/build.mjs bundles it into the page's classic script.
import { mediaKind } from '@svc/oas';

/**
 * One request as the samples send it.
 * @typedef {object} SampleRequest
 * @property {string} api API name (`central`): names the client factory (`createCentralClient`)
 * @property {string} method HTTP method, any case
 * @property {Array<{ text: string } | { env: string }>} server the server URL with its base path,
 *   as literal text and environment variables (`[{ text: 'https://' }, { env: 'SVC_HOST' }, { text: ':9440/api/svc/v3' }]`)
 * @property {string} path the spec's path template (`/images/{uuid}`)
 * @property {{ path: Param[], query: Param[], header: Param[] }} params values to send
 * @property {null | { kind: 'json', contentType: string, value: any } | { kind: 'file', contentType: string, file: string }} body
 * @property {string[]} accept media types of the 2xx answers (a non-JSON one means a download)
 * @property {boolean} insecure skip TLS verification (curl `-k`, `insecureSkipTlsVerify`, `verify=False`)
 * @typedef {{ name: string, value: any }} Param
 */

/** Environment variables the samples read: the credentials are never in a sample. */
export const ENV = { host: 'SVC_HOST', user: 'SVC_USER', password: 'SVC_PASSWORD' };

/** Labels of the samples (the page's tabs). */
export const LABELS = { curl: 'curl', typescript: '@svc/client', python: 'Python (requests)' };

/**
 * Name of the client factory of an API: `central` -> `createCentralClient`.
 * @param {string} api
 * @returns {string}
 */
export function clientFactory(api) {
  const words = String(api)
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean);
  return 'create' + words.map((w) => w[0].toUpperCase() + w.slice(1)).join('') + 'Client';
}

/** A bash single-quoted word. */
export function shellQuote(text) {
  return "'" + String(text).replace(/'/g, "'\\''") + "'";
}

/** Text inside a bash double-quoted string. */
function shellDouble(text) {
  return String(text).replace(/[\\"$`]/g, (c) => '\\' + c);
}

/** Text inside a TypeScript template literal. */
function templateText(text) {
  return String(text)
    .replace(/[\\`]/g, (c) => '\\' + c)
    .replace(/\$\{/g, '\\${');
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A literal for a JSON value, indented, in TypeScript (`{ kind: 'image' }`) or Python
 * (`{'kind': 'image'}`, `True`, `None`) syntax.
 * @param {any} value
 * @param {string} [indent] indentation of the line the literal starts on
 * @param {'ts' | 'py'} [lang]
 * @returns {string}
 */
export function literal(value, indent = '', lang = 'ts') {
  if (value === null || value === undefined) return lang === 'py' ? 'None' : 'null';
  if (typeof value === 'boolean') return lang === 'py' ? (value ? 'True' : 'False') : String(value);
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') {
    return "'" + value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r') + "'";
  }
  const inner = indent + (lang === 'py' ? '    ' : '  ');
  const open = Array.isArray(value) ? '[' : '{';
  const close = Array.isArray(value) ? ']' : '}';
  const items = Array.isArray(value)
    ? value.map((v) => literal(v, inner, lang))
    : Object.entries(value).map(
        ([k, v]) =>
          (lang === 'ts' && IDENTIFIER.test(k) ? k : literal(k, inner, lang)) + ': ' + literal(v, inner, lang),
      );
  if (items.length === 0) return open + close;
  const pad = lang === 'ts' && !Array.isArray(value) ? ' ' : '';
  const flat = open + pad + items.join(', ') + pad + close;
  if (flat.length <= 60 && !flat.includes('\n')) return flat;
  return open + '\n' + items.map((i) => inner + i + ',').join('\n') + '\n' + indent + close;
}

/** The path with its parameters filled in (URL-encoded). */
function filledPath(request) {
  let path = request.path;
  for (const { name, value } of request.params.path)
    path = path.split('{' + name + '}').join(encodeURIComponent(String(value)));
  return path;
}

function queryString(request) {
  const parts = request.params.query.map(
    ({ name, value }) => encodeURIComponent(name) + '=' + encodeURIComponent(String(value)),
  );
  return parts.length ? '?' + parts.join('&') : '';
}

/**
 * The URL a request goes to: the server (environment variables as `$NAME`), the path filled in
 * and the query string.
 * @param {SampleRequest} request
 * @returns {string}
 */
export function requestUrl(request) {
  const server = request.server.map((p) => ('env' in p ? '$' + p.env : p.text)).join('');
  return server.replace(/\/+$/, '') + filledPath(request) + queryString(request);
}

/** The JSON media type to ask for, else the first answer type. */
function acceptOf(request) {
  return request.accept.includes('application/json') ? 'application/json' : request.accept[0];
}

function downloads(request) {
  return request.accept.length > 0 && !request.accept.some((t) => mediaKind(t) === 'json');
}

/**
 * The curl command. `-u "$SVC_USER:$SVC_PASSWORD"` (basic auth from the environment), `-k` when
 * `insecure`, JSON bodies inline, files with `--data-binary @file`.
 * @param {SampleRequest} request
 * @returns {string}
 */
export function curl(request) {
  const server = request.server.map((p) => ('env' in p ? '$' + p.env : shellDouble(p.text))).join('');
  const url = server.replace(/\/+$/, '') + shellDouble(filledPath(request) + queryString(request));
  const lines = [];
  if (request.insecure)
    lines.push('# -k: the endpoint may use a self-signed certificate; drop it when the certificate is trusted.');
  lines.push('curl ' + (request.insecure ? '-k ' : '') + '-u "$' + ENV.user + ':$' + ENV.password + '" \\');
  lines.push('  -X ' + request.method.toUpperCase() + ' "' + url + '"');
  const add = (line) => {
    lines[lines.length - 1] += ' \\';
    lines.push('  ' + line);
  };
  const accept = acceptOf(request);
  if (accept) add('-H ' + shellQuote('Accept: ' + accept));
  for (const { name, value } of request.params.header) add('-H ' + shellQuote(name + ': ' + value));
  if (request.body) add('-H ' + shellQuote('Content-Type: ' + request.body.contentType));
  if (request.body?.kind === 'json') add('--data-raw ' + shellQuote(JSON.stringify(request.body.value, null, 2)));
  else if (request.body) add('--data-binary @' + request.body.file);
  if (downloads(request)) add('-o image.qcow2');
  return lines.join('\n') + '\n';
}

/**
 * The TypeScript call through the generated client of the API, with
 * `insecureSkipTlsVerify: true` exactly when curl has `-k`.
 * @param {SampleRequest} request
 * @returns {string}
 */
export function typescript(request) {
  const factory = clientFactory(request.api);
  const fileBody = request.body && request.body.kind === 'file';
  const binaryAnswer = downloads(request);
  const fsImports = [];
  if (fileBody) fsImports.push('readFile');
  if (binaryAnswer) fsImports.push('writeFile');
  const lines = [];
  if (fsImports.length) lines.push('import { ' + fsImports.join(', ') + " } from 'node:fs/promises';");
  lines.push('import { ' + factory + " } from '@svc/client';", '');

  const options = [];
  const groups = [];
  for (const where of ['path', 'query', 'header']) {
    if (request.params[where].length === 0) continue;
    groups.push(
      where + ': ' + literal(Object.fromEntries(request.params[where].map(({ name, value }) => [name, value])), '    '),
    );
  }
  if (groups.length) {
    const flat = 'params: { ' + groups.join(', ') + ' }';
    options.push(
      flat.length <= 80 && !flat.includes('\n')
        ? flat
        : 'params: {\n' + groups.map((g) => '    ' + g + ',').join('\n') + '\n  }',
    );
  }
  const headers = {};
  if (request.body?.kind === 'json') options.push('body: ' + literal(request.body.value, '  '));
  else if (fileBody) {
    options.push("body: await readFile('" + request.body.file.replace(/[\\']/g, '\\$&') + "')");
    headers['Content-Type'] = request.body.contentType;
  }
  if (binaryAnswer) {
    options.push("parseAs: 'arrayBuffer'");
    headers.Accept = request.accept[0];
  }
  if (Object.keys(headers).length) options.push('headers: ' + literal(headers, '  '));
  const method = request.method.toUpperCase();
  const call = options.length
    ? 'await client.' +
      method +
      "('" +
      request.path +
      "', {\n" +
      options.map((o) => '  ' + o + ',').join('\n') +
      '\n});'
    : 'await client.' + method + "('" + request.path + "');";
  const server = request.server
    .map((p) => ('env' in p ? '${process.env.' + p.env + '}' : templateText(p.text)))
    .join('')
    .replace(/\/+$/, '');
  lines.push(
    'const client = ' + factory + '({',
    '  baseUrl: `' + server + '`,',
    '  username: process.env.' + ENV.user + '!,',
    '  password: process.env.' + ENV.password + '!,',
  );
  if (request.insecure)
    lines.push('  insecureSkipTlsVerify: true, // as curl -k: the endpoint may use a self-signed certificate');
  lines.push('});', '', 'const { data, error, response } = ' + call);
  lines.push('if (error !== undefined) throw new Error(`${response.status}: ${JSON.stringify(error)}`);');
  lines.push(
    binaryAnswer ? "await writeFile('image.qcow2', new Uint8Array(data));" : 'console.log(response.status, data);',
  );
  return lines.join('\n') + '\n';
}

/**
 * The Python call with `requests`, `verify=False` exactly when curl has `-k`.
 * @param {SampleRequest} request
 * @returns {string}
 */
export function python(request) {
  const server = request.server
    .map((p) =>
      'env' in p ? "{os.environ['" + p.env + "']}" : p.text.replace(/[{}]/g, '$&$&').replace(/[\\"]/g, '\\$&'),
    )
    .join('')
    .replace(/\/+$/, '');
  const url = server + filledPath(request).replace(/[{}]/g, '$&$&').replace(/[\\"]/g, '\\$&');
  const headers = {};
  const accept = acceptOf(request);
  if (accept) headers.Accept = accept;
  for (const { name, value } of request.params.header) headers[name] = String(value);
  if (request.body) headers['Content-Type'] = request.body.contentType;
  const args = ['    ' + literal(request.method.toUpperCase(), '', 'py') + ',', '    f"' + url + '",'];
  args.push("    auth=(os.environ['" + ENV.user + "'], os.environ['" + ENV.password + "']),");
  args.push('    headers=' + literal(headers, '    ', 'py') + ',');
  if (request.params.query.length)
    args.push(
      '    params=' +
        literal(Object.fromEntries(request.params.query.map(({ name, value }) => [name, value])), '    ', 'py') +
        ',',
    );
  if (request.body?.kind === 'json') args.push('    json=' + literal(request.body.value, '    ', 'py') + ',');
  else if (request.body) args.push('    data=body,');
  if (request.insecure) args.push('    verify=False,  # as curl -k: the endpoint may use a self-signed certificate');
  args.push('    timeout=60,');
  const lines = ['import os', '', 'import requests', ''];
  let indent = '';
  if (request.body && request.body.kind === 'file') {
    lines.push('with open(' + literal(request.body.file, '', 'py') + ", 'rb') as body:");
    indent = '    ';
  }
  lines.push(indent + 'response = requests.request(', ...args.map((a) => indent + a), indent + ')');
  lines.push('print(response.status_code)');
  if (downloads(request)) {
    lines.push(
      'response.raise_for_status()',
      "with open('image.qcow2', 'wb') as out:",
      '    out.write(response.content)',
    );
  } else {
    lines.push("print(response.json() if 'json' in response.headers.get('Content-Type', '') else response.text)");
  }
  return lines.join('\n') + '\n';
}

/**
 * The three samples of a request (`lang`, `label`, `source`, the shape of Redoc's `x-codeSamples`).
 * @param {SampleRequest} request
 * @returns {{ lang: string, label: string, source: string }[]}
 */
export function samplesOf(request) {
  return [
    { lang: 'Shell', label: LABELS.curl, source: curl(request) },
    { lang: 'TypeScript', label: LABELS.typescript, source: typescript(request) },
    { lang: 'Python', label: LABELS.python, source: python(request) },
  ];
}
