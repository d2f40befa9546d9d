import { documentWith, documentWithPaths, operation, validDocument } from './support/documents.js';
import { describeRule } from './support/lint.js';

describeRule('svc-operation-summary', [
  { name: 'passes: every operation has a one-line summary', given: validDocument(), want: [] },
  {
    name: 'passes: a summary of exactly 80 characters, ending in an ellipsis',
    given: documentWithPaths({
      '/tasks/{uuid}': { get: operation({ operationId: 'tasks_get', summary: `${'x'.repeat(77)}...` }) },
    }),
    want: [],
  },
  {
    name: 'fails: no summary',
    given: documentWith((doc) => {
      delete doc.paths['/images'].post.summary;
    }),
    want: [{ path: ['paths', '/images', 'post'], field: 'summary', says: ['POST /images', 'has no'] }],
  },
  {
    name: 'fails: an empty summary',
    given: documentWith((doc) => {
      doc.paths['/images/{uuid}'].get.summary = '  ';
    }),
    want: [{ path: ['paths', '/images/{uuid}', 'get'], field: 'summary', says: ['GET /images/{uuid}'] }],
  },
  {
    name: 'fails: a summary of several lines',
    given: documentWith((doc) => {
      doc.paths['/images/{uuid}'].delete.summary = 'Delete an image\nand its file';
    }),
    want: [{ path: ['paths', '/images/{uuid}', 'delete', 'summary'], field: 'summary', says: ['one line'] }],
  },
  {
    name: 'fails: a summary longer than 80 characters',
    given: documentWith((doc) => {
      doc.paths['/images/list'].post.summary = 'List '.repeat(17).trim();
    }),
    want: [
      { path: ['paths', '/images/list', 'post', 'summary'], field: 'summary', says: ['84 characters', '80 or fewer'] },
    ],
  },
  {
    name: 'fails: a summary that ends with a full stop',
    given: documentWith((doc) => {
      doc.paths['/images/{uuid}'].put.summary = 'Update an image.';
    }),
    want: [{ path: ['paths', '/images/{uuid}', 'put', 'summary'], field: 'summary', says: ['full stop'] }],
  },
]);
