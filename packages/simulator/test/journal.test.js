// The request journal (src/control/journal.js): what it keeps of a request, its filters, and its bounds.
import { describe, expect, it } from 'vitest';
import { createJournal, JOURNAL_CAPACITY, PATH_KEPT, VIOLATIONS_KEPT, violationOf } from '../src/control/journal.js';

const enumError = {
  instancePath: '/requestBody/spec/resources/image_type',
  keyword: 'enum',
  params: { allowedValues: ['DISK_IMAGE', 'ISO_IMAGE'] },
  message: 'must be equal to one of the allowed values',
};

describe('the request journal', () => {
  it('lists each request newest first with its id, time, method, path, operation, status and duration', () => {
    const journal = createJournal();
    const before = Date.now();
    journal.record('post', '/api/svc/v3/images/list', 'images_list', 200, 1.2345);
    journal.record('GET', '/api/svc/v3/images/x', 'images_get', 404, 0.5);
    const { total, entries } = journal.list();
    expect(total).toBe(2);
    expect(entries).toEqual([
      {
        id: 2,
        time: expect.any(String),
        method: 'GET',
        path: '/api/svc/v3/images/x',
        operation_id: 'images_get',
        status: 404,
        duration_ms: 0.5,
        valid: true,
        violations: [],
      },
      {
        id: 1,
        time: expect.any(String),
        method: 'POST',
        path: '/api/svc/v3/images/list',
        operation_id: 'images_list',
        status: 200,
        duration_ms: 1.235,
        valid: true,
        violations: [],
      },
    ]);
    // the arrival: the answer's time less the duration
    expect(Date.parse(entries[1].time)).toBeGreaterThanOrEqual(before - 2);
    expect(Date.parse(entries[1].time)).toBeLessThanOrEqual(Date.now());
  });

  it("turns the validator's errors into violations: the part, a JSON Pointer, the rule; never the value", () => {
    const journal = createJournal();
    journal.record('post', '/api/svc/v3/images', 'images_create', 422, 1, [
      enumError,
      {
        instancePath: '/requestBody/spec',
        keyword: 'required',
        params: { missingProperty: 'name' },
        message: "must have required property 'name'",
      },
      {
        instancePath: '/requestBody',
        keyword: 'additionalProperties',
        params: { additionalProperty: 'a/b~c' },
        message: 'must NOT have additional properties',
      },
      { instancePath: '/query/length', keyword: 'type', params: { type: 'integer' }, message: 'must be integer' },
      {
        instancePath: '/path/uuid',
        keyword: 'format',
        params: { format: 'uuid' },
        message: 'must match format "uuid"',
      },
      {
        instancePath: '/headers/x-svc-checksum-type',
        keyword: 'enum',
        params: { allowedValues: ['SHA_1'] },
        message: 'must be equal to one of the allowed values',
      },
      { instancePath: '/requestBody', keyword: 'required', params: {}, message: 'a JSON request body is required' },
    ]);
    const [entry] = journal.list().entries;
    expect(entry.valid).toBe(false);
    expect(entry.violations).toEqual([
      {
        in: 'body',
        path: '/spec/resources/image_type',
        message: 'must be equal to one of the allowed values: "DISK_IMAGE", "ISO_IMAGE"',
        lenient: false,
      },
      { in: 'body', path: '/spec/name', message: "must have required property 'name'", lenient: false },
      { in: 'body', path: '/a~1b~0c', message: 'must NOT have additional properties', lenient: false },
      { in: 'query', path: '/length', message: 'must be integer', lenient: false },
      { in: 'path', path: '/uuid', message: 'must match format "uuid"', lenient: false },
      {
        in: 'header',
        path: '/x-svc-checksum-type',
        message: 'must be equal to one of the allowed values: "SHA_1"',
        lenient: false,
      },
      { in: 'body', path: '', message: 'a JSON request body is required', lenient: false },
    ]);
  });

  it("notes what a request leans on of production's leniency; the request stays valid", () => {
    const journal = createJournal();
    journal.record('post', '/api/svc/v2.0/images', 'images_create_v2_0', 201, 2, undefined, [
      { in: 'body', path: '/image_import_spec/container_name', message: 'is not a property of the description' },
    ]);
    expect(journal.list().entries[0]).toMatchObject({
      status: 201,
      valid: true,
      violations: [
        {
          in: 'body',
          path: '/image_import_spec/container_name',
          message: 'is not a property of the description',
          lenient: true,
        },
      ],
    });
    expect(journal.list({ valid: true }).total).toBe(1);
    expect(journal.list({ valid: false }).total).toBe(0);
  });

  it('marks a request that matched no operation as not valid', () => {
    const journal = createJournal();
    journal.record('get', '/api/svc/v3/nothing', undefined, 404, 0.1);
    expect(journal.list().entries[0]).toMatchObject({
      operation_id: null,
      valid: false,
      violations: [{ in: 'path', path: '', message: 'matches no operation of the description', lenient: false }],
    });
    expect(journal.list({ valid: true }).total).toBe(0);
  });

  it('filters by operation, status, validity and time, and counts every match in total past the limit', () => {
    const journal = createJournal();
    for (let i = 0; i < 5; i++) journal.record('post', '/api/svc/v3/images/list', 'images_list', 200, 1);
    journal.record('post', '/api/svc/v3/images', 'images_create', 422, 1, [enumError]);
    journal.record('post', '/api/svc/v3/images', 'images_create', 202, 1);
    const ids = (filter) => journal.list(filter).entries.map((e) => e.id);
    expect(ids({ operationId: 'images_create' })).toEqual([7, 6]);
    expect(ids({ status: 422 })).toEqual([6]);
    expect(ids({ valid: false })).toEqual([6]);
    expect(ids({ operationId: 'images_create', valid: true })).toEqual([7]);
    expect(journal.list({ operationId: 'images_list', limit: 2 })).toMatchObject({
      total: 5,
      entries: [{ id: 5 }, { id: 4 }],
    });
    expect(journal.list({ sinceMs: Date.now() + 60_000 })).toEqual({ total: 0, entries: [] });
    expect(journal.list({ sinceMs: Date.now() - 60_000 }).total).toBe(7);
  });

  it('empties on clear, and its ids go on rising', () => {
    const journal = createJournal();
    journal.record('get', '/a', 'a_list', 200, 1);
    journal.clear();
    expect(journal.list()).toEqual({ total: 0, entries: [] });
    expect(journal.size).toBe(0);
    journal.record('get', '/a', 'a_list', 200, 1);
    expect(journal.list().entries.map((e) => e.id)).toEqual([2]);
  });

  it('keeps the last 10,000 of 100,000 requests', () => {
    const journal = createJournal();
    expect(journal.capacity).toBe(JOURNAL_CAPACITY);
    for (let i = 1; i <= 100_000; i++) journal.record('post', '/api/svc/v3/images/list', 'images_list', 200, 1);
    expect(journal.size).toBe(10_000);
    const { total, entries } = journal.list({ limit: 10_000 });
    expect(total).toBe(10_000);
    expect(entries[0].id).toBe(100_000);
    expect(entries.at(-1)?.id).toBe(90_001);
  });

  it('bounds each entry: a long path is cut, at most 20 violations, a long message cut', () => {
    const journal = createJournal(3);
    const errors = Array.from({ length: 50 }, (_, i) => ({
      instancePath: `/query/p${i}`,
      keyword: 'type',
      message: 'x'.repeat(1000),
    }));
    journal.record('get', `/${'a'.repeat(5000)}`, 'images_list', 422, 1, errors);
    const [entry] = journal.list().entries;
    expect(entry.path).toHaveLength(PATH_KEPT);
    expect(entry.path.endsWith('…')).toBe(true);
    expect(entry.violations).toHaveLength(VIOLATIONS_KEPT);
    expect(entry.violations[0].message.length).toBeLessThanOrEqual(300);
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => createJournal(0)).toThrow(/positive integer/);
  });

  it('violationOf names a rule without a message by its keyword', () => {
    expect(violationOf({ instancePath: '/cookies/session', keyword: 'type' })).toEqual({
      in: 'cookie',
      path: '/session',
      message: 'must follow "type"',
      lenient: false,
    });
  });
});
