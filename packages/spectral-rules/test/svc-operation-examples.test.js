import { documentWith, validDocument } from './support/documents.js';
import { describeRule } from './support/lint.js';

const json = 'application/json';

describeRule('svc-operation-examples', [
  {
    name: 'passes: JSON bodies have named examples; binary bodies, 204 and error responses need none',
    given: validDocument(),
    want: [],
  },
  {
    name: 'passes: examples by $ref and a +json media type',
    given: documentWith((doc) => {
      const media = doc.paths['/images/{uuid}'].delete.responses['202'].content;
      doc.components.examples = { Started: { summary: 'A task', value: media[json].examples.started.value } };
      media['application/hal+json'] = {
        schema: media[json].schema,
        examples: { started: { $ref: '#/components/examples/Started' } },
      };
    }),
    want: [],
  },
  {
    name: 'fails: request body with only "example"',
    given: documentWith((doc) => {
      const media = doc.paths['/images'].post.requestBody.content[json];
      media.example = media.examples.ubuntu.value;
      delete media.examples;
    }),
    want: [
      {
        path: ['paths', '/images', 'post', 'requestBody', 'content', json],
        field: 'examples',
        says: ['request body', 'POST /images', 'only "example"'],
      },
    ],
  },
  {
    name: 'fails: inline 200 response without examples',
    given: documentWith((doc) => {
      delete doc.paths['/images/list'].post.responses['200'].content[json].examples;
    }),
    want: [
      {
        path: ['paths', '/images/list', 'post', 'responses', '200', 'content', json],
        field: 'examples',
        says: ['200 response', 'POST /images/list'],
      },
    ],
  },
  {
    name: 'fails: an empty examples map',
    given: documentWith((doc) => {
      doc.paths['/images/{uuid}'].delete.responses['202'].content[json].examples = {};
    }),
    want: [
      {
        path: ['paths', '/images/{uuid}', 'delete', 'responses', '202', 'content', json],
        field: 'examples',
        says: ['202 response', 'DELETE /images/{uuid}'],
      },
    ],
  },
  {
    name: 'fails: a shared response without examples is reported once, at the component',
    given: documentWith((doc) => {
      delete doc.components.responses.ImageIntentResponse.content[json].examples;
    }),
    want: [
      {
        path: ['components', 'responses', 'ImageIntentResponse', 'content', json],
        field: 'examples',
        says: ['components.responses.ImageIntentResponse'],
      },
    ],
  },
  {
    name: 'fails: a shared request body without examples',
    given: documentWith((doc) => {
      doc.components.requestBodies = {
        ImageIntentInput: {
          required: true,
          content: { [json]: { schema: { $ref: '#/components/schemas/ImageIntentInput' } } },
        },
      };
      doc.paths['/images/{uuid}'].put.requestBody = { $ref: '#/components/requestBodies/ImageIntentInput' };
    }),
    want: [
      {
        path: ['components', 'requestBodies', 'ImageIntentInput', 'content', json],
        field: 'examples',
        says: ['request body', 'PUT /images/{uuid}'],
      },
    ],
  },
]);
