// The code samples (src/page/samples.js) filled from the spec's examples: unit cases on small
// documents, every TypeScript sample of the real bundles type-checked against @svc/client and
// every Python one compiled, so that a sample cannot drift from the client or the spec.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { operations } from '@svc/oas';
import { apis } from '@svc/oas/apis';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import {
  clientFactory,
  curl,
  go,
  LABELS,
  literal,
  powershell,
  python,
  samplesOf,
  shellQuote,
  typescript,
} from '../src/page/samples.js';
import { goEnv } from './support/run-sample.js';
import { sampleRequest, serverParts } from './support/sample-request.js';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/** A small document: one JSON operation with a path parameter, one binary upload. */
const doc = {
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  servers: [
    {
      url: 'https://{host}:{port}/api/svc/v3',
      variables: { host: { default: 'localhost' }, port: { default: '9440' } },
    },
  ],
  paths: {
    '/images/{uuid}': {
      parameters: [{ $ref: '#/components/parameters/Uuid' }],
      put: {
        operationId: 'images_update',
        requestBody: {
          content: { 'application/json': { examples: { One: { value: { spec: { name: "it's" } } } } } },
        },
        responses: { 200: { description: 'ok', content: { 'application/json': {} } } },
      },
    },
    '/images/{uuid}/file': {
      put: {
        operationId: 'images_upload_file',
        parameters: [
          { $ref: '#/components/parameters/Uuid' },
          { name: 'X-Container', in: 'header', required: true, schema: { type: 'string' } },
        ],
        requestBody: { content: { 'application/octet-stream': { schema: { type: 'string' } } } },
        responses: { 204: { description: 'done' } },
      },
      get: {
        operationId: 'images_download_file',
        parameters: [{ $ref: '#/components/parameters/Uuid' }],
        responses: { 200: { description: 'bytes', content: { 'application/octet-stream': {} } } },
      },
    },
  },
  components: {
    parameters: { Uuid: { name: 'uuid', in: 'path', required: true, schema: { type: 'string' }, example: 'a b' } },
  },
};

describe('code samples', () => {
  it('names the client factory after the API', () => {
    expect(clientFactory('central')).toBe('createCentralClient');
    expect(clientFactory('objects')).toBe('createObjectsClient');
  });

  it('takes the endpoint from the first server, the host from SVC_HOST', () => {
    expect(serverParts(doc)).toEqual([
      { text: 'https://' },
      { env: 'SVC_HOST' },
      { text: ':' },
      { text: '9440' },
      { text: '/api/svc/v3' },
    ]);
    expect(() => serverParts({ servers: [{ url: 'https://{host}{x}' }] })).toThrow(/\{x\} has no default/);
    expect(() => serverParts({})).toThrow(/no server/);
  });

  it('quotes for the shell and writes TypeScript literals', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(literal({ kind: 'image', 'a-b': [1, null], s: "it's" })).toBe(
      `{ kind: 'image', 'a-b': [1, null], s: 'it\\'s' }`,
    );
  });

  it('curl: -k, -u from the environment, the filled path and the JSON body', () => {
    const [update] = operations(doc);
    const shell = curl(sampleRequest('central', doc, update.path, update.method, update.pathItem, update.operation));
    expect(shell).toContain('curl -k -u "$SVC_USER:$SVC_PASSWORD"');
    expect(shell).toContain('-X PUT "https://$SVC_HOST:9440/api/svc/v3/images/a%20b"');
    expect(shell).toContain("-H 'Content-Type: application/json'");
    expect(shell).toContain(`--data-raw '{\n  "spec": {\n    "name": "it'\\''s"\n  }\n}'`);
  });

  it('curl and client for a binary upload and download', () => {
    const byId = Object.fromEntries(operations(doc).map((o) => [o.operation.operationId, o]));
    const upload = byId.images_upload_file;
    const download = byId.images_download_file;
    const shell = curl(sampleRequest('central', doc, upload.path, upload.method, upload.pathItem, upload.operation));
    expect(shell).toContain("-H 'X-Container: <X-Container>'");
    expect(shell).toContain("-H 'Content-Type: application/octet-stream'");
    expect(shell).toContain('--data-binary @image.qcow2');
    const client = typescript(
      sampleRequest('central', doc, upload.path, upload.method, upload.pathItem, upload.operation),
    );
    expect(client).toContain("import { readFile } from 'node:fs/promises';");
    expect(client).toContain("await client.PUT('/images/{uuid}/file', {");
    expect(client).toContain("body: await readFile('image.qcow2')");
    expect(client).toContain("'Content-Type': 'application/octet-stream'");
    const get = typescript(
      sampleRequest('central', doc, download.path, download.method, download.pathItem, download.operation),
    );
    expect(get).toContain("parseAs: 'arrayBuffer'");
    expect(get).toContain("await writeFile('image.qcow2', new Uint8Array(data));");
    expect(
      curl(sampleRequest('central', doc, download.path, download.method, download.pathItem, download.operation)),
    ).toContain('-o image.qcow2');
  });

  it('python: requests with the JSON body as a Python literal, a file body from open()', () => {
    const byId = Object.fromEntries(operations(doc).map((o) => [o.operation.operationId, o]));
    const request = (id) =>
      sampleRequest('central', doc, byId[id].path, byId[id].method, byId[id].pathItem, byId[id].operation);
    const update = python({
      ...request('images_update'),
      body: { kind: 'json', contentType: 'application/json', value: { a: true, b: null, c: "it's" } },
    });
    expect(update).toContain(`    'PUT',\n    f"https://{os.environ['SVC_HOST']}:9440/api/svc/v3/images/a%20b",`);
    expect(update).toContain("auth=(os.environ['SVC_USER'], os.environ['SVC_PASSWORD'])");
    expect(update).toContain(`json={'a': True, 'b': None, 'c': 'it\\'s'},`);
    expect(update).toContain('verify=False,');
    const upload = python(request('images_upload_file'));
    expect(upload).toContain("with open('image.qcow2', 'rb') as body:");
    expect(upload).toContain('data=body,');
    expect(upload).toContain("'X-Container': '<X-Container>'");
  });

  it('go and powershell: method, URL, headers, body, credentials from the environment', () => {
    const byId = Object.fromEntries(operations(doc).map((o) => [o.operation.operationId, o]));
    const request = (id) =>
      sampleRequest('central', doc, byId[id].path, byId[id].method, byId[id].pathItem, byId[id].operation);
    const update = {
      ...request('images_update'),
      params: { path: [{ name: 'uuid', value: 'a b' }], query: [], header: [{ name: 'X-Trace', value: "it's" }] },
    };
    const goUpdate = go(update);
    expect(goUpdate).toContain('requestUrl := "https://" + os.Getenv("SVC_HOST") + ":9440/api/svc/v3/images/a%20b"');
    expect(goUpdate).toContain('http.NewRequest("PUT", requestUrl, payload)');
    expect(goUpdate).toContain('req.SetBasicAuth(os.Getenv("SVC_USER"), os.Getenv("SVC_PASSWORD"))');
    expect(goUpdate).toContain('req.Header.Add("Content-Type", "application/json")');
    expect(goUpdate).toContain('req.Header.Add("X-Trace", "it\'s")');
    expect(goUpdate).toContain(`"name": "it's"`);
    const psUpdate = powershell(update);
    expect(psUpdate).toContain(
      "-Uri ('https://' + $env:SVC_HOST + ':9440/api/svc/v3/images/a%20b') -Method 'PUT' -Headers $headers -Body $body.ToArray()",
    );
    expect(psUpdate).toContain('[pscredential]::new($env:SVC_USER, (ConvertTo-SecureString $env:SVC_PASSWORD');
    expect(psUpdate).toContain('-Authentication Basic -Credential $credential');
    expect(psUpdate).toContain("'Content-Type' = 'application/json'");
    expect(psUpdate).toContain("'X-Trace' = 'it''s'");
    expect(psUpdate).toContain(`GetBytes('{"spec":{"name":"it''s"}}')`);
    // Plain http: PowerShell needs to be told to send basic auth unencrypted.
    const local = { ...update, insecure: false, server: [{ text: 'http://127.0.0.1:8080/local/api/svc/v3' }] };
    expect(powershell(local)).toContain('-AllowUnencryptedAuthentication');
    expect(powershell(update)).not.toContain('-AllowUnencryptedAuthentication');
    // A file body is read from the file; a download is written to one.
    const upload = request('images_upload_file');
    expect(go(upload)).toContain('payload, _ := os.Open("image.qcow2")');
    expect(go(upload)).toContain('http.NewRequest("PUT", requestUrl, payload)');
    expect(powershell(upload)).toContain("-InFile 'image.qcow2'");
    const download = request('images_download_file');
    expect(go(download)).toContain('os.WriteFile("image.qcow2", body, 0o644)');
    expect(powershell(download)).toContain('-OutFile image.qcow2');
    for (const source of [goUpdate, psUpdate, go(upload), powershell(upload)]) {
      expect(source).not.toMatch(/Authorization|Basic [A-Za-z0-9+/=]{8,}/);
    }
  });

  it('skips TLS verification in all five languages or in none (curl -k)', () => {
    const [update] = operations(doc);
    const request = sampleRequest('central', doc, update.path, update.method, update.pathItem, update.operation);
    const on = [curl(request), typescript(request), python(request), go(request), powershell(request)];
    expect(on[0]).toContain('curl -k ');
    expect(on[1]).toContain('insecureSkipTlsVerify: true');
    expect(on[2]).toContain('verify=False');
    expect(on[3]).toContain('TLSClientConfig: &tls.Config{InsecureSkipVerify: true}');
    expect(on[4]).toContain('-SkipCertificateCheck');
    const off = { ...request, insecure: false, server: [{ text: 'https://pc.example:9440/api/svc/v3' }] };
    expect(curl(off)).not.toContain('-k');
    expect(typescript(off)).not.toContain('insecureSkipTlsVerify');
    expect(python(off)).not.toContain('verify=');
    expect(go(off)).not.toContain('InsecureSkipVerify');
    expect(powershell(off)).not.toContain('SkipCertificateCheck');
    expect(curl(off)).toContain('"https://pc.example:9440/api/svc/v3/images/a%20b"');
  });

  it('gives the five samples of a request, labelled', () => {
    const [update] = operations(doc);
    const samples = samplesOf(
      sampleRequest('central', doc, update.path, update.method, update.pathItem, update.operation),
    );
    expect(samples.map((s) => [s.lang, s.label])).toEqual([
      ['Shell', LABELS.curl],
      ['TypeScript', '@svc/client'],
      ['Python', 'Python (requests)'],
      ['Go', 'Go'],
      ['PowerShell', 'PowerShell'],
    ]);
  });
});

describe('TypeScript samples of the bundles', () => {
  const work = mkdtempSync(join(packageDir, '.samples-check-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('type-check against @svc/client (paths, parameters, bodies)', () => {
    const files = [];
    for (const api of apis()) {
      const document = JSON.parse(readFileSync(api.bundleJson, 'utf8'));
      for (const { path, method, pathItem, operation } of operations(document)) {
        const file = join(work, `${api.name}.${operation.operationId}.ts`);
        writeFileSync(file, typescript(sampleRequest(api.name, document, path, method, pathItem, operation)));
        files.push(file);
      }
    }
    expect(files.length).toBeGreaterThan(20);
    // Control: a call the client does not have must be reported, or this check proves nothing.
    const control = join(work, 'control.ts');
    writeFileSync(
      control,
      "import { createCentralClient } from '@svc/client';\nconst c = createCentralClient({ baseUrl: 'x', username: 'u', password: 'p' });\nawait c.POST('/no/such/path', {});\n",
    );
    files.push(control);
    const program = ts.createProgram(files, {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ['node'],
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file
        ? `${d.file.fileName.slice(work.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
        : '';
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    expect(problems.filter((p) => p.startsWith('control.ts'))).not.toEqual([]);
    expect(problems.filter((p) => !p.startsWith('control.ts'))).toEqual([]);
  });
});

describe('Python samples of the bundles', () => {
  it('compile with python3 (py_compile), and a broken control does not', () => {
    const work = mkdtempSync(join(tmpdir(), 'explorer-py-'));
    try {
      const files = [];
      for (const api of apis()) {
        const document = JSON.parse(readFileSync(api.bundleJson, 'utf8'));
        for (const { path, method, pathItem, operation } of operations(document)) {
          const file = join(work, `${api.name}_${operation.operationId}.py`);
          writeFileSync(file, python(sampleRequest(api.name, document, path, method, pathItem, operation)));
          files.push(file);
        }
      }
      expect(files.length).toBeGreaterThan(20);
      const compile = (list) => spawnSync('python3', ['-m', 'py_compile', ...list], { encoding: 'utf8' });
      const result = compile(files);
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      const control = join(work, 'control.py');
      writeFileSync(control, "response = requests.request(\n    'GET',\n");
      expect(compile([control]).status).not.toBe(0);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});

describe('Go samples of the bundles', () => {
  it('build with go (one package, a file per sample), and a broken control does not', () => {
    const work = mkdtempSync(join(tmpdir(), 'explorer-go-'));
    const env = { ...process.env, ...goEnv() };
    const build = () =>
      spawnSync('go', ['build', '-o', join(work, 'out'), '.'], { cwd: work, encoding: 'utf8', env, timeout: 240_000 });
    try {
      // One compilation: each sample's main() becomes a function of its own file (imports are per file).
      writeFileSync(join(work, 'go.mod'), 'module samples\n\ngo 1.19\n');
      writeFileSync(join(work, 'main.go'), 'package main\n\nfunc main() {}\n');
      let count = 0;
      for (const api of apis()) {
        const document = JSON.parse(readFileSync(api.bundleJson, 'utf8'));
        for (const { path, method, pathItem, operation } of operations(document)) {
          const request = sampleRequest(api.name, document, path, method, pathItem, operation);
          for (const insecure of [false, true]) {
            const source = go({ ...request, insecure });
            expect(source).toContain('\nfunc main() {\n');
            writeFileSync(join(work, `sample${count}.go`), source.replace('func main()', `func sample${count}()`));
            count++;
          }
        }
      }
      expect(count).toBeGreaterThan(40);
      const result = build();
      expect(result.error).toBeUndefined();
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      writeFileSync(join(work, 'control.go'), 'package main\n\nimport "os"\n\nfunc control() {}\n');
      expect(build().stderr).toMatch(/control\.go.*imported and not used/);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
