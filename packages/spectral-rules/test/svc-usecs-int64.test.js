import { documentWith, validDocument } from './support/documents.js';
import { describeRule } from './support/lint.js';

const statusProperty = (name) => ['components', 'schemas', 'ImageStatus', 'properties', name];

describeRule('svc-usecs-int64', [
  {
    name: 'passes: duration_usecs is an int64 integer',
    given: validDocument(),
    want: [],
  },
  {
    name: 'passes: through $ref and type [integer, null]; usecs_total is not a *_usecs name',
    given: documentWith((doc) => {
      doc.components.schemas.Microseconds = { type: 'integer', format: 'int64', minimum: 0 };
      doc.components.schemas.ImageStatus.properties.duration_usecs = { $ref: '#/components/schemas/Microseconds' };
      doc.components.schemas.ImageStatus.properties.queue_usecs = { type: ['integer', 'null'], format: 'int64' };
      doc.components.schemas.ImageStatus.properties.usecs_total = { type: 'number' };
    }),
    want: [],
  },
  {
    name: 'fails: *_usecs as int32',
    given: documentWith((doc) => {
      doc.components.schemas.ImageStatus.properties.duration_usecs = { type: 'integer', format: 'int32' };
    }),
    want: [
      { path: statusProperty('duration_usecs'), field: 'duration_usecs', says: ['format: int64', 'format is "int32"'] },
    ],
  },
  {
    name: 'fails: *_usecs as a number without format',
    given: documentWith((doc) => {
      doc.components.schemas.ImageStatus.properties.duration_usecs = { type: 'number' };
    }),
    want: [
      {
        path: statusProperty('duration_usecs'),
        field: 'duration_usecs',
        says: ['type is "number"', 'format is absent'],
      },
    ],
  },
  {
    name: 'fails: *_usecs in an array item schema',
    given: documentWith((doc) => {
      doc.components.schemas.ImageStatus.properties.phases = {
        type: 'array',
        items: { type: 'object', properties: { elapsed_usecs: { type: 'string' } } },
      };
    }),
    want: [
      {
        path: [...statusProperty('phases'), 'items', 'properties', 'elapsed_usecs'],
        field: 'elapsed_usecs',
        says: ['type: integer'],
      },
    ],
  },
]);
