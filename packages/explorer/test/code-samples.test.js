// The build-time x-codeSamples: unit cases on small documents, and every TypeScript sample of
// the real bundles type-checked against @svc/client, so that a sample cannot drift from the client.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import {
  clientFactory,
  clientSample,
  curlSample,
  serverOf,
  shellQuote,
  tsLiteral,
  withCodeSamples,
} from '../scripts/code-samples.mjs';
import { operations } from '@svc/oas';
import { apis } from '@svc/oas/apis';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/** A small document: one JSON operation with a path parameter, one binary upload. */
const doc = {
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  servers: [{ url: 'https://{host}:{port}/api/svc/v3', variables: { host: { default: 'localhost' }, port: { default: '9440' } } }],
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
        parameters: [{ $ref: '#/components/parameters/Uuid' }, { name: 'X-Container', in: 'header', required: true, schema: { type: 'string' } }],
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
  components: { parameters: { Uuid: { name: 'uuid', in: 'path', required: true, schema: { type: 'string' }, example: 'a b' } } },
};

describe('code samples', () => {
  it('names the client factory after the API', () => {
    expect(clientFactory('central')).toBe('createCentralClient');
    expect(clientFactory('objects')).toBe('createObjectsClient');
  });

  it('takes the endpoint from the first server, the host from SVC_HOST', () => {
    expect(serverOf(doc)).toEqual({ shell: 'https://$SVC_HOST:9440/api/svc/v3', ts: 'https://${process.env.SVC_HOST}:9440/api/svc/v3' });
    expect(() => serverOf({ servers: [{ url: 'https://{host}{x}' }] })).toThrow(/\{x\} has no default/);
    expect(() => serverOf({})).toThrow(/no server/);
  });

  it('quotes for the shell and writes TypeScript literals', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(tsLiteral({ kind: 'image', 'a-b': [1, null], s: "it's" })).toBe(`{ kind: 'image', 'a-b': [1, null], s: 'it\\'s' }`);
  });

  it('curl: -k, -u from the environment, the filled path and the JSON body', () => {
    const [update] = operations(doc);
    const curl = curlSample(doc, update.path, update.method, update.pathItem, update.operation);
    expect(curl).toContain('curl -k -u "$SVC_USER:$SVC_PASSWORD"');
    expect(curl).toContain('-X PUT "https://$SVC_HOST:9440/api/svc/v3/images/a%20b"');
    expect(curl).toContain("-H 'Content-Type: application/json'");
    expect(curl).toContain(`--data-raw '{\n  "spec": {\n    "name": "it'\\''s"\n  }\n}'`);
  });

  it('curl and client for a binary upload and download', () => {
    const byId = Object.fromEntries(operations(doc).map((o) => [o.operation.operationId, o]));
    const upload = byId.images_upload_file;
    const download = byId.images_download_file;
    const curl = curlSample(doc, upload.path, upload.method, upload.pathItem, upload.operation);
    expect(curl).toContain("-H 'X-Container: <X-Container>'");
    expect(curl).toContain("-H 'Content-Type: application/octet-stream'");
    expect(curl).toContain('--data-binary @image.qcow2');
    const client = clientSample('central', doc, upload.path, upload.method, upload.pathItem, upload.operation);
    expect(client).toContain("import { readFile } from 'node:fs/promises';");
    expect(client).toContain("await client.PUT('/images/{uuid}/file', {");
    expect(client).toContain("body: await readFile('image.qcow2')");
    expect(client).toContain("'Content-Type': 'application/octet-stream'");
    const get = clientSample('central', doc, download.path, download.method, download.pathItem, download.operation);
    expect(get).toContain("parseAs: 'arrayBuffer'");
    expect(get).toContain("await writeFile('image.qcow2', new Uint8Array(data));");
    expect(curlSample(doc, download.path, download.method, download.pathItem, download.operation)).toContain('-o image.qcow2');
  });

  it('adds both samples to every operation without touching the input, keeping other samples', () => {
    const input = structuredClone(doc);
    input.paths['/images/{uuid}'].put['x-codeSamples'] = [{ lang: 'Go', label: 'go', source: 'x' }, { lang: 'Shell', label: 'curl', source: 'old' }];
    const out = withCodeSamples('central', input);
    expect(out.paths['/images/{uuid}'].put['x-codeSamples'].map((s) => s.label)).toEqual(['go', 'curl', '@svc/client']);
    expect(out.paths['/images/{uuid}'].put['x-codeSamples'][1].source).not.toBe('old');
    expect(input.paths['/images/{uuid}'].put['x-codeSamples']).toHaveLength(2);
    for (const { operation } of operations(out)) expect(operation['x-codeSamples'].length).toBeGreaterThanOrEqual(2);
  });
});

describe('TypeScript samples of the bundles', () => {
  const work = mkdtempSync(join(packageDir, '.samples-check-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('type-check against @svc/client (paths, parameters, bodies)', () => {
    const files = [];
    for (const api of apis()) {
      const document = JSON.parse(readFileSync(api.bundleJson, 'utf8'));
      for (const { operation } of operations(withCodeSamples(api.name, document))) {
        const sample = operation['x-codeSamples'].find((s) => s.label === '@svc/client');
        const file = join(work, `${api.name}.${operation.operationId}.ts`);
        writeFileSync(file, sample.source);
        files.push(file);
      }
    }
    expect(files.length).toBeGreaterThan(20);
    // Control: a call the client does not have must be reported, or this check proves nothing.
    const control = join(work, 'control.ts');
    writeFileSync(control, "import { createCentralClient } from '@svc/client';\nconst c = createCentralClient({ baseUrl: 'x', username: 'u', password: 'p' });\nawait c.POST('/no/such/path', {});\n");
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
      const where = d.file ? `${d.file.fileName.slice(work.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : '';
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    expect(problems.filter((p) => p.startsWith('control.ts'))).not.toEqual([]);
    expect(problems.filter((p) => !p.startsWith('control.ts'))).toEqual([]);
  }, 120_000);
});
