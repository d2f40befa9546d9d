// The page's logic that does not need a browser: error explanations, search, workflow values.
import { readFileSync } from 'node:fs';
import { apis } from '@svc/oas/apis';
import { describe, expect, it } from 'vitest';
import { searchIndexOf, stripAuthorNotes } from '../scripts/search-index.mjs';
import {
  bytes,
  isWrite,
  ownEntryIds,
  stateKind,
  summaryLine,
  taskTitle,
  unfinishedTasks,
  violationField,
} from '../src/page/components/state-words.js';
import { failureWords, workflowView } from '../src/page/components/workflow-view.js';
import { explain, fixesFor, paramErrors, UUID_MESSAGE, validationMessages } from '../src/page/errors.js';
import { freshName, latestOf, newestFirst, pickKnown } from '../src/page/knowledge.js';
import { answerLinks } from '../src/page/links.js';
import { localBody, SAMPLE_IMAGE_PATH } from '../src/page/local-examples.js';
import {
  bodyReferences,
  missingReferences,
  needsUnfinishedTask,
  parameterKind,
  selfReference,
} from '../src/page/references.js';
import { expansionsOf, matchingIds, operationLink, queryWords, search } from '../src/page/search.js';
import { parsedJson } from '../src/page/spec-json.js';
import { goneOf, kindOf, uuidsOf } from '../src/page/uuid-sources.js';
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
    // letters where the word has consonants, vowels dropped (issue 60), and a four-letter one
    expect(first('tsk')).toMatch(/^tasks_/);
    expect(first('tsk poll')).toBe('tasks_poll');
    expect(first('imgs')).toMatch(/^images_/);
    expect(first('ctnr')).toMatch(/^storage_containers_/);
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
  it('names the UUIDs an answer gives by kind: its entity, every entity of a list, its links', () => {
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
        body: { entities: [{ storage_container_uuid: container, name: 'ISO' }, { storage_container_uuid: task }] },
        links: [],
      }),
    ).toEqual([
      { kind: 'storage_containers', uuid: container, name: 'ISO' },
      { kind: 'storage_containers', uuid: task },
    ]);
    expect(
      uuidsOf({ path: '/images/list', params: {}, body: { entities: [{ uuid: 'not-a-uuid' }] }, links: [] }),
    ).toEqual([]);
    // what a list says of each entity: created (ms), name, spec_version; the object store list's `specs`
    expect(
      uuidsOf({
        path: '/images/list',
        params: {},
        body: {
          entities: [
            { metadata: { uuid: image, creation_time: '2026-01-05T09:00:00Z', spec_version: 3 }, spec: { name: 'a' } },
          ],
        },
        links: [],
      }),
    ).toEqual([
      { kind: 'images', uuid: image, created: Date.parse('2026-01-05T09:00:00Z'), name: 'a', specVersion: 3 },
    ]);
    expect(
      uuidsOf({
        path: '/v2.0/tasks/list',
        params: {},
        body: { entities: [{ uuid: task, create_time_usecs: 1795879269059000, progress_status: 'Running' }] },
        links: [],
      }),
    ).toEqual([{ kind: 'tasks', uuid: task, created: 1795879269059, ended: false }]);
    // whether a task has ended, in each API's spelling; an image's `status` object says nothing of it
    for (const [body, ended] of [
      [{ uuid: task, status: 'SUCCEEDED' }, true],
      [{ uuid: task, status: 'QUEUED' }, false],
      [{ uuid: task, progressStatus: 'Failed' }, true],
    ])
      expect(uuidsOf({ path: '/tasks/{uuid}', params: {}, body, links: [] })[0].ended).toBe(ended);
    expect(
      uuidsOf({ path: '/objectstores/list', params: {}, body: { specs: [{ metadata: { uuid: image } }] }, links: [] }),
    ).toEqual([{ kind: 'objectstores', uuid: image }]);
  });

  it('says which UUID an answer shows gone: a deletion, a 404 of the path', () => {
    const image = 'c2d4b1f5-8a3e-4c6b-9f1d-2e7a5b3c9d10';
    expect(goneOf({ method: 'delete', path: '/images/{uuid}', params: { uuid: image }, status: 202 })).toEqual([image]);
    expect(goneOf({ method: 'get', path: '/v2.0/images/{uuid}', params: { uuid: image }, status: 404 })).toEqual([
      image,
    ]);
    expect(goneOf({ method: 'delete', path: '/images/{uuid}', params: { uuid: image }, status: 409 })).toEqual([]);
    expect(goneOf({ method: 'get', path: '/images/{uuid}/file', params: { uuid: image }, status: 404 })).toEqual([]);
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

  it("makes an example body the local svc's: its image sources the sample, its references the newest live entities", () => {
    const known = (kind, uuid, extra = {}) => ({
      kind,
      uuid,
      at: '2026-01-01T00:00:00.000Z',
      from: { method: 'get', path: '/x' },
      ...extra,
    });
    const live = {
      clusters: [known('clusters', 'c0000000-0000-4000-8000-000000000001', { name: 'cluster-01' })],
      subnets: [
        known('subnets', 'a0000000-0000-4000-8000-000000000001'),
        known('subnets', 'a0000000-0000-4000-8000-000000000002'),
      ],
      images: [known('images', 'b0000000-0000-4000-8000-000000000001')],
    };
    const pick = (kind, count) => (live[kind] ?? []).slice(0, count);
    const example = {
      metadata: { kind: 'image', uuid: 'e0000000-0000-4000-8000-00000000000e', spec_version: 1 },
      spec: {
        resources: {
          source_uri: 'https://example.org/x.img',
          cluster_reference: { kind: 'cluster', uuid: 'e0000000-0000-4000-8000-000000000001' },
          network_reference_list: [{ kind: 'subnet', uuid: 'e0000000-0000-4000-8000-000000000002' }],
          owner_reference: { kind: 'user', uuid: 'e0000000-0000-4000-8000-000000000003' },
        },
      },
      image_import_spec: {
        url: 'http://example.org/y.qcow2',
        storage_container_uuid: 'e0000000-0000-4000-8000-000000000004',
      },
      task_uuid_list: ['e0000000-0000-4000-8000-000000000005', 'e0000000-0000-4000-8000-000000000006'],
    };
    const { body, filled } = localBody(example, {
      path: '/images/{uuid}',
      localSvc: 'https://127.0.0.1:9440',
      pick,
      specVersionOf: () => 7,
    });
    expect(body.spec.resources.source_uri).toBe(`https://127.0.0.1:9440${SAMPLE_IMAGE_PATH}`);
    expect(body.image_import_spec.url).toBe(`https://127.0.0.1:9440${SAMPLE_IMAGE_PATH}`);
    expect(body.spec.resources.cluster_reference.uuid).toBe(live.clusters[0].uuid);
    expect(body.spec.resources.network_reference_list[0].uuid).toBe(live.subnets[0].uuid);
    // nothing known of users, containers or tasks: the example stays
    expect(body.spec.resources.owner_reference.uuid).toBe(example.spec.resources.owner_reference.uuid);
    expect(body.image_import_spec.storage_container_uuid).toBe(example.image_import_spec.storage_container_uuid);
    expect(body.task_uuid_list).toEqual(example.task_uuid_list);
    // an update's own entity: the path's, with its spec_version now
    expect(body.metadata).toEqual({ kind: 'image', uuid: live.images[0].uuid, spec_version: 7 });
    expect(filled.map((f) => f.pointer).sort()).toEqual(
      [
        '/image_import_spec/url',
        '/metadata/spec_version',
        '/metadata/uuid',
        '/spec/resources/cluster_reference/uuid',
        '/spec/resources/network_reference_list/0/uuid',
        '/spec/resources/source_uri',
      ].sort(),
    );
    expect(example.spec.resources.source_uri).toBe('https://example.org/x.img'); // not changed
    // a list of references takes as many live ones as it had, or as there are
    const tasks = localBody(
      { task_uuid_list: ['x', 'y', 'z'] },
      {
        path: '/tasks/poll',
        localSvc: 'https://h',
        pick: (k, n) => (k === 'tasks' ? [known('tasks', 't1'), known('tasks', 't2')].slice(0, n) : []),
        specVersionOf: () => undefined,
      },
    );
    expect(tasks.body.task_uuid_list).toEqual(['t1', 't2']);
  });

  it('finds the fields that name other entities, by the service conventions', () => {
    expect(parameterKind('/images/{uuid}/file', { name: 'uuid', in: 'path' })).toBe('images');
    expect(parameterKind('/services/{service_name}/status', { name: 'service_name', in: 'path' })).toBeNull();
    expect(parameterKind('/v0.8/images/{uuid}/upload', { name: 'X-Svc-Destination-Container', in: 'header' })).toBe(
      'storage_containers',
    );
    expect(parameterKind('/v0.8/tasks', { name: 'entityUuids', in: 'query' })).toBe('images');
    expect(parameterKind('/v0.8/tasks', { name: 'count', in: 'query' })).toBeNull();
    expect(
      bodyReferences({
        metadata: { kind: 'objectstore' },
        spec: {
          resources: {
            cluster_reference: { kind: 'cluster', uuid: 'u' },
            client_access_network_reference: { kind: 'subnet', uuid: 'v' },
          },
        },
        image_reference_list: [{ kind: 'image', uuid: 'w' }],
        entity_list: [{ entity_id: 'x', entity_type: 'Image' }],
        completed_tasks: ['y'],
        image_import_spec: { storage_container_uuid: 'z' },
      }),
    ).toEqual([
      { pointer: '/spec/resources/cluster_reference/uuid', kind: 'clusters' },
      { pointer: '/spec/resources/client_access_network_reference/uuid', kind: 'subnets' },
      { pointer: '/image_reference_list/0/uuid', kind: 'images' },
      { pointer: '/entity_list/0/entity_id', kind: 'images' },
      { pointer: '/completed_tasks', kind: 'tasks', list: true },
      { pointer: '/image_import_spec/storage_container_uuid', kind: 'storage_containers' },
    ]);
    expect(selfReference('/images/{uuid}', { metadata: { uuid: 'u', spec_version: 1 } })).toEqual({
      kind: 'images',
      parameter: 'uuid',
      uuid: '/metadata/uuid',
      specVersion: '/metadata/spec_version',
    });
    expect(selfReference('/images', { metadata: { kind: 'image' } })).toBeNull();
  });

  it('knows the newest live entity: the newest answer, the newest created in a list, nothing the tab saw deleted', () => {
    const a = { kind: 'images', uuid: 'a', at: '2026-01-01T00:00:01.000Z', from: { method: 'post', path: '/images' } };
    const b = {
      kind: 'images',
      uuid: 'b',
      at: '2026-01-01T00:00:00.000Z',
      created: 2,
      from: { method: 'post', path: '/images/list', list: true },
    };
    const c = { ...b, uuid: 'c', created: 5 };
    const d = { ...b, uuid: 'd', created: undefined };
    const knowns = newestFirst([d, b, c, a]);
    expect(knowns.map((k) => k.uuid)).toEqual(['a', 'c', 'b', 'd']);
    expect(pickKnown(knowns, 'images').map((k) => k.uuid)).toEqual(['a']);
    expect(pickKnown(knowns, 'images', { gone: new Set(['a']), count: 2 }).map((k) => k.uuid)).toEqual(['c', 'b']);
    expect(pickKnown(knowns, 'images', { not: new Set(['a', 'c']) }).map((k) => k.uuid)).toEqual(['b']);
    expect(pickKnown(knowns, 'tasks')).toEqual([]);
    // an abort or a completion takes a task still running first: the newest answer that says decides
    const task = (uuid, at, ended) => ({
      kind: 'tasks',
      uuid,
      at,
      from: { method: 'post', path: '/tasks/list' },
      ended,
    });
    const tasks = newestFirst([
      task('done', '2026-01-01T00:00:03.000Z', true),
      task('runs', '2026-01-01T00:00:02.000Z', false),
      { ...task('new', '2026-01-01T00:00:04.000Z'), ended: undefined },
      task('new', '2026-01-01T00:00:01.000Z', true),
    ]);
    expect(pickKnown(tasks, 'tasks').map((k) => k.uuid)).toEqual(['new']);
    expect(pickKnown(tasks, 'tasks', { unfinished: true, count: 3 }).map((k) => k.uuid)).toEqual([
      'runs',
      'new',
      'done',
    ]);
    expect(
      ['/tasks/{uuid}/abort', '/tasks/{uuid}/complete', '/tasks/{uuid}', '/tasks/poll'].map(needsUnfinishedTask),
    ).toEqual([true, true, false, false]);
    expect(
      latestOf(
        [
          { ...a, specVersion: 2 },
          { ...a, specVersion: 1, name: 'x' },
        ],
        'a',
      ),
    ).toEqual({ specVersion: 2, name: 'x' });
    expect(freshName('objects-prod-01', ['objects-prod-02'])).toBe('objects-prod-03');
    expect(freshName('store', [])).toBe('store-2');
  });

  it('offers the fix of an error: Authorize, the entities that exist, a new name', () => {
    const container = '66316fa9-e2d1-4ed8-a38b-39ac982db28f';
    const request = {
      params: [{ name: 'X-Svc-Destination-Container', in: 'header', value: container, kind: 'storage_containers' }],
      body: {
        name: 'objects-prod-01',
        spec: { cluster_reference: { kind: 'cluster', uuid: 'c1e4319f-6844-47ab-9b0b-388bd75a447f' } },
      },
      kind: 'objectstores',
    };
    expect(fixesFor({ status: 401, text: '' }, request, () => [])).toEqual([{ type: 'authorize' }]);
    const missing = fixesFor(
      {
        status: 404,
        text: `{"message":"X-Svc-Destination-Container: storage container with UUID ${container} is not found."}`,
      },
      request,
      () => [],
    );
    expect(missing).toEqual([
      {
        type: 'missing',
        kind: 'storage_containers',
        fields: [
          {
            field: 'X-Svc-Destination-Container',
            kind: 'storage_containers',
            uuid: container,
            where: 'parameter',
            name: 'X-Svc-Destination-Container',
            in: 'header',
          },
        ],
        uuids: [container],
      },
    ]);
    expect(
      missingReferences(
        request,
        'spec.cluster_reference.uuid: no cluster has UUID c1e4319f-6844-47ab-9b0b-388bd75a447f',
      ),
    ).toEqual([
      {
        field: 'spec.cluster_reference.uuid',
        kind: 'clusters',
        uuid: 'c1e4319f-6844-47ab-9b0b-388bd75a447f',
        where: 'body',
        pointer: '/spec/cluster_reference/uuid',
      },
    ]);
    expect(
      fixesFor({ status: 409, text: 'An object store named "objects-prod-01" already exists.' }, request, () => [
        'objects-prod-02',
      ]),
    ).toEqual([{ type: 'rename', pointer: '/name', from: 'objects-prod-01', to: 'objects-prod-03' }]);
    expect(fixesFor({ status: 500, text: container }, request, () => [])).toEqual([]);
  });

  it('says why a step failed, and offers no poll after a failure', () => {
    const workflow = { steps: [{ stepId: 'task', until: { pointer: '/status', equals: ['SUCCEEDED'] } }] };
    const answer = {
      status: 404,
      body: { message_list: [{ message: 'task : x does not exist.', reason: 'ENTITY_NOT_FOUND' }] },
    };
    expect(workflowView({ workflow, step: 0 }, { task: answer })).toMatchObject({
      state: 'failed',
      poll: false,
      words: 'failed: 404 task : x does not exist.',
    });
    expect(failureWords({ status: 400, body: { message: 'no container' } })).toBe('400 no container');
    expect(failureWords({ status: 0, body: '' })).toBe('no answer came');
  });

  it('reads an abbreviation by its consonants, and a misspelling, as the index words they stand for', () => {
    const vocabulary = ['task', 'tasks', 'container', 'contains', 'images', 'upload'];
    expect([...expansionsOf(vocabulary, 'tsk').keys()]).toEqual(['tsk', 'task', 'tasks']);
    expect(expansionsOf(vocabulary, 'ctnr').has('container')).toBe(true);
    expect(expansionsOf(vocabulary, 'ctnr').has('contains')).toBe(false);
    expect(expansionsOf(vocabulary, 'uplaod').has('upload')).toBe(true);
    expect([...expansionsOf(vocabulary, 'v2.0').keys()]).toEqual(['v2.0']);
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

describe("what the local svc's state view says", () => {
  it('counts, tasks by what they do, states by kind, sizes', () => {
    const tasks = {
      items: [
        { uuid: 'a', status: 'RUNNING' },
        { uuid: 'b', status: 'SUCCEEDED' },
        { uuid: 'c', status: 'QUEUED' },
      ],
    };
    expect(summaryLine({ health: { entities: { image: 1, task: 3, object_store: 0 } }, tasks })).toBe(
      '1 image · 3 tasks (2 running) · 0 object stores',
    );
    expect(summaryLine({})).toBe('');
    expect(unfinishedTasks(tasks)).toEqual(['a', 'c']);
    expect(
      taskTitle({
        operation_type: 'create_image_intentful',
        entity_reference_list: [{ kind: 'image', uuid: 'x', name: 'cirros' }],
      }),
    ).toBe('create image "cirros"');
    expect(
      taskTitle({
        operation_type: 'delete_objectstore',
        entity_reference_list: [{ kind: 'objectstore', uuid: '4f1c8a2e-7b3d' }],
      }),
    ).toBe('delete objectstore "objectstore 4f1c8a2e"');
    expect(
      ['COMPLETE', 'SUCCEEDED', 'PENDING', 'RUNNING', 'DELETE_PENDING', 'ERROR', 'FAILED', 'ABORTED'].map(stateKind),
    ).toEqual(['ok', 'ok', 'run', 'run', 'run', 'bad', 'bad', 'other']);
    expect([0, 1023, 1024, 16 * 1024 * 1024 + 1].map(bytes)).toEqual(['0 B', '1023 B', '1.0 KiB', '16.0 MiB']);
  });

  it('names the field a violation broke: a body member, a list item, a parameter, the whole part', () => {
    expect(violationField({ in: 'body', path: '/spec/resources/image_type' })).toBe('spec.resources.image_type');
    expect(violationField({ in: 'body', path: '/spec/resources/client_access_network_ip_list/2' })).toBe(
      'spec.resources.client_access_network_ip_list[2]',
    );
    expect(violationField({ in: 'body', path: '/metadata/a~1b' })).toBe('metadata.a/b');
    expect(violationField({ in: 'header', path: '/x-svc-checksum-type' })).toBe('x-svc-checksum-type');
    expect(violationField({ in: 'query', path: '/length' })).toBe('length');
    expect(violationField({ in: 'body', path: '' })).toBe('the body as a whole');
  });

  it("tells the journal's writes from its reads, and finds the page's own requests in it", () => {
    const entry = (id, method, path, status = 200, time = '2026-11-28T10:00:00.100Z') => ({
      id,
      method,
      path,
      status,
      time,
    });
    expect(isWrite(entry(1, 'POST', '/api/svc/v3/images', 202))).toBe(true);
    expect(isWrite(entry(2, 'POST', '/api/svc/v3/images/list'))).toBe(false);
    expect(isWrite(entry(3, 'POST', '/api/svc/v3/tasks/poll'))).toBe(false);
    expect(isWrite(entry(4, 'GET', '/api/svc/v3/images/x'))).toBe(false);
    expect(isWrite(entry(5, 'PUT', '/api/svc/v3/images/x', 422))).toBe(false);
    expect(isWrite(entry(6, 'DELETE', '/api/svc/v3/images/x', 202))).toBe(true);
    const at = Date.parse('2026-11-28T10:00:00.100Z');
    const reads = [
      { method: 'POST', path: '/api/svc/v3/images/list', from: at - 5, to: at + 5 },
      { method: 'POST', path: '/api/svc/v3/images/list', from: at + 1000, to: at + 1010 },
    ];
    const entries = [
      entry(10, 'POST', '/api/svc/v3/images/list'),
      // the same list by the user's code at the same time: one read matches one entry
      entry(11, 'POST', '/api/svc/v3/images/list'),
      entry(12, 'POST', '/api/svc/v3/images/list', 200, '2026-11-28T10:00:05.000Z'),
      entry(13, 'POST', '/api/svc/v3/tasks/list'),
      entry(14, 'POST', '/api/svc/v3/images/list', 200, '2026-11-28T10:00:01.105Z'),
    ];
    expect([...ownEntryIds(entries, reads)].sort()).toEqual([10, 14]);
  });
});
