import { describe, expect, it } from 'vitest';
import { isReadOnly, operations } from '../src/index.js';

const doc = {
  paths: {
    '/images/{uuid}': {
      get: { operationId: 'images_get' },
      head: { operationId: 'images_head' },
      put: { operationId: 'images_update' },
      delete: { operationId: 'images_delete' },
    },
    '/images': { post: { operationId: 'images_create' } },
    '/images/list': { post: { operationId: 'images_list', 'x-svc-idempotent': true } },
    // A name that reads like a list decides nothing: only the mark does.
    '/tasks/list': { post: { operationId: 'tasks_list' } },
    '/tasks/poll': { post: { operationId: 'tasks_poll', 'x-svc-idempotent': false } },
  },
};
const byId = Object.fromEntries(operations(doc).map((o) => [o.operationId, isReadOnly(o)]));

describe('isReadOnly', () => {
  it('is true for GET and HEAD, and for a POST marked x-svc-idempotent: true', () => {
    expect(byId).toEqual({
      images_get: true,
      images_head: true,
      images_update: false,
      images_delete: false,
      images_create: false,
      images_list: true,
      tasks_list: false,
      tasks_poll: false,
    });
  });

  it('takes the method in any case', () => {
    expect(isReadOnly({ method: 'GET', operation: {} })).toBe(true);
    expect(isReadOnly({ method: 'POST', operation: { 'x-svc-idempotent': true } })).toBe(true);
  });

  it('names the operation when the mark is not a boolean', () => {
    expect(() =>
      isReadOnly({ method: 'post', operationId: 'groups_list', operation: { 'x-svc-idempotent': 'yes' } }),
    ).toThrow(/groups_list: x-svc-idempotent must be true or false; got "yes"/);
  });

  it('refuses the mark on a method other than POST (a DELETE is never read-only)', () => {
    expect(() =>
      isReadOnly({ method: 'delete', path: '/images/{uuid}', operation: { 'x-svc-idempotent': true } }),
    ).toThrow(/DELETE \/images\/\{uuid\}: x-svc-idempotent applies to POST operations only/);
  });
});
