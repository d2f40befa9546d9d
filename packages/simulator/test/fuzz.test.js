// Property-based fuzzing of every operation of the three APIs, after Schemathesis's checks:
// requests are derived from the bundles' schemas by json-schema-faker (seeded by fast-check), then
// mutated; each answer must be no server error, declared (status, media type, schema: `t.call`
// checks them against the spec), a 4xx for input the schema refuses (negative_data_rejection) and
// no validation refusal for input it accepts (positive_data_acceptance). Stateful checks follow
// (ensure_resource_availability, use_after_free), and every operation refuses a request without
// credentials (ignored_auth).
//
// Bounded: FUZZ_RUNS requests (default 300, seed FUZZ_SEED, default 20); `FUZZ_RUNS=20000 npx vitest
// run test/fuzz.test.js` for a long run. A failure prints the shrunk request.
import fc from 'fast-check';
import { JSONSchemaFaker as jsf } from 'json-schema-faker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREDEFINED_CATEGORIES } from '../src/domain/categories.js';
import { prng } from '../src/faults.js';
import { AUTH, objectStoreSpec, seededTopology, specs, startTestSimulator, waitTask } from './support/sim.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 20);
/** A source that refuses at once: generated `source_uri`s must not leave the machine. */
const LOOPBACK_SOURCE = 'http://127.0.0.1:9/fuzz.img';
const MUTATIONS = /** @type {const} */ ([
  'none',
  'none',
  'none',
  'drop-required',
  'wrong-type',
  'bad-uuid',
  'scalar-body',
  'wrong-content-type',
  'no-auth',
  'percent-escape',
  'charset',
  'deep-body',
]);

let t;
/** @type {{ api: any, base: string, op: any }[]} every operation of every API */
let operations;
/**
 * The operations the generated requests go to: the control API's are left out, as they change
 * the whole simulator (fault rules, task time, a reset) under the other requests; its own tests
 * (control.test.js, control-adapter.test.js) cover it.
 * @type {{ api: any, base: string, op: any }[]}
 */
let fuzzed;
/** Existing UUIDs by the path segment that names their kind. */
const pool = { images: [], tasks: [], objectstores: [], storage_containers: [] };

beforeAll(async () => {
  t = await startTestSimulator({ sourceTimeoutMs: 2000 });
  const apis = await specs();
  operations = apis.flatMap((api) => api.backend.getOperations().map((op) => ({ api, base: api.basePaths[0], op })));
  fuzzed = operations.filter(({ api }) => api.name !== 'control');
  jsf.option({
    alwaysFakeOptionals: false,
    optionalsProbability: 0.6,
    maxItems: 3,
    maxLength: 24,
    failOnInvalidFormat: false,
    failOnInvalidTypes: false,
    useExamplesValue: false,
    fixedProbabilities: true,
  });
  // something to find: an image, a task, the seeded containers
  const created = await t.call('POST', '/api/svc/v3/images', {
    body: {
      api_version: '3.1.0',
      metadata: { kind: 'image' },
      spec: { name: 'fuzz', resources: { image_type: 'DISK_IMAGE' } },
    },
  });
  pool.images.push(created.body.metadata.uuid);
  pool.tasks.push(created.body.status.execution_context.task_uuid);
  await waitTask(t.call, created.body.status.execution_context.task_uuid);
  const containers = await t.call('GET', '/api/svc/v2.0/storage_containers');
  pool.storage_containers.push(...containers.body.entities.map((c) => c.storage_container_uuid));
});
afterAll(async () => {
  await t?.close();
});

const randomUuid = (rng) =>
  'xxxxxxxx-xxxx-4xxx-8xxx-xxxxxxxxxxxx'.replace(/x/g, () => Math.floor(rng() * 16).toString(16));

/** A predefined category pair (`[name, value]`), picked by `rng`. */
const knownCategory = (rng) => {
  const pairs = Object.entries(PREDEFINED_CATEGORIES).flatMap(([name, values]) => values.map((v) => [name, v]));
  return pairs[Math.floor(rng() * pairs.length)];
};

/**
 * Generated values that must stay on the machine and short (sources on loopback, polls brief),
 * and categories that mostly exist, as path UUIDs mostly do: an unknown one is refused (422)
 * before the rest of the request is looked at.
 */
function tame(value, rng, key) {
  if (Array.isArray(value)) return value.map((v) => tame(v, rng, key));
  if (value && typeof value === 'object' && (key === 'categories' || key === 'categories_mapping') && rng() < 0.7) {
    const [name, known] = knownCategory(rng);
    return { [name]: key === 'categories' ? known : [known] };
  }
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, tame(v, rng, k)]));
  if (typeof value === 'string' && (key === 'source_uri' || key === 'url')) return LOOPBACK_SOURCE;
  if (typeof value === 'number' && /timeout/i.test(key ?? '')) return Math.min(Math.abs(value), 1);
  return value;
}

/** A value of another JSON type than the schema's. */
function wrongTypeFor(schema) {
  const type = [schema?.type].flat()[0];
  return type === 'string' ? 12345 : type === 'object' || type === 'array' ? 'not-this-type' : { not: 'this-type' };
}

/**
 * Builds one request for an operation from a seed, then applies a mutation.
 * @returns {{ method: string, path: string, headers: Record<string, string>, body?: any, query: Record<string, string>, auth: string | null }}
 */
function build({ op, base }, seed, mutation) {
  const rng = prng(seed);
  jsf.option({ random: rng });
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name) => {
    if (mutation === 'bad-uuid') return 'not-a-uuid';
    if (mutation === 'percent-escape') return rng() < 0.5 ? '%ZZ' : '%C0%AE';
    if (name === 'service_name') return rng() < 0.8 ? 'oss' : 'files';
    const kind = op.path.split('/').find((s) => pool[s]);
    const known = pool[kind] ?? [];
    return known.length && rng() < 0.7 ? known[Math.floor(rng() * known.length)] : randomUuid(rng);
  });
  const query = {};
  const headers = {};
  for (const p of op.parameters ?? []) {
    if (p.in === 'path' || !(p.required || rng() < 0.4)) continue;
    let value = p.schema ? jsf.generate(p.schema) : 'x';
    if (/timeout/i.test(p.name)) value = 1;
    if (p.name === 'X-Svc-Destination-Container' && rng() < 0.8) value = pool.storage_containers[0];
    if (p.in === 'query') query[p.name] = String(value);
    if (p.in === 'header') headers[p.name.toLowerCase()] = String(value);
  }
  let body;
  const content = op.requestBody?.content ?? {};
  if (content['application/json']) {
    headers['content-type'] = 'application/json';
    body = tame(jsf.generate(content['application/json'].schema ?? {}), rng);
    const schema = content['application/json'].schema ?? {};
    const keys = body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [];
    if (mutation === 'drop-required' && schema.required?.length) delete body[schema.required[0]];
    if (mutation === 'wrong-type' && keys.length) {
      const key = keys[Math.floor(rng() * keys.length)];
      body[key] = wrongTypeFor(schema.properties?.[key]);
    }
    if (mutation === 'scalar-body') body = 5;
    if (mutation === 'charset') {
      headers['content-type'] = 'application/json; charset=utf-8';
      if (rng() < 0.5) body = true;
    }
    // sent as text: 10,000 levels are more than this process's own JSON.stringify takes
    if (mutation === 'deep-body') body = `{"x":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
  } else if (content['application/octet-stream']) {
    headers['content-type'] = 'application/octet-stream';
    body = Buffer.alloc(Math.floor(rng() * 2048), 7);
  }
  if (mutation === 'wrong-content-type' && body !== undefined) headers['content-type'] = 'text/plain';
  return {
    method: op.method.toUpperCase(),
    path: `${base}${path}`,
    query,
    headers,
    body,
    auth: mutation === 'no-auth' ? null : AUTH,
  };
}

/** Whether the schema refuses the request (the bundle's own validator decides). */
function schemaRefuses({ api, op }, request) {
  if (request.auth === null) return true;
  const type = request.headers['content-type']?.split(';')[0];
  const content = op.requestBody?.content ?? {};
  if (type && !content[type]) return true;
  if (request.deep) return true;
  const path = request.path.slice(api.basePaths[0].length);
  if (path.includes('%')) return true;
  if (!api.backend.router.matchOperation({ method: op.method, path, headers: {}, query: {} })) return true;
  const result = api.backend.validator.validateRequest(
    {
      method: op.method,
      path,
      headers: { ...request.headers, 'content-type': 'application/json' },
      query: request.query,
      body: type === 'application/json' ? request.body : undefined,
    },
    op,
  );
  return !result.valid;
}

/**
 * Whether an answer refuses only references to what does not exist (an unknown category, no
 * cluster with that UUID): valid input that the state refuses, as a random path UUID's 404 is.
 */
const unknownReferences = (res) => {
  const details = Object.values(res.body?.message_list?.[0]?.details ?? {});
  return details.length > 0 && details.every((d) => /does not exist$|^no \w+ has UUID /.test(d));
};

const shown = (request) =>
  JSON.stringify(
    {
      ...request,
      body: Buffer.isBuffer(request.body)
        ? `<${request.body.length} bytes>`
        : request.deep
          ? '<a JSON body 10,000 levels deep>'
          : request.body,
    },
    null,
    1,
  ).slice(0, 4000);

describe('fuzz: every operation, valid and mutated input', () => {
  it(
    `answers ${RUNS} generated requests as the spec says (seed ${SEED})`,
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.nat({ max: fuzzed.length - 1 }),
          fc.nat(),
          fc.constantFrom(...MUTATIONS),
          async (index, seed, mutation) => {
            const target = fuzzed[index];
            const request = build(target, seed, mutation);
            const refused = schemaRefuses(target, request);
            const qs = new URLSearchParams(request.query).toString();
            const before = t.violations.length;
            const body =
              request.deep || request.body === undefined || Buffer.isBuffer(request.body)
                ? request.body
                : JSON.stringify(request.body);
            const res = await t.call(request.method, `${request.path}${qs ? `?${qs}` : ''}`, {
              body,
              headers: request.headers,
              auth: request.auth,
              raw: true,
            });
            const problems = t.violations.splice(before);
            if (res.status >= 500) problems.push(`not_a_server_error: ${res.status} ${res.text.slice(0, 300)}`);
            if (refused && !(res.status >= 400 && res.status < 500))
              problems.push(
                `negative_data_rejection: the schema refuses this request, the simulator answered ${res.status}`,
              );
            const validationRefusal =
              (res.status === 400 || res.status === 422) && /Request could not be processed/.test(res.text);
            if (
              !refused &&
              ((validationRefusal && !unknownReferences(res)) || res.status === 413 || res.status === 415)
            )
              problems.push(
                `positive_data_acceptance: the schema accepts this request, the simulator answered ${res.status} ${res.text.slice(0, 300)}`,
              );
            if (problems.length)
              throw new Error(
                `${target.op.operationId} (${mutation}):\n${problems.join('\n')}\nrequest: ${shown(request)}`,
              );
          },
        ),
        { numRuns: RUNS, seed: SEED },
      );
    },
    Math.max(1_200_000, RUNS * 250), // a hang guard: a busy machine takes many times the usual 60 ms a request
  );
});

describe('fuzz: stateful checks', () => {
  it('ensure_resource_availability and use_after_free for images created and deleted through v3 and v2.0', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 30 }), async (name) => {
        // v3: created -> readable; deleted -> gone from get, list, file and update
        const created = await t.call('POST', '/api/svc/v3/images', {
          body: {
            api_version: '3.1.0',
            metadata: { kind: 'image' },
            spec: { name, resources: { image_type: 'ISO_IMAGE' } },
          },
        });
        expect(created.status).toBe(202);
        const uuid = created.body.metadata.uuid;
        expect((await t.call('GET', `/api/svc/v3/images/${uuid}`)).status).toBe(200);
        expect((await t.call('GET', `/api/svc/v2.0/images/${uuid}`)).status).toBe(200);
        await waitTask(t.call, created.body.status.execution_context.task_uuid);
        const deleted = await t.call('DELETE', `/api/svc/v3/images/${uuid}`);
        expect(deleted.status).toBe(202);
        await waitTask(t.call, deleted.body.status.execution_context.task_uuid);
        expect((await t.call('GET', `/api/svc/v3/images/${uuid}`)).status).toBe(404);
        expect((await t.call('GET', `/api/svc/v0.8/images/${uuid}`)).status).toBe(404);
        const upload = await t.call('PUT', `/api/svc/v3/images/${uuid}/file`, {
          body: Buffer.alloc(10),
          headers: { 'content-type': 'application/octet-stream' },
        });
        expect(upload.status).toBe(404);
        const listed = await t.call('POST', '/api/svc/v3/images/list', { body: { kind: 'image', length: 500 } });
        expect(listed.body.entities.map((e) => e.metadata.uuid)).not.toContain(uuid);
        // v2.0: created -> readable in v3; deleted -> gone
        const v2 = await t.call('POST', '/api/svc/v2.0/images', { body: { name, image_type: 'DISK_IMAGE' } });
        expect(v2.status).toBe(201);
        const v2uuid = (await waitTask(t.call, v2.body.task_uuid)).entity_reference_list[0].uuid;
        expect((await t.call('GET', `/api/svc/v3/images/${v2uuid}`)).status).toBe(200);
        const v2deleted = await t.call('DELETE', `/api/svc/v2.0/images/${v2uuid}`);
        await waitTask(t.call, v2deleted.body.task_uuid);
        expect((await t.call('GET', `/api/svc/v2.0/images/${v2uuid}`)).status).toBe(404);
        expect((await t.call('GET', `/api/svc/v3/images/${v2uuid}`)).status).toBe(404);
        expect(t.violations).toEqual([]);
      }),
      { numRuns: Math.max(3, Math.round(RUNS / 60)), seed: SEED },
    );
  });
});

describe('fuzz: stateful checks of object stores', () => {
  it('ensure_resource_availability and use_after_free: a created store is readable, a deleted one gone', async () => {
    const { cluster, subnets } = await seededTopology(t.call);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/), async (name) => {
        n += 1;
        const created = await t.call('POST', '/oss/api/svc/v3/objectstores', {
          body: {
            api_version: '3.0',
            metadata: { kind: 'objectstore' },
            spec: objectStoreSpec(`${name}-${n}`, cluster, subnets),
          },
        });
        expect(created.status).toBe(202);
        const uuid = created.body.metadata.uuid;
        expect((await t.call('GET', `/oss/api/svc/v3/objectstores/${uuid}`)).status).toBe(200);
        const task = await t.call('POST', '/api/svc/v3/tasks/list', {
          body: { kind: 'task', filter: `entity_uuid==${uuid}` },
        });
        await waitTask(t.call, task.body.entities[0].uuid);
        expect((await t.call('DELETE', `/oss/api/svc/v3/objectstores/${uuid}`)).status).toBe(202);
        const tasks = await t.call('POST', '/api/svc/v3/tasks/list', {
          body: { kind: 'task', filter: `entity_uuid==${uuid};operation_type==delete_objectstore` },
        });
        await waitTask(t.call, tasks.body.entities[0].uuid);
        expect((await t.call('GET', `/oss/api/svc/v3/objectstores/${uuid}`)).status).toBe(404);
        expect((await t.call('DELETE', `/oss/api/svc/v3/objectstores/${uuid}`)).status).toBe(404);
        const groups = await t.call('POST', '/oss/api/svc/v3/groups', {
          body: { entity_type: 'objectstore', group_member_attributes: [{ attribute: 'name' }] },
        });
        expect(groups.body.group_results[0].entity_results.map((e) => e.entity_id)).not.toContain(uuid);
        expect(t.violations).toEqual([]);
      }),
      { numRuns: Math.max(3, Math.round(RUNS / 100)), seed: SEED },
    );
  });
});

describe('fuzz: ignored_auth', () => {
  it('refuses every operation without credentials or with a wrong password (401), but those declared public', async () => {
    const wrong = `Basic ${Buffer.from('admin:not-the-password').toString('base64')}`;
    for (const target of operations) {
      const request = build(target, 1, 'none');
      // `security: []`: the control API's health, for container health checks
      const open = target.op.security?.length === 0;
      for (const auth of [null, wrong]) {
        const body =
          request.body === undefined || Buffer.isBuffer(request.body) ? request.body : JSON.stringify(request.body);
        const res = await t.call(request.method, request.path, { body, headers: request.headers, auth, raw: true });
        const what = `${target.op.operationId} with ${auth ? 'a wrong password' : 'no credentials'}`;
        if (open) expect(res.status, what).toBe(200);
        else expect(res.status, what).toBe(401);
      }
    }
    expect(t.violations).toEqual([]);
  });
});
