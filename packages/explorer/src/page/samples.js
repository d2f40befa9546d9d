// Code samples of one request: curl, TypeScript through @svc/client and Python with requests
// written here; Go (net/http) and PowerShell 7 (Invoke-RestMethod) from Scalar's snippet library
// (@scalar/snippetz), given the credentials from the environment. One home for the text of the samples: the page fills the request from the
// "Try it out" form and the selected server, so the samples follow what the user typed; the
// tests fill it from the spec's examples for every operation (test/support/sample-request.js).
// ES module; scripts/build.mjs bundles it into the page's classic script.
import { goNative } from '@scalar/snippetz/plugins/go/native';
import { powershellRestmethod } from '@scalar/snippetz/plugins/powershell/restmethod';
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
export const LABELS = {
  curl: 'curl',
  typescript: '@svc/client',
  python: 'Python (requests)',
  go: 'Go',
  powershell: 'PowerShell',
};

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
  // the sample's own template literal, its `${` escaped here
  lines.push(`if (error !== undefined) throw new Error(\`\${response.status}: \${JSON.stringify(error)}\`);`);
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
 * The request as a HAR request (the snippet library's input), without credentials or a file
 * body (the callers add them); an environment variable of the server is the token `svcenv<i>x`
 * (lower case: it may stand in a host name), replaced by the caller.
 * @param {SampleRequest} request
 * @returns {{ har: any, env: string[] }}
 */
function harOf(request) {
  /** @type {string[]} */
  const env = [];
  const server = request.server
    .map((p) => ('env' in p ? 'svcenv' + (env.push(p.env) - 1) + 'x' : p.text))
    .join('')
    .replace(/\/+$/, '');
  const headers = [];
  const accept = acceptOf(request);
  if (accept) headers.push({ name: 'Accept', value: accept });
  for (const { name, value } of request.params.header) headers.push({ name, value: String(value) });
  if (request.body) headers.push({ name: 'Content-Type', value: request.body.contentType });
  const har = {
    method: request.method.toUpperCase(),
    url: server + filledPath(request) + queryString(request),
    headers,
    postData:
      request.body?.kind === 'json'
        ? { mimeType: request.body.contentType, text: JSON.stringify(request.body.value) }
        : undefined,
  };
  return { har, env };
}

/** Adds packages to the import block of a Go program (kept sorted, as gofmt does). */
function goImport(source, ...packages) {
  return source.replace(/^import \(\n([\s\S]*?)\n\)/m, (_, block) => {
    const names = new Set(block.split('\n').map((line) => line.trim()));
    for (const name of packages) names.add(JSON.stringify(name));
    return (
      'import (\n' +
      [...names]
        .sort()
        .map((n) => '\t' + n)
        .join('\n') +
      '\n)'
    );
  });
}

/**
 * The Go program (net/http, @scalar/snippetz's `go/native`), with basic auth from
 * `SVC_USER`/`SVC_PASSWORD`, a file body read with `os.Open`, a download written to
 * `image.qcow2`, and TLS verification skipped exactly when curl has `-k`.
 * @param {SampleRequest} request
 * @returns {string}
 */
export function go(request) {
  const { har, env } = harOf(request);
  let source = goNative.generate(har);
  const imports = ['os'];
  env.forEach((name, i) => {
    source = source.replace('svcenv' + i + 'x', '" + os.Getenv(' + JSON.stringify(name) + ') + "');
  });
  let open = '';
  if (request.body?.kind === 'file') {
    open = '\tpayload, _ := os.Open(' + JSON.stringify(request.body.file) + ')\n\tdefer payload.Close()\n\n';
    source = source.replace(', requestUrl, nil)', ', requestUrl, payload)');
  }
  source = source.replace(
    /^(\treq, _ := http\.NewRequest\(.*\n)/m,
    (line) => open + line + '\treq.SetBasicAuth(os.Getenv("' + ENV.user + '"), os.Getenv("' + ENV.password + '"))\n',
  );
  if (request.insecure) {
    imports.push('crypto/tls');
    source = source.replace(
      'http.DefaultClient.Do(req)',
      '(&http.Client{Transport: &http.Transport{\n\t\t// as curl -k: the endpoint may use a self-signed certificate\n' +
        '\t\tTLSClientConfig: &tls.Config{InsecureSkipVerify: true},\n\t}}).Do(req)',
    );
  }
  if (downloads(request))
    source = source.replace('\tfmt.Println(string(body))', '\t_ = os.WriteFile("image.qcow2", body, 0o644)');
  return goImport(source, ...imports) + '\n';
}

/** A PowerShell single-quoted string. */
function psQuote(text) {
  return "'" + String(text).replace(/['\u2018-\u201b]/g, '$&$&') + "'";
}

/**
 * The PowerShell 7 command (Invoke-RestMethod, @scalar/snippetz's `powershell/restmethod`), with
 * basic auth from `$env:SVC_USER`/`$env:SVC_PASSWORD`, `-InFile` for a file body, `-OutFile` for a
 * download and `-SkipCertificateCheck` exactly when curl has `-k`.
 * @param {SampleRequest} request
 * @returns {string}
 */
export function powershell(request) {
  const { har, env } = harOf(request);
  let source = powershellRestmethod.generate(har);
  if (env.length) {
    source = source.replace(/-Uri ('(?:[^']|'')*')/, (_, url) => {
      let text = url;
      env.forEach((name, i) => {
        text = text.replace('svcenv' + i + 'x', "' + $env:" + name + " + '");
      });
      return '-Uri (' + text + ')';
    });
  }
  const options = ['-Authentication Basic -Credential $credential'];
  // PowerShell refuses basic auth over plain http unless told.
  if (/^http:/i.test(har.url)) options.push('-AllowUnencryptedAuthentication');
  if (request.body?.kind === 'file') options.push('-InFile ' + psQuote(request.body.file));
  if (downloads(request)) options.push('-OutFile image.qcow2');
  if (request.insecure)
    options.push('-SkipCertificateCheck # as curl -k: the endpoint may use a self-signed certificate');
  source = source.replace(/^(\$response = Invoke-RestMethod .*)$/m, (line) => line + ' `\n  ' + options.join(' `\n  '));
  const credential =
    '$credential = [pscredential]::new($env:' +
    ENV.user +
    ', (ConvertTo-SecureString $env:' +
    ENV.password +
    ' -AsPlainText -Force))';
  return credential + '\n' + source + '\n';
}

/**
 * The samples of a request (`lang`, `label`, `source`, the shape of Redoc's `x-codeSamples`).
 * @param {SampleRequest} request
 * @returns {{ lang: string, label: string, source: string }[]}
 */
export function samplesOf(request) {
  return [
    { lang: 'Shell', label: LABELS.curl, source: curl(request) },
    { lang: 'TypeScript', label: LABELS.typescript, source: typescript(request) },
    { lang: 'Python', label: LABELS.python, source: python(request) },
    { lang: 'Go', label: LABELS.go, source: go(request) },
    { lang: 'PowerShell', label: LABELS.powershell, source: powershell(request) },
  ];
}
