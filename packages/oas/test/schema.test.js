import { describe, expect, it } from 'vitest';
import { forEachProperty, schemaParts, walkSchema } from '../src/schema.js';

describe('walkSchema', () => {
  it('visits every subschema with its path, the 2020-12 keywords included, without following $ref', () => {
    /** @type {string[]} */
    const seen = [];
    walkSchema(
      {
        type: 'object',
        properties: { a: { allOf: [{ $ref: '#/x' }, { prefixItems: [{ type: 'string' }] }] } },
        dependentSchemas: { a: { required: ['b'] } },
        unevaluatedProperties: false,
        items: { not: {} },
        enum: [{ type: 'not a schema' }],
      },
      ['components', 'schemas', 'S'],
      (_schema, path) => seen.push(path.slice(3).join('.')),
    );
    expect(seen).toEqual([
      '',
      'properties.a',
      'properties.a.allOf.0',
      'properties.a.allOf.1',
      'properties.a.allOf.1.prefixItems.0',
      'dependentSchemas.a',
      'items',
      'items.not',
    ]);
  });

  it('gives array indexes as numbers (Spectral paths)', () => {
    /** @type {Array<string | number>[]} */
    const paths = [];
    walkSchema({ oneOf: [{}, {}] }, [], (_s, path) => paths.push(path));
    expect(paths).toEqual([[], ['oneOf', 0], ['oneOf', 1]]);
  });
});

describe('forEachProperty and schemaParts', () => {
  const doc = {
    paths: {
      '/a': {
        get: {
          responses: {
            200: { content: { 'application/json': { schema: { properties: { inline: { type: 'string' } } } } } },
          },
        },
      },
    },
    components: {
      schemas: {
        E: { properties: { uuid: { type: 'string' } } },
        I: { allOf: [{ $ref: '#/components/schemas/E' }, { properties: { size: { type: 'integer' } } }] },
      },
    },
  };

  it('finds properties where they are written: components and inline in operations', () => {
    /** @type {string[]} */
    const found = [];
    forEachProperty(doc, (name, _value, path) => found.push(`${name}@${path.join('/')}`));
    expect(found).toEqual([
      'uuid@components/schemas/E/properties/uuid',
      'size@components/schemas/I/allOf/1/properties/size',
      'inline@paths//a/get/responses/200/content/application/json/schema/properties/inline',
    ]);
  });

  it('collects the parts of a schema through $ref and allOf', () => {
    expect(schemaParts(doc, doc.components.schemas.I).map((p) => Object.keys(p.properties ?? p))).toEqual([
      ['allOf'],
      ['uuid'],
      ['size'],
    ]);
  });
});
