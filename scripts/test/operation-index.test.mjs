import { describe, expect, it } from 'vitest';
import {
  clientSurface,
  contractTests,
  operationIndex,
  simulatorHandlers,
  toMarkdown,
} from '../lib/operation-index.mjs';

const doc = {
  servers: [{ url: 'https://{host}:9440/api/x/v3' }],
  paths: {
    '/things': { post: { operationId: 'things_create', tags: ['Things (v3)'], summary: 'Create a thing' } },
    '/things/list': { post: { operationId: 'things_list', tags: ['Things (v3)'] } },
    '/things/{uuid}': { get: { operationId: 'things_get' }, delete: { operationId: 'things_delete' } },
  },
};

const client = {
  file: 'packages/client/src/x.ts',
  text: [
    'export interface XWorkflows {',
    '  /** Polls `GET /things/{uuid}` until done. */',
    '  waitFor(uuid: string): Promise<void>;',
    '  /** Iterates `/things/list` (not things_create_bulk). */',
    '  paginate(): AsyncIterable<unknown>;',
    '  /** Creates (things_create) and waits. */',
    '  make(a: string): Promise<void>;',
    '  make(a: number): Promise<void>;',
    '}',
    'export interface Other { /** things_delete */ f(): void }',
    'export function createXClient() {}',
  ].join('\n'),
};

const suite = (cover) => ({
  file: 'packages/contract-tests/test/x.contract.test.ts',
  text: [
    "const c = contract('x', (baseUrl) => make(baseUrl));",
    "describe('x', () => {",
    "  it('things_create: POST /things', async () => {",
    `    ${cover.map((id) => `c.cover('${id}');`).join(' ')}`,
    '  });',
    '});',
  ].join('\n'),
});

/** The adapters' tables (`export const handlers = { ... }`), split over two files here. */
const simulator = (ids) => [
  {
    file: 'packages/simulator/src/apis/x/index.js',
    text: [
      "import { helper } from './views.js';",
      'const local = { not_a_handler: 1 };',
      'export const handlers = {',
      `  ${ids
        .slice(0, 2)
        .map((id) => `async ${id}(ctx) {},`)
        .join('\n  ')}`,
      '};',
    ].join('\n'),
  },
  {
    file: 'packages/simulator/src/shared.js',
    text: `export const handlers = {\n${ids
      .slice(2)
      .map((id) => `  ${id}: (ctx) => ctx,`)
      .join('\n')}\n};\n`,
  },
];
const ALL = ['things_create', 'things_list', 'things_get', 'things_delete'];

const source = (api, path) => ({ file: `spec/${api}/paths/${path[1]}.yaml`, line: 2 });

describe('clientSurface', () => {
  it('finds the factory and the workflow methods of each API, overloads once', () => {
    const { factories, methods } = clientSurface([client]);
    expect(factories.get('x')).toEqual({ name: 'createXClient', file: client.file, line: 11 });
    expect(methods.map((m) => [m.api, m.name, m.line])).toEqual([
      ['x', 'waitFor', 3],
      ['x', 'paginate', 5],
      ['x', 'make', 7],
    ]);
  });
});

describe('simulatorHandlers', () => {
  it('reads the members of each `handlers` table, with the API of its apis/<api>/ folder', () => {
    expect(simulatorHandlers(simulator(ALL))).toEqual([
      { api: 'x', operationId: 'things_create', file: 'packages/simulator/src/apis/x/index.js', line: 4 },
      { api: 'x', operationId: 'things_list', file: 'packages/simulator/src/apis/x/index.js', line: 5 },
      { api: undefined, operationId: 'things_get', file: 'packages/simulator/src/shared.js', line: 2 },
      { api: undefined, operationId: 'things_delete', file: 'packages/simulator/src/shared.js', line: 3 },
    ]);
  });
});

describe('contractTests', () => {
  it("reads each cover('<operationId>') with its suite's API and the test around it", () => {
    expect(contractTests([suite(['things_create'])])).toEqual([
      {
        api: 'x',
        operationId: 'things_create',
        title: 'things_create: POST /things',
        file: 'packages/contract-tests/test/x.contract.test.ts',
        line: 3,
      },
    ]);
  });
});

describe('operationIndex', () => {
  it('links every operation to its source, explorer, client call, workflow methods and tests', () => {
    const { entries, problems } = operationIndex({
      apis: [{ name: 'x', doc }],
      source,
      clientFiles: [client],
      testFiles: [suite(ALL)],
      simulatorFiles: simulator(ALL),
    });
    expect(problems).toEqual([]);
    const byId = Object.fromEntries(entries.map((e) => [e.operationId, e]));
    expect(byId.things_create).toMatchObject({
      api: 'x',
      method: 'POST',
      path: '/things',
      basePath: '/api/x/v3',
      summary: 'Create a thing',
      tag: 'Things (v3)',
      source: { file: 'spec/x/paths//things.yaml', line: 2 },
      explorer: '?api=x#/Things%20(v3)/things_create',
      client: { factory: 'createXClient', call: ".POST('/things')" },
      clientMethods: [{ name: 'make', file: client.file, line: 7 }],
      simulator: { file: 'packages/simulator/src/apis/x/index.js', line: 4 },
    });
    expect(byId.things_delete.simulator).toEqual({ file: 'packages/simulator/src/shared.js', line: 3 });
    expect(byId.things_list.clientMethods.map((m) => m.name)).toEqual(['paginate']);
    expect(byId.things_get.clientMethods.map((m) => m.name)).toEqual(['waitFor']);
    expect(byId.things_delete.clientMethods).toEqual([]); // named only outside a Workflows interface
    expect(byId.things_get.tag).toBe('default');
  });

  it('fails on an operation without a contract test and on a test of an unknown operationId', () => {
    const { problems } = operationIndex({
      apis: [{ name: 'x', doc }],
      source,
      clientFiles: [client],
      testFiles: [suite(['things_create', 'things_list', 'things_get', 'thing_delete'])],
      simulatorFiles: simulator(ALL),
    });
    expect(problems).toEqual([
      "x: things_delete has no contract test (no cover('things_delete') in a suite of contract('x'))",
      "packages/contract-tests/test/x.contract.test.ts:3: cover('thing_delete') names no operation of dist/x.json",
    ]);
  });

  it('fails on an operation without a simulator handler and on a handler of an unknown operationId', () => {
    const { problems } = operationIndex({
      apis: [{ name: 'x', doc }],
      source,
      clientFiles: [client],
      testFiles: [suite(ALL)],
      simulatorFiles: simulator(['things_create', 'things_list', 'things_get', 'thing_delete']),
    });
    expect(problems).toEqual([
      'x: things_delete has no simulator handler (no things_delete in the handlers of packages/simulator/src/apis/x/)',
      'packages/simulator/src/shared.js:3: simulator handler thing_delete names no operation of the bundles',
    ]);
  });

  it("fails on a handler in another API's table", () => {
    const { problems } = operationIndex({
      apis: [{ name: 'x', doc }],
      source,
      clientFiles: [client],
      testFiles: [suite(ALL)],
      simulatorFiles: simulator(ALL).map((f) => ({ ...f, file: f.file.replace('/apis/x/', '/apis/y/') })),
    });
    expect(problems).toEqual([
      'x: things_create has no simulator handler (no things_create in the handlers of packages/simulator/src/apis/x/)',
      'x: things_list has no simulator handler (no things_list in the handlers of packages/simulator/src/apis/x/)',
      'packages/simulator/src/apis/y/index.js:4: simulator handler things_create names no operation of dist/y.json',
      'packages/simulator/src/apis/y/index.js:5: simulator handler things_list names no operation of dist/y.json',
    ]);
  });
});

describe('toMarkdown', () => {
  it('writes one table per API with links relative to docs/', () => {
    const { entries } = operationIndex({
      apis: [{ name: 'x', doc }],
      source,
      clientFiles: [client],
      testFiles: [suite(['things_create'])],
      simulatorFiles: simulator(ALL),
    });
    const md = toMarkdown(entries, 'http://127.0.0.1:8080/');
    expect(md).toContain('## x (`/api/x/v3`)');
    expect(md).toContain(
      "| `things_create` | `POST /things`<br>Create a thing | Things (v3) | [spec/x/paths//things.yaml:2](../spec/x/paths//things.yaml#L2) | [open](http://127.0.0.1:8080/?api=x#/Things%20(v3)/things_create) | [createXClient()](../packages/client/src/x.ts#L11)`.POST('/things')`<br>[make()](../packages/client/src/x.ts#L7) | [things_create: POST /things](../packages/contract-tests/test/x.contract.test.ts#L3) | [apis/x/index.js:4](../packages/simulator/src/apis/x/index.js#L4) |",
    );
  });
});
