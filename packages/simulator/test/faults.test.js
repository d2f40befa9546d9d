import { describe, expect, it } from 'vitest';
import { createFaultRules, faultRulesOf, parseFaults } from '../src/faults.js';
import { startTestSimulator, waitTask } from './support/sim.js';

describe('faults on demand', () => {
  it('parses --faults and names a bad key or value', () => {
    expect(parseFaults('503=0.1,429=0.05,latency=20,task-fail=0.5')).toEqual({
      rate503: 0.1,
      rate429: 0.05,
      latencyMs: 20,
      taskFailRate: 0.5,
    });
    expect(() => parseFaults('500=0.1')).toThrow(/unknown key "500"/);
    expect(() => parseFaults('task-fail=1.5')).toThrow(/task-fail is a rate between 0 and 1/);
    expect(() => parseFaults('latency=soon')).toThrow(/latency must be a number >= 0/);
  });

  it('replays the same faults for the same seed', () => {
    const draws = (seed) => {
      const f = createFaultRules({ rules: faultRulesOf({ rate503: 0.3, rate429: 0.3 }), seed });
      return Array.from(
        { length: 50 },
        () => f.match('images_list', 'post', '/api/svc/v3/images/list', true)?.status ?? 200,
      );
    };
    expect(draws(7)).toEqual(draws(7));
    expect(draws(7)).not.toEqual(draws(8));
    expect(new Set(draws(7))).toEqual(new Set([200, 429, 503]));
  });

  it('answers 503/429 with Retry-After on read-only calls only, and fails tasks', async () => {
    const t = await startTestSimulator({ faults: { rate503: 0.5, rate429: 0.5 }, seed: 1 });
    try {
      const reads = await Promise.all(
        Array.from({ length: 10 }, () => t.call('POST', '/api/svc/v3/images/list', { body: {} })),
      );
      for (const r of reads) {
        expect([429, 503]).toContain(r.status);
        expect(r.headers.get('retry-after')).toBe('1');
        expect(r.body.message_list[0].reason).toMatch(/TOO_MANY_REQUESTS|SERVICE_UNAVAILABLE/);
      }
      // a create is not retried by clients, so it never gets these faults
      const created = await t.call('POST', '/api/svc/v3/images', {
        body: {
          api_version: '3.1.0',
          metadata: { kind: 'image' },
          spec: { name: 'kept', resources: { image_type: 'DISK_IMAGE' } },
        },
      });
      expect(created.status).toBe(202);
      expect(t.violations).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('ends tasks FAILED at the task-fail rate, with a reason', async () => {
    const t = await startTestSimulator({ faults: { taskFailRate: 1 } });
    try {
      const created = await t.call('POST', '/api/svc/v3/images', {
        body: {
          api_version: '3.1.0',
          metadata: { kind: 'image' },
          spec: { name: 'doomed', resources: { image_type: 'DISK_IMAGE' } },
        },
      });
      const task = await waitTask(t.call, created.body.status.execution_context.task_uuid);
      expect(task).toMatchObject({ status: 'FAILED', error_code: 'SIMULATED_FAULT' });
      expect(task.error_detail).toMatch(/simulated fault/);
      expect((await t.call('GET', `/api/svc/v3/images/${created.body.metadata.uuid}`)).body.status.state).toBe('ERROR');
      expect(t.violations).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
