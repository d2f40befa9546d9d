import { describe, expect, it } from 'vitest';
import { exampleOf, mediaKind, requestBodyOf } from '../src/index.js';

describe('mediaKind', () => {
  it.each([
    ['application/json', 'json'],
    ['application/json; charset=utf-8', 'json'],
    ['Application/JSON', 'json'],
    ['application/problem+json', 'json'],
    ['application/vnd.svc.v3+json;q=0.9', 'json'],
    ['application/octet-stream', 'binary'],
    ['image/png', 'binary'],
    ['video/mp4', 'binary'],
    ['audio/ogg', 'binary'],
    ['text/html', 'other'],
    ['text/json', 'other'],
    ['application/jsonl', 'other'],
    ['multipart/form-data', 'other'],
    ['application/x-www-form-urlencoded', 'other'],
  ])('%s is %s', (type, kind) => {
    expect(mediaKind(type)).toBe(kind);
  });
});

const doc = {
  components: {
    examples: {
      Named: { summary: 's', value: { from: 'components' } },
      External: { externalValue: 'https://x/e.json' },
    },
    schemas: {
      WithExamples: { type: 'string', examples: ['first', 'second'], example: 'legacy', default: 'd' },
      WithExample: { type: 'string', example: 'legacy', default: 'd' },
      WithDefault: { type: 'integer', default: 20 },
      Bare: { type: 'string' },
    },
    requestBodies: {
      Upload: {
        required: true,
        content: {
          'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
        },
      },
    },
  },
};
const ref = (/** @type {string} */ name) => ({ $ref: `#/components/${name}` });

describe('exampleOf', () => {
  it.each([
    [
      'a named example, through its $ref',
      { examples: { a: ref('examples/Named') }, example: 'ignored' },
      { from: 'components' },
    ],
    ['the first named example that has a value', { examples: { x: ref('examples/External'), y: { value: 2 } } }, 2],
    ['example when there are no named ones', { example: 0, schema: ref('schemas/WithExamples') }, 0],
    ['a null example is an example', { example: null }, null],
    ["the schema's first examples entry", { schema: ref('schemas/WithExamples') }, 'first'],
    ["the schema's example", { schema: ref('schemas/WithExample') }, 'legacy'],
    ["the schema's default", { schema: ref('schemas/WithDefault') }, 20],
    ['nothing', { schema: ref('schemas/Bare') }, undefined],
    ['no holder', undefined, undefined],
  ])('takes %s', (_, holder, want) => {
    expect(exampleOf(doc, holder)).toEqual(want);
  });

  it('names a dangling $ref', () => {
    expect(() => exampleOf(doc, { examples: { a: ref('examples/None') } })).toThrow(
      /#\/components\/examples\/None does not resolve/,
    );
  });
});

describe('requestBodyOf', () => {
  it.each([
    ['no body', {}, null],
    ['an empty content', { requestBody: { content: {} } }, null],
    [
      'the JSON media type before the others',
      {
        requestBody: {
          content: { 'text/plain': {}, 'application/json': { examples: { a: { value: { kind: 'image' } } } } },
        },
      },
      { mediaType: 'application/json', kind: 'json', required: false, example: { kind: 'image' } },
    ],
    [
      'a binary body through its $ref',
      { requestBody: ref('requestBodies/Upload') },
      { mediaType: 'application/octet-stream', kind: 'binary', required: true, example: undefined },
    ],
    [
      'the first type when none is JSON or binary',
      { requestBody: { content: { 'text/csv': { example: 'a,b' }, 'text/plain': {} } } },
      { mediaType: 'text/csv', kind: 'other', required: false, example: 'a,b' },
    ],
  ])('%s', (_, operation, want) => {
    expect(requestBodyOf(doc, operation)).toEqual(want);
  });
});
