import { documentWith, documentWithPaths, operation, validDocument } from './support/documents.js';
import { describeRule } from './support/lint.js';

describeRule('svc-operation-responses', [
  { name: 'passes: every operation has a 4xx and a default response', given: validDocument(), want: [] },
  {
    name: 'passes: a 4XX range counts as a 4xx response',
    given: documentWithPaths({
      '/tasks/{uuid}': {
        get: operation({
          operationId: 'tasks_get',
          responses: {
            200: { description: 'OK' },
            '4XX': { description: 'Client error' },
            default: { description: 'Error' },
          },
        }),
      },
    }),
    want: [],
  },
  {
    name: 'fails: no 4xx response',
    given: documentWith((doc) => {
      delete doc.paths['/images'].post.responses['400'];
    }),
    want: [{ path: ['paths', '/images', 'post', 'responses'], field: '4xx', says: ['POST /images', 'e.g. 400'] }],
  },
  {
    name: 'fails: no default response',
    given: documentWith((doc) => {
      delete doc.paths['/images/{uuid}'].delete.responses.default;
    }),
    want: [
      { path: ['paths', '/images/{uuid}', 'delete', 'responses'], field: 'default', says: ['DELETE /images/{uuid}'] },
    ],
  },
  {
    name: 'fails: neither (5xx does not help), each reported',
    given: documentWithPaths({
      '/tasks/poll': {
        post: operation({
          operationId: 'tasks_poll',
          responses: { 200: { description: 'OK' }, 500: { description: 'Server error' } },
        }),
      },
    }),
    want: [
      { path: ['paths', '/tasks/poll', 'post', 'responses'], field: '4xx', says: ['POST /tasks/poll'] },
      { path: ['paths', '/tasks/poll', 'post', 'responses'], field: 'default', says: ['POST /tasks/poll'] },
    ],
  },
]);
