import { documentWith, operation, UUID_PATTERN, validDocument } from './support/documents.js';
import { describeRule } from './support/lint.js';

const Uuid = { $ref: '#/components/schemas/Uuid' };
const metadataProperty = (name) => ['components', 'schemas', 'Metadata', 'properties', name];
const taskUuidPath = [
  'components',
  'schemas',
  'ImageStatus',
  'properties',
  'execution_context',
  'properties',
  'task_uuid',
];

describeRule('svc-uuid', [
  {
    name: 'passes: uuid/owner_uuid via $ref, category_uuid_list of UUIDs, task_uuid string-or-list, path parameter',
    given: validDocument(),
    want: [],
  },
  {
    name: 'passes: UUIDs written inline, nullable through anyOf and type lists',
    given: documentWith((doc) => {
      const props = doc.components.schemas.Metadata.properties;
      props.owner_uuid = { type: 'string', format: 'uuid', pattern: UUID_PATTERN };
      props.parent_uuid = { anyOf: [Uuid, { type: 'null' }] };
      props.project_uuid = { type: ['string', 'null'], format: 'uuid', pattern: UUID_PATTERN };
      props.member_uuid_list = { anyOf: [{ type: 'array', items: Uuid }, { type: 'null' }] };
      props.uuid = { allOf: [Uuid], description: 'The UUID of the entity.' };
    }),
    want: [],
  },
  {
    name: 'passes: other names (uuid_count, uuids) are not checked',
    given: documentWith((doc) => {
      doc.components.schemas.Metadata.properties.uuid_count = { type: 'integer' };
      doc.components.schemas.Metadata.properties.uuids = { type: 'string' };
    }),
    want: [],
  },
  {
    name: 'fails: *_uuid as a plain string',
    given: documentWith((doc) => {
      doc.components.schemas.Metadata.properties.owner_uuid = { type: 'string' };
    }),
    want: [
      { path: metadataProperty('owner_uuid'), field: 'owner_uuid', says: ['format is absent', 'pattern is absent'] },
    ],
  },
  {
    name: 'fails: uuid with format: uuid but no pattern',
    given: documentWith((doc) => {
      doc.components.schemas.Metadata.properties.uuid = { type: 'string', format: 'uuid' };
    }),
    want: [{ path: metadataProperty('uuid'), field: 'uuid', says: ['pattern is absent'] }],
  },
  {
    name: 'fails: *_uuid referencing a schema that is not a UUID',
    given: documentWith((doc) => {
      doc.components.schemas.Name = { type: 'string' };
      doc.components.schemas.TaskReference.properties.task_uuid = { $ref: '#/components/schemas/Name' };
    }),
    want: [
      {
        path: ['components', 'schemas', 'TaskReference', 'properties', 'task_uuid'],
        field: 'task_uuid',
        says: ['format is absent'],
      },
    ],
  },
  {
    name: 'fails: *_uuid_list whose items are plain strings',
    given: documentWith((doc) => {
      doc.components.schemas.Metadata.properties.category_uuid_list = { type: 'array', items: { type: 'string' } };
    }),
    want: [
      {
        path: metadataProperty('category_uuid_list'),
        field: 'category_uuid_list',
        says: ['array of UUID strings', 'items:'],
      },
    ],
  },
  {
    name: 'fails: *_uuid_list that is not an array',
    given: documentWith((doc) => {
      doc.components.schemas.Metadata.properties.category_uuid_list = Uuid;
    }),
    want: [{ path: metadataProperty('category_uuid_list'), field: 'category_uuid_list', says: ['type is "string"'] }],
  },
  {
    name: 'fails: a oneOf value with a branch that is neither a UUID nor a list of UUIDs',
    given: documentWith((doc) => {
      doc.components.schemas.ImageStatus.properties.execution_context.properties.task_uuid = {
        oneOf: [Uuid, { type: 'integer' }],
      };
    }),
    want: [{ path: taskUuidPath, field: 'task_uuid', says: ['oneOf branch 1'] }],
  },
  {
    name: 'fails: shared path parameter uuid whose schema is a plain string',
    given: documentWith((doc) => {
      doc.components.parameters.Uuid.schema = { type: 'string' };
    }),
    want: [
      {
        path: ['components', 'parameters', 'Uuid', 'schema'],
        field: 'uuid',
        says: ['path parameter', 'components.parameters.Uuid'],
      },
    ],
  },
  {
    name: 'fails: inline path parameter *_uuid typed integer (query parameters are not checked)',
    given: documentWith((doc) => {
      doc.paths['/clusters/{cluster_uuid}'] = {
        get: operation({
          operationId: 'clusters_get',
          parameters: [
            { name: 'cluster_uuid', in: 'path', required: true, schema: { type: 'integer' } },
            { name: 'owner_uuid', in: 'query', schema: { type: 'string' } },
          ],
        }),
      };
    }),
    want: [
      {
        path: ['paths', '/clusters/{cluster_uuid}', 'get', 'parameters', 0, 'schema'],
        field: 'cluster_uuid',
        says: ['GET /clusters/{cluster_uuid}', 'type is "integer"'],
      },
    ],
  },
]);
