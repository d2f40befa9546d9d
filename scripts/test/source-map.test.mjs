import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sourceLocation } from '../lib/source-map.mjs';

// A small split document: root -> path item file -> component file.
const dir = mkdtempSync(join(tmpdir(), 'source-map-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, 'paths'));
mkdirSync(join(dir, 'components'));
writeFileSync(
  join(dir, 'openapi.yaml'),
  [
    'openapi: 3.1.0',
    'info:',
    '  title: t',
    '  version: "1"',
    'paths:',
    '  /a/{id}:',
    '    $ref: paths/a@{id}.yaml',
    'components:',
    '  schemas:',
    '    Thing:',
    '      $ref: ./components/Thing.yaml',
    '',
  ].join('\n'),
);
writeFileSync(
  join(dir, 'paths', 'a@{id}.yaml'),
  [
    'get:',
    '  operationId: a_get',
    '  responses:',
    "    '200':",
    '      description: ok',
    '      content:',
    '        application/json:',
    '          schema:',
    '            $ref: ../components/Thing.yaml#/properties/inner',
    '',
  ].join('\n'),
);
writeFileSync(
  join(dir, 'components', 'Thing.yaml'),
  [
    'type: object',
    'properties:',
    '  inner:',
    '    type: object',
    '    properties:',
    '      when:',
    '        type: string',
    '',
  ].join('\n'),
);
const root = join(dir, 'openapi.yaml');

describe('sourceLocation', () => {
  const cases = [
    { name: 'a key of the root', path: ['info', 'title'], file: 'openapi.yaml', line: 3, exact: true },
    {
      name: 'through a path item $ref',
      path: ['paths', '/a/{id}', 'get', 'operationId'],
      file: 'paths/a@{id}.yaml',
      line: 2,
      exact: true,
    },
    {
      name: 'through a component $ref',
      path: ['components', 'schemas', 'Thing', 'properties', 'inner', 'properties', 'when'],
      file: 'components/Thing.yaml',
      line: 6,
      exact: true,
    },
    {
      name: 'through a $ref with a fragment',
      path: [
        'paths',
        '/a/{id}',
        'get',
        'responses',
        '200',
        'content',
        'application/json',
        'schema',
        'properties',
        'when',
        'type',
      ],
      file: 'components/Thing.yaml',
      line: 7,
      exact: true,
    },
    {
      name: 'a path the sources do not have stops at the nearest parent',
      path: ['paths', '/a/{id}', 'get', 'summary'],
      file: 'paths/a@{id}.yaml',
      line: 1,
      exact: false,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = sourceLocation(root, c.path);
      expect({ file: got.file.slice(dir.length + 1), line: got.line, exact: got.exact }).toEqual({
        file: c.file,
        line: c.line,
        exact: c.exact,
      });
    });
  }
});
