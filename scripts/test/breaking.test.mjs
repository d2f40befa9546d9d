import { describe, expect, it } from 'vitest';
import { breakingChanges } from '../lib/breaking.mjs';

/** A small bundle in this service's shape: a get by UUID, a list with a request body, refs. */
function base() {
  return {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/images/{uuid}': {
        parameters: [{ $ref: '#/components/parameters/Uuid' }],
        get: {
          operationId: 'images_get',
          parameters: [{ name: 'expand', in: 'query', schema: { type: 'string', enum: ['spec', 'status'] } }],
          responses: {
            200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Image' } } } },
            default: { description: 'error' },
          },
        },
      },
      '/images/list': {
        post: {
          operationId: 'images_list',
          requestBody: {
            content: {
              'application/json': {
                schema: { type: 'object', required: ['kind'], properties: { kind: { type: 'string', enum: ['image'] }, length: { type: 'integer' }, filter: { type: 'string' } } },
              },
            },
          },
          responses: {
            200: {
              description: 'ok',
              content: { 'application/json': { schema: { type: 'object', properties: { entities: { type: 'array', items: { $ref: '#/components/schemas/Image' } } } } } },
            },
          },
        },
      },
    },
    components: {
      parameters: { Uuid: { name: 'uuid', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } } },
      schemas: {
        Image: {
          allOf: [
            { $ref: '#/components/schemas/Entity' },
            {
              type: 'object',
              properties: {
                status: {
                  type: 'object',
                  properties: { state: { type: 'string', enum: ['PENDING', 'COMPLETE', 'ERROR'] }, size_bytes: { type: 'integer', format: 'int64' } },
                },
              },
            },
          ],
        },
        Entity: { type: 'object', properties: { metadata: { type: 'object', properties: { uuid: { type: 'string' }, name: { type: ['string', 'null'] } } } } },
      },
    },
  };
}

/** `base()` changed by `edit`. */
function changed(edit) {
  const doc = base();
  edit(doc);
  return doc;
}

const listBody = (doc) => doc.paths['/images/list'].post.requestBody.content['application/json'].schema;
const getOp = (doc) => doc.paths['/images/{uuid}'].get;

describe('breakingChanges', () => {
  const cases = [
    { name: 'nothing changed', given: changed(() => {}), want: [] },
    {
      name: 'additions do not break: a new path, an optional parameter, a response field, an enum value',
      given: changed((doc) => {
        doc.paths['/tasks/{uuid}'] = { get: { operationId: 'tasks_get', responses: { 200: { description: 'ok' } } } };
        getOp(doc).parameters.push({ name: 'page', in: 'query', schema: { type: 'integer' } });
        doc.components.schemas.Entity.properties.metadata.properties.owner = { type: 'string' };
        doc.components.schemas.Image.allOf[1].properties.status.properties.state.enum.push('DELETED');
        listBody(doc).properties.length.type = 'number'; // a request accepts more
        doc.components.schemas.Entity.properties.metadata.properties.name.type = 'string'; // a response sends less
      }),
      want: [],
    },
    {
      name: 'an operation removed',
      given: changed((doc) => {
        delete doc.paths['/images/list'];
      }),
      want: [{ rule: 'operation-removed', operation: 'POST /images/list (images_list)' }],
    },
    {
      name: 'an operation moved to another path keeps its operationId and is reported as moved',
      given: changed((doc) => {
        doc.paths['/images/search'] = doc.paths['/images/list'];
        delete doc.paths['/images/list'];
      }),
      want: [{ rule: 'operation-removed', says: 'moved to POST /images/search' }],
    },
    {
      name: 'an operationId renamed',
      given: changed((doc) => {
        getOp(doc).operationId = 'images_read';
      }),
      want: [{ rule: 'operation-id-renamed', operation: 'GET /images/{uuid} (images_get)', says: '"images_read"' }],
    },
    {
      name: 'a path parameter renamed',
      given: changed((doc) => {
        doc.paths['/images/{image_uuid}'] = doc.paths['/images/{uuid}'];
        delete doc.paths['/images/{uuid}'];
        doc.components.parameters.Uuid.name = 'image_uuid';
      }),
      want: [{ rule: 'path-parameter-renamed', says: '{uuid} renamed to {image_uuid}' }],
    },
    {
      name: 'a new required query parameter',
      given: changed((doc) => {
        getOp(doc).parameters.push({ name: 'view', in: 'query', required: true, schema: { type: 'string' } });
      }),
      want: [{ rule: 'parameter-newly-required', where: 'query parameter view' }],
    },
    {
      name: 'an optional parameter made required',
      given: changed((doc) => {
        getOp(doc).parameters[0].required = true;
      }),
      want: [{ rule: 'parameter-newly-required', where: 'query parameter expand', says: 'now required' }],
    },
    {
      name: 'a request body made required',
      given: changed((doc) => {
        doc.paths['/images/list'].post.requestBody.required = true;
      }),
      want: [{ rule: 'request-body-newly-required' }],
    },
    {
      name: 'a request field made required',
      given: changed((doc) => {
        listBody(doc).required.push('length');
      }),
      want: [{ rule: 'request-field-newly-required', where: 'request application/json: length' }],
    },
    {
      name: 'a request field retyped',
      given: changed((doc) => {
        listBody(doc).properties.filter.type = 'object';
      }),
      want: [{ rule: 'request-field-retyped', where: 'request application/json: filter', says: 'from string to object' }],
    },
    {
      name: 'a response field removed (through $ref and allOf, in a get and in a list)',
      given: changed((doc) => {
        delete doc.components.schemas.Image.allOf[1].properties.status.properties.size_bytes;
      }),
      want: [
        { rule: 'response-field-removed', where: 'response 200 application/json: status.size_bytes' },
        { rule: 'response-field-removed', where: 'response 200 application/json: entities[].status.size_bytes' },
      ],
    },
    {
      name: 'a response field retyped',
      given: changed((doc) => {
        doc.components.schemas.Entity.properties.metadata.properties.uuid.type = ['string', 'null'];
      }),
      want: [
        { rule: 'response-field-retyped', where: 'response 200 application/json: metadata.uuid', says: 'do not expect a null' },
        { rule: 'response-field-retyped', where: 'response 200 application/json: entities[].metadata.uuid' },
      ],
    },
    {
      name: 'an enum value removed from a response and from a request parameter',
      given: changed((doc) => {
        doc.components.schemas.Image.allOf[1].properties.status.properties.state.enum = ['PENDING', 'COMPLETE'];
        getOp(doc).parameters[0].schema.enum = ['spec'];
      }),
      want: [
        { rule: 'enum-value-removed', where: 'query parameter expand', says: '"status"' },
        { rule: 'enum-value-removed', where: 'response 200 application/json: status.state', says: '"ERROR"' },
        { rule: 'enum-value-removed', where: 'response 200 application/json: entities[].status.state' },
      ],
    },
    {
      name: 'a success response removed',
      given: changed((doc) => {
        getOp(doc).responses = { 202: getOp(doc).responses[200], default: { description: 'error' } };
      }),
      want: [{ rule: 'response-removed', where: 'response 200' }],
    },
  ];

  for (const c of cases) {
    it(c.name, () => {
      const got = breakingChanges(base(), c.given);
      expect(got.length, JSON.stringify(got, null, 1)).toBe(c.want.length);
      c.want.forEach((w, i) => {
        expect(got[i].rule).toBe(w.rule);
        if (w.operation) expect(got[i].operation).toBe(w.operation);
        if (w.where) expect(got[i].where).toBe(w.where);
        if (w.says) expect(got[i].message).toContain(w.says);
      });
    });
  }

  it('survives a recursive schema', () => {
    const doc = changed((d) => {
      d.components.schemas.Entity.properties.children = { type: 'array', items: { $ref: '#/components/schemas/Entity' } };
    });
    expect(breakingChanges(doc, structuredClone(doc))).toEqual([]);
  });

  it('rejects what is not an OpenAPI document, naming the argument', () => {
    expect(() => breakingChanges(base(), {})).toThrow(/"after" must be an OpenAPI document with a "paths" object/);
  });
});
