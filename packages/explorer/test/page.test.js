// The page's logic that does not need a browser: error explanations, search, workflow values.
import { readFileSync } from 'node:fs';
import { apis } from '@svc/oas/apis';
import { describe, expect, it } from 'vitest';
import { searchIndexOf, stripAuthorNotes } from '../scripts/search-index.mjs';
import { workflowView } from '../src/page/components/workflow-view.js';
import { explain, paramErrors, UUID_MESSAGE, validationMessages } from '../src/page/errors.js';
import { answerLinks } from '../src/page/links.js';
import { localExampleBody, SAMPLE_IMAGE_PATH } from '../src/page/local-examples.js';
import { matchingIds, operationLink, queryWords, search } from '../src/page/search.js';
import { parsedJson } from '../src/page/spec-json.js';
import { kindOf, newestUuid, uuidsOf } from '../src/page/uuid-sources.js';
import { linkValues, pointerGet, pointerSet, resolveValue, stepInputs, stepState } from '../src/page/workflow.js';

describe('explain', () => {
  it('leaves answers that are not errors alone', () => {
    expect(explain({ status: 200, headers: {}, text: '{}' })).toBeNull();
    expect(explain({ status: 404, headers: {}, text: '<html></html>' })).toBeNull();
  });

  it('a 401 (HTML body) says to click Authorize', () => {
    const why = explain({ status: 401, headers: {}, text: '<html><body><h2>HTTP ERROR 401</h2></body></html>' });
    expect(why.authorize).toBe(true);
    expect(why.lines[0]).toMatch(/^Click Authorize/);
  });

  it('a 401 tells missing credentials from a refused password, and names the printed export line', () => {
    const text = '<html><body><h2>HTTP ERROR 401</h2></body></html>';
    const missing = explain({ status: 401, headers: {}, text, user: null });
    const refused = explain({ status: 401, headers: {}, text, user: 'admin' });
    expect(missing.title).toBe('401 Unauthorized: the request had no credentials.');
    expect(refused.title).toBe('401 Unauthorized: the service refused the password of user "admin".');
    for (const why of [missing, refused]) expect(why.lines.join(' ')).toContain('export SVC_USER=admin SVC_PASSWORD=');
  });

  it('a v3 error body: reason, message and each field of the details', () => {
    const body = {
      api_version: '3.1',
      code: 422,
      state: 'ERROR',
      message_list: [
        {
          reason: 'INVALID_REQUEST',
          message: 'Request could not be processed.',
          details: {
            'spec.resources.image_type': "'CD_IMAGE' is not one of ['DISK_IMAGE', 'ISO_IMAGE']",
            '': ['a', 'b'],
          },
        },
      ],
    };
    expect(explain({ status: 422, headers: {}, text: JSON.stringify(body) })).toEqual({
      title: '422: the service refused the request.',
      lines: [
        'INVALID_REQUEST: Request could not be processed.',
        "field spec.resources.image_type: 'CD_IMAGE' is not one of ['DISK_IMAGE', 'ISO_IMAGE']",
        'a; b',
      ],
      authorize: false,
    });
  });

  it("Prism's sl-violations header, and an element error body", () => {
    const violations = JSON.stringify([
      {
        location: ['request', 'body', 'spec'],
        severity: 'Error',
        code: 'required',
        message: "must have required property 'name'",
      },
    ]);
    expect(
      explain({ status: 422, headers: { 'sl-violations': violations }, text: '{"message_list":[]}' }).lines,
    ).toEqual(["The mock (Prism) refused the request: request.body.spec: must have required property 'name'"]);
    // Prism's body is the spec's example of the error: its message is not about this request.
    const example = JSON.stringify({ message_list: [{ reason: 'INVALID_ARGUMENT', message: 'Name is too long.' }] });
    expect(explain({ status: 422, headers: { 'sl-violations': violations }, text: example }).lines).toEqual([
      "The mock (Prism) refused the request: request.body.spec: must have required property 'name'",
    ]);
    expect(
      explain({
        status: 400,
        headers: { 'sl-violations': 'not json' },
        text: '{"message":"Invalid filter criteria specified."}',
      }).lines,
    ).toEqual(['Invalid filter criteria specified.']);
  });
});

const document = {
  openapi: '3.1.0',
  info: {
    title: 'x',
    version: '1',
    description: 'For readers.\n\n<!-- For spec authors: keep this in sync with docs/extensions.md. -->\n',
  },
  tags: [{ name: 'Images', description: 'Images <!-- note --> here.' }, { name: 'Unused' }],
  paths: {
    '/images/list': {
      post: {
        operationId: 'images_list',
        tags: ['Images'],
        summary: 'List images',
        description: 'Pages with `offset`; filter with FIQL.',
      },
    },
    '/tasks/{uuid}': { get: { operationId: 'tasks_get', tags: ['Tasks'], summary: 'Get a task' } },
  },
  'x-svc-workflow': [
    {
      workflowId: 'w',
      summary: 'W',
      steps: [{ operationId: 'images_list' }, { stepId: 'task', operationId: 'tasks_get' }],
    },
    { name: 'old shape without workflowId', steps: [] },
  ],
};

describe('search', () => {
  const index = [searchIndexOf('central', 'central API', document)];

  it('indexes tags in order, operations with their text, workflows with step ids', () => {
    expect(index[0].tags).toEqual([
      { name: 'Images', operations: ['images_list'] },
      { name: 'Tasks', operations: ['tasks_get'] },
    ]);
    expect(index[0].operations.images_list).toMatchObject({
      tag: 'Images',
      method: 'post',
      path: '/images/list',
      summary: 'List images',
    });
    expect(index[0].workflows.map((w) => w.workflowId)).toEqual(['w']);
    expect(index[0].workflows[0].steps.map((s) => s.stepId)).toEqual(['step1', 'task']);
  });

  it('matches every word; a method word matches the method only; descriptions count', () => {
    expect(queryWords('  Get  V2.0 ')).toEqual(['get', 'v2.0']);
    expect(search(index, 'fiql')[0].operations.map((o) => o.operationId)).toEqual(['images_list']);
    expect(search(index, 'get')[0].operations.map((o) => o.operationId)).toEqual(['tasks_get']);
    expect(search(index, 'post task')[0].operations).toEqual([]);
    expect(matchingIds(index, 'central', '')).toEqual(new Set(['images_list', 'tasks_get']));
    expect(operationLink('element', 'Images (v2.0)', 'images_list_v2_0', { q: 'a b' })).toBe(
      '?api=element&q=a+b#/Images%20(v2.0)/images_list_v2_0',
    );
  });

  it('allows a typo and a prefix, and ranks the closer match first', () => {
    expect(search(index, 'imges')[0].operations.map((o) => o.operationId)).toEqual(['images_list']);
    expect(search(index, 'imges')[0].operations.map((o) => o.operationId)).not.toContain('tasks_get');
    expect(search(index, 'ima')[0].operations.map((o) => o.operationId)).toEqual(['images_list']);
    // Ranked: the operation named for the word comes before one that only mentions it, whatever the order.
    const op = (summary, text) => ({ tag: 't', method: 'get', path: '/x', summary, text });
    const ranked = [
      {
        api: 'a',
        name: 'A',
        operations: { mentions: op('Get a task', 'get a task of any image'), named: op('List images', 'list images') },
      },
    ];
    expect(search(ranked, 'image')[0].operations.map((o) => o.operationId)).toEqual(['named', 'mentions']);
  });

  it('forgives two letters swapped and an abbreviation: each finds its operation first in the bundles', () => {
    const bundles = apis().map((a) => searchIndexOf(a.name, a.name, JSON.parse(readFileSync(a.bundleJson, 'utf8'))));
    const first = (query) =>
      search(bundles, query)
        .flatMap((r) => r.operations.map((o) => o.operationId))
        .at(0);
    expect(first('uplaod')).toBe('images_upload_file');
    expect(first('objstore')).toMatch(/^objectstores_/);
    expect(first('list imgs')).toBe('images_list');
    // still exact where it was: one operation speaks of FIQL, nothing of zzz
    expect(search(bundles, 'fiql').flatMap((r) => r.operations.map((o) => o.operationId))).toEqual([
      'storage_containers_list_v2_0',
    ]);
    expect(search(bundles, 'zzz-nothing').flatMap((r) => r.operations)).toEqual([]);
  });

  it('strips notes for spec authors (HTML comments) from descriptions', () => {
    const stripped = stripAuthorNotes(structuredClone(document));
    expect(stripped.info.description).toBe('For readers.\n');
    expect(stripped.tags[0].description).toBe('Images  here.');
    expect(JSON.stringify(stripped)).not.toContain('<!--');
  });
});

describe("a spec's text", () => {
  it('reads a JSON object itself and leaves everything else to Swagger UI (YAML, errors)', () => {
    const central = readFileSync(apis().find((a) => a.name === 'central').bundleJson, 'utf8');
    expect(parsedJson(central)).toEqual(JSON.parse(central));
    expect(parsedJson(' \n{"openapi": "3.1.0"}')).toEqual({ openapi: '3.1.0' });
    for (const other of ['openapi: 3.1.0\ninfo: {}\n', '{"openapi": "3.1.0",}', '{openapi: 3.1.0}', '[{}]', '', null])
      expect(parsedJson(other)).toBeUndefined();
  });
});

describe('workflow values', () => {
  const answers = {
    create: {
      status: 202,
      headers: { location: '/x' },
      body: { status: { execution_context: { task_uuid: 't-1' } }, list: [{ 'a/b': 1 }] },
    },
  };

  it('reads JSON pointers and runtime expressions', () => {
    expect(pointerGet(answers.create.body, '/list/0/a~1b')).toBe(1);
    expect(pointerGet(answers.create.body, '/nope/x')).toBeUndefined();
    expect(resolveValue('$steps.create.response.body#/status/execution_context/task_uuid', answers)).toEqual({
      found: true,
      value: 't-1',
    });
    expect(resolveValue('$steps.create.response.header.Location', answers)).toEqual({ found: true, value: '/x' });
    expect(resolveValue('$steps.later.response.body#/a', answers)).toEqual({ found: false, step: 'later' });
    expect(resolveValue('literal', answers)).toEqual({ found: true, value: 'literal' });
  });

  it('fills parameters and body fields, naming the steps still missing', () => {
    const step = {
      parameters: [
        { name: 'uuid', in: 'path', value: '$steps.create.response.body#/status/execution_context/task_uuid' },
        { name: 'x', in: 'query', value: '$steps.other.response.body#/x' },
      ],
      requestBody: [
        { pointer: '/spec/resources/task', value: '$steps.create.response.body#/status/execution_context/task_uuid' },
      ],
    };
    expect(stepInputs(step, answers)).toEqual({
      parameters: [{ name: 'uuid', in: 'path', value: 't-1' }],
      body: [{ pointer: '/spec/resources/task', value: 't-1' }],
      missing: ['other'],
    });
    const body = { spec: {} };
    pointerSet(body, '/spec/list/0/name', 'n');
    expect(body).toEqual({ spec: { list: [{ name: 'n' }] } });
  });

  it('tells done, repeat and failed apart with until', () => {
    const step = { until: { pointer: '/status', equals: ['SUCCEEDED'], failOn: ['FAILED'] } };
    expect(stepState(step, undefined)).toEqual({ state: 'waiting' });
    expect(stepState(step, { status: 200, body: { status: 'RUNNING' } })).toEqual({
      state: 'repeat',
      value: 'RUNNING',
    });
    expect(stepState(step, { status: 200, body: { status: 'SUCCEEDED' } })).toEqual({
      state: 'done',
      value: 'SUCCEEDED',
    });
    expect(stepState(step, { status: 200, body: { status: 'FAILED' } })).toEqual({ state: 'failed', value: 'FAILED' });
    expect(stepState({}, { status: 404, body: {} })).toEqual({ state: 'failed' });
    expect(stepState({}, { status: 201, body: {} })).toEqual({ state: 'done' });
  });

  it("takes an OpenAPI link's parameters from the answer", () => {
    const answer = { headers: { location: '/l' }, body: { status: { execution_context: { task_uuid: 't-9' } } } };
    expect(
      linkValues(
        {
          operationId: 'tasks_get',
          parameters: {
            uuid: '$response.body#/status/execution_context/task_uuid',
            'header.X-Where': '$response.header.Location',
            fixed: 3,
          },
        },
        answer,
      ),
    ).toEqual([
      { name: 'uuid', value: 't-9' },
      { name: 'X-Where', in: 'header', value: '/l' },
      { name: 'fixed', value: 3 },
    ]);
    expect(linkValues({ parameters: { uuid: '$response.body#/missing' } }, answer)).toBeNull();
  });
});

describe('one message for a bad UUID', () => {
  const pattern =
    'Value must follow pattern ^[a-fA-F0-9]{8}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{12}$';
  it("replaces Swagger UI's Guid and pattern errors of a value with one", () => {
    expect(paramErrors([pattern, 'Value must be a Guid'])).toEqual([UUID_MESSAGE]);
    expect(paramErrors(['Required field is not provided'])).toEqual(['Required field is not provided']);
    expect(paramErrors(['Value must follow pattern ^a$'])).toEqual(['Value must follow pattern ^a$']);
  });
  it('does so per parameter in the list under Execute, leaving the others', () => {
    expect(
      validationMessages([
        `For 'uuid': ${pattern}.`,
        "For 'uuid': Value must be a Guid.",
        "For 'name': Value must follow pattern ^a$.",
      ]),
    ).toEqual([`For 'uuid': ${UUID_MESSAGE}.`, "For 'name': Value must follow pattern ^a$."]);
  });
});

describe('what the components show, as functions', () => {
  it('names the UUIDs an answer gives by kind: its entity, a list first entity, its links', () => {
    expect(kindOf('/images/{uuid}/file', 'uuid')).toBe('images');
    expect(kindOf('/v0.8/tasks/{uuid}/poll', 'uuid')).toBe('tasks');
    expect(kindOf('/images/list')).toBe('images');
    expect(kindOf('/v2.0/storage_containers')).toBe('storage_containers');
    const task = '7f3c2a1e-5b4d-4e8f-9a6c-1d2b3e4f5a60';
    const image = 'c2d4b1f5-8a3e-4c6b-9f1d-2e7a5b3c9d10';
    const container = '66316fa9-e2d1-4ed8-a38b-39ac982db28f';
    expect(
      uuidsOf({
        path: '/images',
        params: {},
        body: { metadata: { uuid: image } },
        links: [{ target: { path: '/tasks/{uuid}' }, values: [{ name: 'uuid', value: task }] }],
      }),
    ).toEqual([
      { kind: 'tasks', uuid: task },
      { kind: 'images', uuid: image },
    ]);
    expect(
      uuidsOf({
        path: '/v2.0/storage_containers',
        params: {},
        body: { entities: [{ storage_container_uuid: container }, { storage_container_uuid: task }] },
        links: [],
      }),
    ).toEqual([{ kind: 'storage_containers', uuid: container }]);
    expect(
      uuidsOf({ path: '/images/list', params: {}, body: { entities: [{ uuid: 'not-a-uuid' }] }, links: [] }),
    ).toEqual([]);
    const entries = [
      { api: 'element', uuids: [{ kind: 'images', uuid: container }] },
      { api: 'central', uuids: [{ kind: 'tasks', uuid: task }] },
      { api: 'central', uuids: [{ kind: 'images', uuid: image }] },
    ];
    expect(newestUuid(entries, 'central', 'images')).toEqual({ uuid: image, entry: entries[2] });
    expect(newestUuid(entries, 'objects', 'images')).toBeNull();
  });

  it('says a complete workflow offers nothing to Execute, and a step that needs a file says so', () => {
    const workflow = {
      steps: [{ stepId: 'a' }, { stepId: 'b', until: { pointer: '/state', equals: ['DONE'] } }],
    };
    const done = { status: 200, body: { state: 'DONE' } };
    expect(workflowView({ workflow, step: 1 }, { a: done, b: done })).toMatchObject({
      complete: true,
      execute: false,
      poll: false,
      next: false,
      state: 'complete',
      words: 'Workflow complete: all 2 steps done.',
    });
    expect(workflowView({ workflow, step: 0 }, {}, { needsFile: true })).toMatchObject({
      complete: false,
      execute: true,
      state: 'file',
      words: 'needs a file: choose it under Request body ("Choose File"), then Execute',
    });
    expect(workflowView({ workflow, step: 0 }, { a: done })).toMatchObject({ next: true, state: 'done' });
    expect(
      workflowView({ workflow, step: 1 }, { a: done, b: { status: 200, body: { state: 'RUNNING' } } }),
    ).toMatchObject({ poll: true, state: 'repeat', words: 'not yet: Execute again (/state = "RUNNING")' });
  });

  it("points an untouched example's source_uri at the local svc; leaves what the user typed", () => {
    const spec = {
      paths: {
        '/images': {
          post: {
            requestBody: {
              content: {
                'application/json': {
                  examples: { a: { value: { spec: { resources: { source_uri: 'https://example.org/x.img' } } } } },
                },
              },
            },
          },
        },
      },
    };
    const example = JSON.stringify({ spec: { resources: { source_uri: 'https://example.org/x.img' } } }, null, 2);
    const local = localExampleBody(spec, ['/images', 'post'], example, 'https://127.0.0.1:9440');
    expect(JSON.parse(String(local)).spec.resources.source_uri).toBe(`https://127.0.0.1:9440${SAMPLE_IMAGE_PATH}`);
    const typed = JSON.stringify({ spec: { resources: { source_uri: 'https://example.org/mine.img' } } });
    expect(localExampleBody(spec, ['/images', 'post'], typed, 'https://127.0.0.1:9440')).toBe(typed);
    expect(localExampleBody(spec, ['/images', 'post'], 'not json source_uri', 'https://127.0.0.1:9440')).toBe(
      'not json source_uri',
    );
  });

  it("lists an answer's links with values, a header link's location kept", () => {
    const spec = {
      paths: {
        '/v2.0/storage_containers': {
          get: {
            responses: {
              200: {
                links: {
                  Up: {
                    operationId: 'upload',
                    parameters: { 'header.X-C': '$response.body#/entities/0/c' },
                  },
                  Gone: { operationId: 'nowhere' },
                },
              },
            },
          },
        },
      },
    };
    const operations = { upload: { tag: 'U', method: 'put', path: '/v0.8/images/{uuid}/upload' } };
    const answer = { status: 200, headers: {}, body: { entities: [{ c: 'c-1' }] } };
    expect(answerLinks(spec, operations, '/v2.0/storage_containers', 'get', answer)).toEqual([
      {
        name: 'Up',
        description: 'upload',
        operationId: 'upload',
        target: operations.upload,
        values: [{ name: 'X-C', in: 'header', value: 'c-1' }],
      },
    ]);
    expect(answerLinks(spec, operations, '/v2.0/storage_containers', 'get', { ...answer, status: 404 })).toEqual([]);
  });
});
