import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root, shownPath } from '../src/apis.js';
import {
  basePathOf,
  deref,
  explorerLink,
  operationHash,
  operations,
  resolveRef,
  serverBasePath,
  subdocument,
} from '../src/index.js';

const doc = {
  servers: [{ url: 'https://{host}:{port}/api/svc/v3' }],
  paths: {
    '/images/{uuid}': { $ref: '#/components/pathItems/image' },
    '/tasks/list': { post: { operationId: 'tasks_list' } },
  },
  components: {
    pathItems: {
      image: {
        parameters: [
          { $ref: '#/components/parameters/uuid' },
          { in: 'header', name: 'X-A', description: 'path level' },
        ],
        get: { operationId: 'images_get', parameters: [{ in: 'header', name: 'X-A', description: 'operation level' }] },
        delete: { operationId: 'images_delete' },
      },
    },
    parameters: {
      uuid: { $ref: '#/components/parameters/uuidTarget' },
      uuidTarget: { in: 'path', name: 'uuid', required: true },
    },
    schemas: { 'a/b': { type: 'string' }, 'c~d': { type: 'integer' }, loop: { $ref: '#/components/schemas/loop' } },
  },
};

describe('deref', () => {
  it('follows chains and escaped pointer segments; passes other values through', () => {
    expect(deref(doc, { $ref: '#/components/parameters/uuid' })).toEqual({ in: 'path', name: 'uuid', required: true });
    expect(deref(doc, { $ref: '#/components/schemas/a~1b' })).toEqual({ type: 'string' });
    expect(deref(doc, { $ref: '#/components/schemas/c~0d' })).toEqual({ type: 'integer' });
    expect(deref(doc, { $ref: '#/components/schemas/a%7E1b' })).toEqual({ type: 'string' });
    expect(deref(doc, { type: 'number' })).toEqual({ type: 'number' });
    expect(deref(doc, undefined)).toBeUndefined();
  });

  it('names the reference that is remote, dangling or cyclic', () => {
    expect(() => deref(doc, { $ref: 'other.yaml#/x' })).toThrow(/other\.yaml#\/x: only local references/);
    expect(() => deref(doc, { $ref: '#/components/schemas/none' })).toThrow(
      /#\/components\/schemas\/none does not resolve/,
    );
    expect(() => deref(doc, { $ref: '#/components/schemas/loop' })).toThrow(/a cycle/);
  });
});

describe('operations', () => {
  it('lists every operation in document order with resolved, merged parameters', () => {
    const ops = operations(doc);
    expect(ops.map((o) => `${o.method} ${o.path} ${o.operationId}`)).toEqual([
      'get /images/{uuid} images_get',
      'delete /images/{uuid} images_delete',
      'post /tasks/list tasks_list',
    ]);
    expect(ops[0].parameters).toEqual([
      { in: 'path', name: 'uuid', required: true },
      { in: 'header', name: 'X-A', description: 'operation level' },
    ]);
    expect(ops[1].parameters.map((p) => p.description ?? p.name)).toEqual(['uuid', 'path level']);
    expect(ops[2].parameters).toEqual([]);
  });
});

describe('serverBasePath', () => {
  it('takes the path of a server template', () => {
    expect(serverBasePath(doc.servers[0].url)).toBe('/api/svc/v3');
    expect(serverBasePath('https://{host}:{port}/api/svc/')).toBe('/api/svc');
    expect(serverBasePath('/api/x/?q#f')).toBe('/api/x');
    expect(serverBasePath('https://{host}:9440/PrismGateway/services/rest')).toBe('/PrismGateway/services/rest');
    expect(serverBasePath('api/svc')).toBe('/api/svc');
    expect(serverBasePath('http://h')).toBe('');
    expect(serverBasePath(undefined)).toBe('');
  });
});

describe('basePathOf', () => {
  it("takes the base path of a document's first server", () => {
    expect(basePathOf(doc)).toBe('/api/svc/v3');
    expect(basePathOf({ servers: [{ url: '/api/x/' }, { url: '/other' }] })).toBe('/api/x');
    expect(basePathOf({})).toBe('');
    expect(basePathOf(undefined)).toBe('');
  });
});

describe('resolveRef', () => {
  it('answers where a reference leads, and why it does not, without throwing', () => {
    expect(resolveRef(doc, { $ref: '#/components/parameters/uuid' }, ['x'])).toEqual({
      value: { in: 'path', name: 'uuid', required: true },
      path: ['components', 'parameters', 'uuidTarget'],
      problem: undefined,
    });
    expect(resolveRef(doc, { type: 'a' }, ['here'])).toEqual({
      value: { type: 'a' },
      path: ['here'],
      problem: undefined,
    });
    expect(resolveRef(doc, { $ref: 'x.yaml#/a' }).problem).toMatch(/only local references/);
    expect(resolveRef(doc, { $ref: '#/components/schemas/loop' }).problem).toMatch(/a cycle/);
  });
});

describe('subdocument', () => {
  const api = {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    servers: [{ url: '/api' }],
    security: [{ basic: [] }],
    paths: {
      '/images/{uuid}': {
        parameters: [{ $ref: '#/components/parameters/uuid' }],
        get: {
          operationId: 'images_get',
          responses: { 200: { $ref: '#/components/responses/image' } },
        },
        delete: { operationId: 'images_delete', responses: { 204: { $ref: '#/components/responses/gone' } } },
      },
      '/tasks': { get: { operationId: 'tasks_list' } },
    },
    components: {
      parameters: { uuid: { in: 'path', name: 'uuid', required: true, schema: { $ref: '#/components/schemas/Uuid' } } },
      responses: {
        image: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Image' } } } },
        gone: { description: 'gone' },
      },
      schemas: {
        Uuid: { type: 'string' },
        Image: {
          properties: {
            parent: { $ref: '#/components/schemas/Image' },
            kind: { $ref: '#/components/schemas/Kind~1Name' },
          },
          discriminator: { propertyName: 'k', mapping: { disk: '#/components/schemas/Disk', iso: 'Iso' } },
        },
        'Kind/Name': { enum: ['a'] },
        Disk: { type: 'object' },
        Unused: { type: 'object' },
      },
      securitySchemes: { basic: { type: 'http', scheme: 'basic' }, other: { type: 'apiKey' } },
    },
  };

  it("keeps one operation, its path item's own members and what it references, transitively", () => {
    const { paths, components, ...top } = api;
    expect(subdocument(api, ['paths', '/images/{uuid}', 'get'])).toEqual({
      ...top,
      paths: { '/images/{uuid}': { parameters: paths['/images/{uuid}'].parameters, get: paths['/images/{uuid}'].get } },
      components: {
        parameters: { uuid: components.parameters.uuid },
        responses: { image: components.responses.image },
        schemas: {
          Uuid: components.schemas.Uuid,
          Image: components.schemas.Image,
          'Kind/Name': components.schemas['Kind/Name'],
          Disk: components.schemas.Disk,
        },
      },
    });
  });

  it('keeps a whole path item, a component, or a section of components', () => {
    expect(Object.keys(subdocument(api, ['paths', '/images/{uuid}']).paths['/images/{uuid}'])).toEqual([
      'parameters',
      'get',
      'delete',
    ]);
    expect(subdocument(api, ['components', 'schemas', 'Uuid']).components).toEqual({
      schemas: { Uuid: { type: 'string' } },
    });
    expect(subdocument(api, ['components', 'securitySchemes']).components).toEqual({
      securitySchemes: api.components.securitySchemes,
    });
  });

  it('hands back the whole document when it cannot tell what the node needs', () => {
    const withRef = (/** @type {any} */ schema) => ({
      ...api,
      paths: { '/x': { get: { responses: { 200: { content: { 'application/json': { schema } } } } } } },
    });
    for (const [document, path] of /** @type {[any, string[]][]} */ ([
      [api, ['paths', '/nothing', 'get']],
      [api, ['components', 'schemas', 'Nothing']],
      [api, ['info']],
      [api, []],
      [withRef({ $ref: 'other.yaml#/components/schemas/A' }), ['paths', '/x', 'get']],
      [withRef({ $ref: '#/paths/~1tasks/get' }), ['paths', '/x', 'get']],
      [withRef({ $ref: '#/components/schemas/Nothing' }), ['paths', '/x', 'get']],
      [withRef({ $id: 'https://example.com/a', $ref: '#/components/schemas/Uuid' }), ['paths', '/x', 'get']],
      [withRef({ $dynamicRef: '#node' }), ['paths', '/x', 'get']],
      [
        {
          ...api,
          paths: { '/x': { get: { responses: { 200: { links: { a: { operationRef: '#/paths/~1tasks/get' } } } } } } },
        },
        ['paths', '/x', 'get'],
      ],
    ]))
      expect(subdocument(document, path), path.join(' ')).toBe(document);
  });
});

describe('operationHash and explorerLink', () => {
  it.each([
    ['Images', 'images_create', '#/Images/images_create'],
    ['Images (v2.0)', 'images_list_v2_0', '#/Images%20(v2.0)/images_list_v2_0'],
    [' Object stores ', 'a b', '#/Object%20stores/a%20b'],
  ])('%s %s -> %s, as Swagger UI writes it', (tag, id, want) => expect(operationHash(tag, id)).toBe(want));

  it('puts the API in the query', () => {
    expect(explorerLink('element', 'Images (v2.0)', 'images_list_v2_0')).toBe(
      '?api=element#/Images%20(v2.0)/images_list_v2_0',
    );
  });
});

describe('shownPath', () => {
  it('shows a path of the checkout relative to it, anything else by its file name only', () => {
    expect(shownPath(join(root, 'dist', 'central.json'))).toBe('dist/central.json');
    expect(shownPath(root)).toBe('.');
    expect(shownPath(join(tmpdir(), 'x', 'generated', 't.ts'), join(tmpdir(), 'x'))).toBe('generated/t.ts');
    expect(shownPath(join(tmpdir(), 'elsewhere', 'out'), join(tmpdir(), 'x'))).toBe('out');
    expect(shownPath(`${root}-sibling/file.json`)).toBe('file.json');
    expect(shownPath(join(root, '..dots', 'a.json'))).toBe('..dots/a.json');
  });
});
