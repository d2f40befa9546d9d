import { documentWith, validDocument } from './support/documents.js';
import { describeRule } from './support/lint.js';

const metadataProperty = (name) => ['components', 'schemas', 'Metadata', 'properties', name];

describeRule('svc-time-date-time', [
  {
    name: 'passes: creation_time and last_update_time are date-time strings',
    given: validDocument(),
    want: [],
  },
  {
    name: 'passes: through $ref, allOf and a nullable anyOf; other names (timeout, time_zone) are not checked',
    given: documentWith((doc) => {
      doc.components.schemas.Timestamp = { type: 'string', format: 'date-time' };
      const props = doc.components.schemas.Metadata.properties;
      props.creation_time = { $ref: '#/components/schemas/Timestamp' };
      props.last_update_time = { allOf: [{ $ref: '#/components/schemas/Timestamp' }], readOnly: true };
      props.deletion_time = { anyOf: [{ $ref: '#/components/schemas/Timestamp' }, { type: 'null' }] };
      props.timeout = { type: 'integer' };
      props.time_zone = { type: 'string' };
    }),
    want: [],
  },
  {
    name: 'fails: *_time as an integer (epoch seconds)',
    given: documentWith((doc) => {
      doc.components.schemas.Metadata.properties.creation_time = { type: 'integer', format: 'int64' };
    }),
    want: [
      {
        path: metadataProperty('creation_time'),
        field: 'creation_time',
        says: ['format: date-time', 'type is "integer"'],
      },
    ],
  },
  {
    name: 'fails: *_time with format date',
    given: documentWith((doc) => {
      doc.components.schemas.Metadata.properties.last_update_time = { type: 'string', format: 'date' };
    }),
    want: [{ path: metadataProperty('last_update_time'), field: 'last_update_time', says: ['format is "date"'] }],
  },
  {
    name: 'fails: *_time without format, inline in a 200 response schema',
    given: documentWith((doc) => {
      const media = doc.paths['/images/list'].post.responses['200'].content['application/json'];
      media.schema = { type: 'object', properties: { snapshot_time: { type: 'string' } } };
      media.examples = { one: { value: { snapshot_time: 'now' } } };
    }),
    want: [
      {
        path: [
          'paths',
          '/images/list',
          'post',
          'responses',
          '200',
          'content',
          'application/json',
          'schema',
          'properties',
          'snapshot_time',
        ],
        field: 'snapshot_time',
        says: ['format is absent'],
      },
    ],
  },
]);
