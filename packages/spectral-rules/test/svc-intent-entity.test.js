import { documentWith, validDocument } from './support/documents.js';
import { describeRule } from './support/lint.js';

const schema = (name) => ['components', 'schemas', name];

describeRule('svc-intent-entity', [
  {
    name: 'passes: IntentInput with spec and metadata, IntentResponse adding status via allOf',
    given: validDocument(),
    want: [],
  },
  {
    name: 'passes: IntentResource whose spec is an anyOf and whose properties come from two allOf members',
    given: documentWith((doc) => {
      doc.components.schemas.ImageIntentResource = {
        allOf: [
          {
            type: 'object',
            properties: { spec: { anyOf: [{ $ref: '#/components/schemas/ImageSpec' }, { type: 'null' }] } },
          },
          {
            type: 'object',
            properties: {
              status: { $ref: '#/components/schemas/ImageStatus' },
              metadata: { $ref: '#/components/schemas/Metadata' },
            },
          },
        ],
      };
    }),
    want: [],
  },
  {
    name: 'passes: IntentResponse defined as a oneOf whose branches all have spec, status and metadata',
    given: documentWith((doc) => {
      const branch = (kind) => ({
        type: 'object',
        properties: { kind: { const: kind }, spec: {}, status: {}, metadata: {} },
      });
      doc.components.schemas.VmIntentResponse = { oneOf: [branch('vm'), branch('template')] };
    }),
    want: [],
  },
  {
    name: 'passes: other names are not intents (ImageSpec, IntentInputList)',
    given: documentWith((doc) => {
      doc.components.schemas.IntentInputList = { type: 'array', items: { type: 'string' } };
    }),
    want: [],
  },
  {
    name: 'fails: IntentInput without metadata (and the IntentResponse built on it with allOf)',
    given: documentWith((doc) => {
      delete doc.components.schemas.ImageIntentInput.properties.metadata;
    }),
    want: [
      { path: schema('ImageIntentInput'), field: 'metadata', says: ['*IntentInput schemas need spec, metadata'] },
      {
        path: schema('ImageIntentResponse'),
        field: 'metadata',
        says: ['*IntentResponse schemas need spec, status, metadata'],
      },
    ],
  },
  {
    name: 'fails: IntentResponse whose allOf members have no status',
    given: documentWith((doc) => {
      delete doc.components.schemas.ImageIntentResponse.allOf[1].properties.status;
    }),
    want: [{ path: schema('ImageIntentResponse'), field: 'status', says: ['IntentResponse'] }],
  },
  {
    name: 'fails: IntentResource with only spec (each missing property reported)',
    given: documentWith((doc) => {
      doc.components.schemas.ClusterIntentResource = { type: 'object', properties: { spec: { type: 'object' } } };
    }),
    want: [
      { path: schema('ClusterIntentResource'), field: 'status' },
      { path: schema('ClusterIntentResource'), field: 'metadata' },
    ],
  },
  {
    name: 'fails: IntentResponse as a oneOf where one branch lacks status',
    given: documentWith((doc) => {
      doc.components.schemas.VmIntentResponse = {
        oneOf: [
          { type: 'object', properties: { spec: {}, status: {}, metadata: {} } },
          { type: 'object', properties: { spec: {}, metadata: {} } },
        ],
      };
    }),
    want: [{ path: schema('VmIntentResponse'), field: 'status' }],
  },
]);
