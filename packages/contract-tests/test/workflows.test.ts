// The workflow data of the explorer's "Start here" view (`x-svc-workflow`) and the OpenAPI
// `links` of the responses: every step and link names a real operation, parameter and example,
// and every runtime expression points at a member that the source operation's examples have.

import { deref } from '@svc/oas';
import { apis } from '@svc/oas/apis';
import { describe, expect, it } from 'vitest';
import { loadBundle, type Operation, operations } from '../src/spec.js';

interface Step {
  stepId: string;
  api?: string;
  operationId: string;
  description: string;
  requestBodyExample?: string;
  parameters?: { name: string; in: string; value: string }[];
  requestBody?: { pointer: string; value: string }[];
  until?: { pointer: string; equals: string[]; failOn?: string[] };
}
interface Workflow {
  workflowId: string;
  summary: string;
  description: string;
  steps: Step[];
}

const docs: Record<string, any> = Object.fromEntries(apis().map((api) => [api.name, loadBundle(api.name)]));
const ops = Object.fromEntries(Object.entries(docs).map(([name, doc]) => [name, operations(name, doc)]));
const STEP_EXPRESSION = /^\$steps\.([a-z0-9-]+)\.response\.(body#(\/.*)|header\.[A-Za-z0-9-]+)$/;

function find(api: string, operationId: string): Operation {
  const op = ops[api]?.find((o) => o.operationId === operationId);
  if (!op) throw new Error(`${api} has no operation ${operationId}`);
  return op;
}

/** The member a JSON pointer names, or undefined. */
function at(value: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<any>((node, key) => (node === null || typeof node !== 'object' ? undefined : node[key]), value);
}

/** The values of every named example of the operation's 2xx JSON responses. */
function successExamples(api: string, op: Operation): unknown[] {
  return Object.entries<any>(op.op.responses)
    .filter(([status]) => /^2/.test(status))
    .flatMap(([, response]) =>
      Object.values<any>(deref<any>(docs[api], response).content?.['application/json']?.examples ?? {}),
    )
    .map((example) => deref<any>(docs[api], example).value);
}

/** True when one of the examples has a non-empty member at the pointer. */
const resolves = (examples: unknown[], pointer: string) =>
  examples.some((e) => at(e, pointer) !== undefined && at(e, pointer) !== '');

const workflows = Object.entries(docs).flatMap(([api, doc]) =>
  ((doc['x-svc-workflow'] ?? []) as Workflow[]).map((w) => ({ api, w })),
);

describe('x-svc-workflow', () => {
  it('every API has at least one workflow, with unique workflowIds', () => {
    for (const api of Object.keys(docs)) expect(workflows.filter((x) => x.api === api).length, api).toBeGreaterThan(0);
    const ids = workflows.map(({ w }) => w.workflowId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  describe.each(workflows.map(({ api, w }) => [`${api} ${w.workflowId}`, api, w] as const))('%s', (_, api, w) => {
    it('has a one-line summary, a description and unique stepIds', () => {
      expect(w.summary).toMatch(/^[^\n]{1,80}$/);
      expect(w.description.trim().length).toBeGreaterThan(0);
      const ids = w.steps.map((s) => s.stepId);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('names, in every step, an operation, its parameters and an example of its API', () => {
      for (const step of w.steps) {
        const stepApi = step.api ?? api;
        const op = find(stepApi, step.operationId);
        expect(step.description.trim().length, step.stepId).toBeGreaterThan(0);
        if (step.requestBodyExample) {
          expect(docs[stepApi].components.examples, `${step.stepId}: ${step.requestBodyExample}`).toHaveProperty([
            step.requestBodyExample,
          ]);
          expect(op.op.requestBody, step.stepId).toBeDefined();
        }
        for (const p of step.parameters ?? []) {
          expect(
            op.op.parameters.some((q: any) => q.name === p.name && q.in === p.in),
            `${step.stepId}: ${p.in} ${p.name}`,
          ).toBe(true);
        }
        // A required path parameter must get a value, or the step cannot be called.
        for (const q of op.op.parameters.filter((q: any) => q.in === 'path')) {
          expect(
            step.parameters?.some((p) => p.name === q.name),
            `${step.stepId}: path ${q.name}`,
          ).toBe(true);
        }
        if (step.requestBody)
          expect(step.requestBodyExample, `${step.stepId}: requestBody fills an example`).toBeDefined();
        for (const fill of step.requestBody ?? []) {
          const example = deref<any>(docs[stepApi], docs[stepApi].components.examples[step.requestBodyExample!]).value;
          expect(
            at(example, fill.pointer),
            `${step.stepId}: ${fill.pointer} in ${step.requestBodyExample}`,
          ).toBeDefined();
        }
        if (step.until)
          expect(
            resolves(successExamples(stepApi, op), step.until.pointer),
            `${step.stepId}: until ${step.until.pointer}`,
          ).toBe(true);
      }
    });

    it('takes values only from earlier steps, at members their examples have', () => {
      for (const [i, step] of w.steps.entries()) {
        const values = [...(step.parameters ?? []), ...(step.requestBody ?? [])]
          .map((p) => p.value)
          .filter((v) => v.startsWith('$'));
        for (const value of values) {
          const m = STEP_EXPRESSION.exec(value);
          expect(m, `${step.stepId}: ${value}`).not.toBeNull();
          const source = w.steps.findIndex((s) => s.stepId === m![1]);
          expect(source, `${step.stepId}: ${value} names an earlier step`).toBeGreaterThanOrEqual(0);
          expect(source, `${step.stepId}: ${value} names an earlier step`).toBeLessThan(i);
          const from = w.steps[source]!;
          if (m![3])
            expect(
              resolves(successExamples(from.api ?? api, find(from.api ?? api, from.operationId)), m![3]),
              `${step.stepId}: ${value}`,
            ).toBe(true);
        }
      }
    });
  });

  it('element: the two-phase upload creates, waits, checks INACTIVE, looks up a container, uploads, waits, sees ACTIVE', () => {
    const upload = workflows.find(({ w }) => w.workflowId === 'two-phase-upload')!.w;
    expect(upload.steps.map((s) => s.operationId)).toEqual([
      'images_create_v0_8',
      'tasks_get_v0_8',
      'images_get_v0_8',
      'storage_containers_list_v2_0',
      'images_upload_v0_8',
      'tasks_get_v0_8',
      'images_get_v0_8',
    ]);
    expect(upload.steps.map((s) => s.until?.equals)).toEqual([
      undefined,
      ['Succeeded'],
      ['INACTIVE'],
      undefined,
      undefined,
      ['Succeeded'],
      ['ACTIVE'],
    ]);
  });

  it('objects: the deployment enables the service (central) before it creates the object store', () => {
    const deploy = workflows.find(({ w }) => w.workflowId === 'objectstore-deploy')!.w;
    const order = deploy.steps.map((s) => `${s.api ?? 'objects'}.${s.operationId}`);
    expect(order.indexOf('central.services_oss_enable')).toBe(0);
    expect(order.indexOf('central.services_get_status')).toBeLessThan(order.indexOf('objects.objectstores_create'));
    expect(order.indexOf('central.subnets_list')).toBeLessThan(order.indexOf('objects.objectstores_create'));
    expect(order.at(-1)).toBe('objects.objectstores_get');
  });
});

describe('links', () => {
  const links = Object.entries(docs).flatMap(([api, doc]) =>
    (ops[api] ?? []).flatMap((op) =>
      Object.entries<any>(op.op.responses).flatMap(([status, response]) =>
        Object.entries<any>(deref<any>(doc, response).links ?? {}).map(([name, link]) => ({
          api,
          op,
          status,
          name,
          link: deref<any>(doc, link),
        })),
      ),
    ),
  );

  it('the direct hops of the workflows are links', () => {
    const hops = links.map((l) => `${l.op.operationId} -> ${l.link.operationId}`);
    expect(hops).toEqual(
      expect.arrayContaining([
        'images_create -> tasks_get',
        'tasks_get -> images_get',
        'images_create_v0_8 -> tasks_get_v0_8',
        'tasks_get_v0_8 -> images_get_v0_8',
        'objectstores_create -> objectstores_get',
      ]),
    );
  });

  it.each(links.map((l) => [`${l.api} ${l.op.operationId} ${l.status} ${l.name}`, l] as const))(
    '%s names an operation, its parameters and members of the response examples',
    (_, l) => {
      const target = find(l.api, l.link.operationId);
      const examples = successExamples(l.api, {
        ...l.op,
        op: { responses: { [l.status]: l.op.op.responses[l.status] } },
      });
      for (const [name, expression] of Object.entries<string>(l.link.parameters ?? {})) {
        expect(
          target.op.parameters.some((p: any) => p.name === name.replace(/^(path|query|header)\./, '')),
          `${name}`,
        ).toBe(true);
        const m = /^\$response\.body#(\/.*)$/.exec(expression);
        expect(m, expression).not.toBeNull();
        expect(resolves(examples, m![1]!), expression).toBe(true);
      }
    },
  );
});
