import { documentWith, validDocument } from './support/documents.js';
import { describeRule } from './support/lint.js';

describeRule('svc-api-version-string', [
  {
    name: 'passes: api_version is type string everywhere',
    given: validDocument(),
    want: [],
  },
  {
    name: 'passes: api_version through $ref, and nullable as type [string, null]',
    given: documentWith((doc) => {
      doc.components.schemas.ApiVersion = { type: 'string', description: 'The API version, e.g. 3.1.' };
      doc.components.schemas.ImageIntentInput.properties.api_version = { $ref: '#/components/schemas/ApiVersion' };
      doc.components.schemas.Error.properties.api_version = { type: ['string', 'null'] };
    }),
    want: [],
  },
  {
    name: 'fails: api_version as a number in a component schema',
    given: documentWith((doc) => {
      doc.components.schemas.ImageIntentInput.properties.api_version = { type: 'number' };
    }),
    want: [
      {
        path: ['components', 'schemas', 'ImageIntentInput', 'properties', 'api_version'],
        field: 'api_version',
        says: ['type: string', '"number"'],
      },
    ],
  },
  {
    name: 'fails: api_version without a type, inline in a nested schema',
    given: documentWith((doc) => {
      doc.components.schemas.ImageListResponse.properties.metadata.properties.api_version = { description: 'version' };
    }),
    want: [
      {
        path: ['components', 'schemas', 'ImageListResponse', 'properties', 'metadata', 'properties', 'api_version'],
        field: 'api_version',
        says: ['absent'],
      },
    ],
  },
  {
    name: 'fails: api_version as an integer in an inline request body schema',
    given: documentWith((doc) => {
      doc.paths['/images/list'].post.requestBody.content['application/json'].schema = {
        type: 'object',
        properties: { api_version: { type: 'integer' }, kind: { type: 'string' } },
      };
    }),
    want: [
      {
        path: [
          'paths',
          '/images/list',
          'post',
          'requestBody',
          'content',
          'application/json',
          'schema',
          'properties',
          'api_version',
        ],
        field: 'api_version',
        says: ['"integer"'],
      },
    ],
  },
]);
