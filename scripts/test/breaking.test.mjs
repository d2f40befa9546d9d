import { describe, expect, it } from 'vitest';
import { additions, breakingChanges, verdict } from '../lib/breaking.mjs';

/** A small bundle in this service's shape: a get by UUID, a list with a request body, refs. */
function base() {
  return {
    openapi: '3.1.0',
    info: { title: 't', version: '1.0.0' },
    paths: {
      '/images/{uuid}': {
        parameters: [{ $ref: '#/components/parameters/Uuid' }],
        get: {
          operationId: 'images_get',
          parameters: [{ name: 'expand', in: 'query', schema: { type: 'string', enum: ['spec', 'status'] } }],
          responses: {
            200: {
              description: 'ok',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Image' } } },
            },
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
                schema: {
                  type: 'object',
                  required: ['kind'],
                  properties: {
                    kind: { type: 'string', enum: ['image'] },
                    length: { type: 'integer' },
                    filter: { type: 'string' },
                  },
                },
              },
            },
          },
          responses: {
            200: {
              description: 'ok',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: { entities: { type: 'array', items: { $ref: '#/components/schemas/Image' } } },
                  },
                },
              },
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
                  properties: {
                    state: { type: 'string', enum: ['PENDING', 'COMPLETE', 'ERROR'] },
                    size_bytes: { type: 'integer', format: 'int64' },
                  },
                },
              },
            },
          ],
        },
        Entity: {
          type: 'object',
          properties: {
            metadata: { type: 'object', properties: { uuid: { type: 'string' }, name: { type: ['string', 'null'] } } },
          },
        },
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
      want: [
        { rule: 'request-field-retyped', where: 'request application/json: filter', says: 'from string to object' },
      ],
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
        {
          rule: 'response-field-retyped',
          where: 'response 200 application/json: metadata.uuid',
          says: 'do not expect a null',
        },
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
      d.components.schemas.Entity.properties.children = {
        type: 'array',
        items: { $ref: '#/components/schemas/Entity' },
      };
    });
    expect(breakingChanges(doc, structuredClone(doc))).toEqual([]);
  });

  it('rejects what is not an OpenAPI document, naming the argument', () => {
    expect(() => breakingChanges(base(), {})).toThrow(/"after" must be an OpenAPI document with a "paths" object/);
  });
});

describe('additions', () => {
  it.each([
    ['nothing', () => {}, []],
    [
      'an operation',
      (doc) =>
        (doc.paths['/tasks/{uuid}'] = { get: { operationId: 'tasks_get', responses: { 200: { description: 'ok' } } } }),
      ['operation GET /tasks/{uuid}'],
    ],
    [
      'a parameter and a response',
      (doc) => {
        getOp(doc).parameters.push({ name: 'page', in: 'query', schema: { type: 'integer' } });
        getOp(doc).responses[404] = { description: 'missing' };
      },
      ['GET /images/{uuid}: parameter query page', 'GET /images/{uuid}: response 404'],
    ],
    [
      'a property (also where allOf brings it in) and a component schema',
      (doc) => {
        doc.components.schemas.Entity.properties.owner = { type: 'string' };
        doc.components.schemas.Kind = { type: 'string', enum: ['image'] };
      },
      ['schema Image: property owner', 'schema Entity: property owner', 'schema Kind'],
    ],
    ['a removal is not an addition', (doc) => delete doc.paths['/images/list'], []],
  ])('%s', (_title, edit, want) => expect(additions(base(), changed(edit))).toEqual(want));
});

describe('verdict: the bump npm run breaking expects, and when a breaking change passes', () => {
  /** @returns {import('../lib/release.mjs').Changeset} */
  const major = (/** @type {string} */ summary) => ({
    file: '.changeset/x.md',
    summary,
    releases: [{ name: '@svc/client', type: 'major' }],
  });
  const dropState = (version) => (doc) => {
    delete doc.components.schemas.Image.allOf[1].properties.status.properties.state;
    doc.info.version = version;
  };
  // rows of differing lengths (the last column is optional)
  it.each(
    /** @type {any[][]} */ ([
      ['unchanged: no bump expected', () => {}, [], true, /t: 0 breaking change\(s\), 0 addition\(s\)$/m, /expects/],
      [
        'an addition expects minor',
        (doc) => (doc.components.schemas.Entity.properties.owner = { type: 'string' }),
        [],
        true,
        /expects a minor bump of info\.version \(1\.0\.0 -> 1\.0\.0: none\)/,
      ],
      [
        'a description change expects patch',
        (doc) => (getOp(doc).description = 'more words'),
        [],
        true,
        /expects a patch bump/,
      ],
      [
        'breaking without bump or changeset fails',
        dropState('1.0.0'),
        [],
        false,
        /BREAKING without a major bump of info\.version in spec\/t \(now 1\.0\.0 -> 1\.0\.0\) and a changeset/,
      ],
      [
        'breaking with a minor bump fails',
        dropState('1.1.0'),
        [major('t: Image.status.state removed')],
        false,
        /BREAKING without a major bump/,
      ],
      [
        'breaking with the major bump but no changeset fails',
        dropState('2.0.0'),
        [],
        false,
        /BREAKING without a changeset \("@svc\/client": major\) whose summary names "t"/,
      ],
      [
        'a changeset that does not name the API does not count',
        dropState('2.0.0'),
        [major('Breaks things.')],
        false,
        /BREAKING without a changeset/,
      ],
      [
        'a minor changeset does not count',
        dropState('2.0.0'),
        [{ ...major('t: state removed'), releases: [{ name: '@svc/client', type: 'minor' }] }],
        false,
        /BREAKING without a changeset/,
      ],
      [
        'breaking with the major bump and a changeset naming the API passes',
        dropState('2.0.0'),
        [major('t: `Image.status.state` is removed.')],
        true,
        /expects a major bump of info\.version \(1\.0\.0 -> 2\.0\.0: major\)[\s\S]*released as 1\.0\.0 -> 2\.0\.0, described in \.changeset\/x\.md/,
      ],
      [
        'info.version that is not semver fails',
        (doc) => (doc.info.version = '2.0'),
        [],
        false,
        /info\.version "2\.0" is not semver/,
      ],
    ]),
  )('%s', (_title, edit, changesets, ok, line, absent) => {
    const v = verdict('t', base(), changed(edit), changesets);
    expect(v.ok, v.lines.join('\n')).toBe(ok);
    expect(v.lines.join('\n')).toMatch(line);
    if (absent) expect(v.lines.join('\n')).not.toMatch(absent);
  });
});
