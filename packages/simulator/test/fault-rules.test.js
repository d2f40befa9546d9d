// The fault rules of /_svc/faults (src/faults.js createFaultRules) and the rules --faults starts with.
import { describe, expect, it } from 'vitest';
import { createFaultRules, FaultRuleInvalid, faultRulesOf, parseFaults } from '../src/faults.js';

const LIST = ['images_list', 'post', '/api/svc/v3/images/list', true];
const CREATE = ['images_create', 'post', '/api/svc/v3/images', false];
const GET = ['images_get', 'get', '/api/svc/v3/images/0e09cf83-ac68-4f28-af70-6df9a43df4f0', true];

/** `match` of each request in turn: the statuses a hit answers (200: none), the latencies, the task failures. */
function run(rules, requests) {
  return requests.map((r) => {
    const hit = rules.match(...r);
    return { status: hit?.status ?? 200, latencyMs: hit?.latencyMs ?? 0, failTask: hit?.failTask ?? false };
  });
}

describe('faultRulesOf (--faults at start)', () => {
  it('turns each key into a rule; kill-at stays the crash seam', () => {
    expect(faultRulesOf(parseFaults('503=0.2,429=0.1,latency=50,task-fail=0.5,retry-after=3,kill-at=9'))).toEqual([
      { latency_ms: 50, probability: 1 },
      { idempotent: true, status: 503, retry_after_seconds: 3, probability: 0.2 },
      { idempotent: true, status: 429, retry_after_seconds: 3, probability: 0.1 / 0.8 },
      { fail_task: true, probability: 0.5 },
    ]);
    expect(faultRulesOf({})).toEqual([]);
  });

  it('keeps the shares --faults promises: 503 and 429 of idempotent calls, never of the others', () => {
    const rules = createFaultRules({ rules: faultRulesOf(parseFaults('503=0.1,429=0.05')), seed: 7 });
    const reads = run(
      rules,
      Array.from({ length: 20_000 }, () => LIST),
    );
    const share = (status) => reads.filter((r) => r.status === status).length / reads.length;
    // seeded: the same draws each run; 0.003 is two standard deviations of 20,000 draws
    expect(Math.abs(share(503) - 0.1)).toBeLessThan(0.003);
    expect(Math.abs(share(429) - 0.05)).toBeLessThan(0.003);
    expect(
      run(
        rules,
        Array.from({ length: 1000 }, () => CREATE),
      ).every((r) => r.status === 200),
    ).toBe(true);
  });
});

describe('createFaultRules', () => {
  it('matches by operation_id, method, path (with *) and idempotent; all given must match', () => {
    const rules = createFaultRules({
      rules: [
        { operation_id: 'images_list', status: 503, probability: 1 },
        { method: 'GET', path: '/api/svc/v3/images/*', status: 404, probability: 1 },
        { idempotent: false, latency_ms: 5, probability: 1 },
      ],
    });
    expect(run(rules, [LIST, GET, CREATE])).toEqual([
      { status: 503, latencyMs: 0, failTask: false },
      { status: 404, latencyMs: 0, failTask: false },
      { status: 200, latencyMs: 5, failTask: false },
    ]);
    // `*` is one segment, not more
    expect(rules.match('images_download_file', 'get', '/api/svc/v3/images/x/file', true)).toBeUndefined();
    expect(rules.match('images_get', 'get', '/api/svc/v3/images/x', true)?.status).toBe(404);
  });

  it('ends a rule after count hits, and lists the hits and the count left', () => {
    const rules = createFaultRules({ rules: [{ operation_id: 'images_list', status: 503, probability: 1, count: 2 }] });
    expect(run(rules, [LIST]).map((r) => r.status)).toEqual([503]);
    expect(rules.list().rules).toEqual([
      { operation_id: 'images_list', probability: 1, status: 503, retry_after_seconds: 1, count: 1, hits: 1 },
    ]);
    expect(run(rules, [CREATE, LIST, LIST]).map((r) => r.status)).toEqual([200, 503, 200]);
    expect(rules.list().rules).toEqual([]);
  });

  it('replays the same hits for the same seed, and other ones for another', () => {
    const statuses = (seed) =>
      run(createFaultRules({ rules: [{ status: 503, probability: 0.3 }], seed }), Array(200).fill(LIST)).map(
        (r) => r.status,
      );
    expect(statuses(7)).toEqual(statuses(7));
    expect(statuses(7)).not.toEqual(statuses(8));
    expect(new Set(statuses(7))).toEqual(new Set([200, 503]));
    const rules = createFaultRules({ rules: [{ status: 503, probability: 0.3 }], seed: 7 });
    run(rules, Array(50).fill(LIST));
    rules.set([{ status: 503, probability: 0.3 }], 7);
    expect(run(rules, Array(200).fill(LIST)).map((r) => r.status)).toEqual(statuses(7));
    expect(rules.list().seed).toBe(7);
  });

  it('answers the first status hit; latencies add up; a later status rule is neither drawn nor spent', () => {
    const rules = createFaultRules({
      rules: [
        { latency_ms: 10, probability: 1 },
        { status: 429, probability: 1, retry_after_seconds: 4 },
        { status: 503, probability: 1, count: 1 },
        { latency_ms: 5, status: 500, probability: 1 },
      ],
    });
    const hit = rules.match(...LIST);
    expect(hit).toEqual({ latencyMs: 15, status: 429, retryAfterSeconds: 4, failTask: false });
    expect(rules.list().rules.map((r) => r.hits)).toEqual([1, 1, 0, 1]);
  });

  it('answers 503 and 429 with Retry-After, any other status as a simulated fault', () => {
    const rules = createFaultRules();
    const hit = (status) => ({ latencyMs: 0, status, retryAfterSeconds: 2, failTask: false });
    expect(rules.errorOf(hit(503))).toMatchObject({
      status: 503,
      reason: 'SERVICE_UNAVAILABLE',
      headers: { 'retry-after': '2' },
    });
    expect(rules.errorOf(hit(429))).toMatchObject({
      status: 429,
      reason: 'TOO_MANY_REQUESTS',
      headers: { 'retry-after': '2' },
    });
    expect(rules.errorOf(hit(500))).toMatchObject({ status: 500, reason: 'SIMULATED_FAULT', headers: undefined });
    expect(rules.errorOf(undefined)).toBeUndefined();
    expect(rules.errorOf({ ...hit(undefined), latencyMs: 5 })).toBeUndefined();
  });

  it('waits the latency of a hit, and nothing without one', async () => {
    const rules = createFaultRules({ rules: [{ latency_ms: 30, probability: 1 }] });
    expect(rules.delay(undefined)).toBeUndefined();
    const started = performance.now();
    await rules.delay(rules.match(...LIST));
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });

  it('fails the task a hit request starts, in its async context only, never on a read', async () => {
    const rules = createFaultRules({ rules: [{ operation_id: 'images_create', fail_task: true, probability: 1 }] });
    expect(rules.match('images_create', 'post', '/api/svc/v3/images', true)).toBeUndefined();
    const hit = rules.match(...CREATE);
    expect(hit?.failTask).toBe(true);
    // the domain runs a task from setImmediate once its transaction has committed
    const later = await rules.during(
      hit,
      () => new Promise((resolve) => setImmediate(() => resolve(rules.taskFails()))),
    );
    expect(later).toBe(true);
    expect(rules.taskFails()).toBe(false);
    expect(rules.during(rules.match(...LIST), () => rules.taskFails())).toBe(false);
  });

  it('matches nothing and allocates no hit without rules', () => {
    const rules = createFaultRules();
    expect(rules.match(...LIST)).toBeUndefined();
    rules.set([{ status: 503, probability: 1 }]);
    rules.clear();
    expect(rules.match(...LIST)).toBeUndefined();
    expect(rules.list()).toEqual({ rules: [] });
  });

  it.each([
    [[{ status: 503 }], 'rules[0].probability', /required/],
    [[{ probability: 1 }], 'rules[0]', /status, latency_ms or fail_task/],
    [
      [
        { probability: 1, status: 503 },
        { probability: 2, status: 503 },
      ],
      'rules[1].probability',
      /0 to 1/,
    ],
    [[{ probability: 1, status: 302 }], 'rules[0].status', /400 to 599/],
    [[{ probability: 1, status: 503, method: 'get' }], 'rules[0].method', /GET/],
    [[{ probability: 1, status: 503, path: 'images' }], 'rules[0].path', /matching/],
    [[{ probability: 1, status: 503, colour: 'red' }], 'rules[0].colour', /not a field/],
    [[{ probability: 1, fail_task: false }], 'rules[0].fail_task', /must be true/],
    [[{ probability: 1, latency_ms: 1.5 }], 'rules[0].latency_ms', /integer/],
    [[{ probability: 1, status: 503, count: 0 }], 'rules[0].count', /from 1/],
  ])('refuses %j naming %s, and keeps the rules in force', (given, field, rule) => {
    const rules = createFaultRules({ rules: [{ status: 503, probability: 1 }] });
    const error = (() => {
      try {
        rules.set(given);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(FaultRuleInvalid);
    expect(error.field).toBe(field);
    expect(error.message).toMatch(rule);
    expect(rules.list().rules).toHaveLength(1);
  });

  it('refuses a seed out of range and more than 100 rules', () => {
    const rules = createFaultRules();
    expect(() => rules.set([], -1)).toThrow(/seed must be an integer/);
    expect(() => rules.set(Array(101).fill({ status: 503, probability: 1 }))).toThrow(/at most 100/);
  });
});
