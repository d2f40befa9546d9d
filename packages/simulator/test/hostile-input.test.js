// No 5xx and no reset from input (issue 20, "5xx and resets from input"): each answer is a 4xx
// naming the field and the rule, the credentials of a URL are never echoed, long polls leak no
// listener, and a task's progress is its bytes where it has bytes.
import { request as httpsRequest } from 'node:https';
import { Agent, fetch } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { JSON_BODY_LIMIT, JSON_DEPTH_LIMIT } from '../src/limits.js';
import { AUTH, objectStoreSpec, seededTopology, specs, startTestSimulator, waitTask } from './support/sim.js';
import { startHeldSource } from './support/source.js';

const V3 = '/api/svc/v3';
const image = (name, resources = { image_type: 'DISK_IMAGE' }) => ({
  api_version: '3.1.0',
  metadata: { kind: 'image' },
  spec: { name, resources },
});

let t;
beforeAll(async () => {
  t = await startTestSimulator();
});
afterAll(async () => {
  await t?.close();
});
afterEach(() => {
  expect(t.violations).toEqual([]);
});

/** Sends raw bytes as the body of a request and resolves the answer, or `{ status: 0 }` on a reset. */
function raw(method, path, { body, headers = {}, chunked = false }) {
  return new Promise((resolve) => {
    const req = httpsRequest(`${t.sim.url}${path}`, {
      method,
      ca: t.sim.ca,
      // a connection of its own: the same process encrypting 50 MB on a busy machine can outlast the
      // server's keep-alive timeout of a reused connection, which then closes under the request
      agent: false,
      headers: {
        authorization: AUTH,
        'content-type': 'application/json',
        ...(chunked ? {} : { 'content-length': String(body.length) }),
        ...headers,
      },
    });
    req.on('response', (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', () => resolve({ status: 0 }));
    });
    req.on('error', (error) => resolve({ status: 0, text: error.message }));
    if (chunked) {
      // a chunked body, written piece by piece
      for (let i = 0; i < body.length; i += 256 * 1024) req.write(body.subarray(i, i + 256 * 1024));
      req.end();
    } else req.end(body);
  });
}

describe('percent-escapes', () => {
  it('answers 400, not 500, to a malformed escape in any path parameter of any operation', async () => {
    const apis = await specs();
    const seen = [];
    for (const api of apis) {
      const base = api.basePaths[0];
      for (const [path, item] of Object.entries(api.doc.paths)) {
        if (!path.includes('{')) continue;
        for (const method of ['get', 'post', 'put', 'delete']) {
          if (!item[method]) continue;
          for (const bad of ['%ZZ', '%C0%AE']) {
            const res = await t.call(method.toUpperCase(), `${base}${path.replace(/\{[^}]+\}/g, bad)}`, {
              body: method === 'get' || method === 'delete' ? undefined : {},
            });
            seen.push(`${method} ${path} ${bad} -> ${res.status}`);
            expect(res.status, `${method} ${path} with ${bad}`).toBeLessThan(500);
          }
        }
      }
    }
    expect(seen.length).toBeGreaterThan(10);
  });

  it('answers 400 naming the filter to name==%ZZ', async () => {
    const res = await t.call('POST', `${V3}/images/list`, { body: { kind: 'image', filter: 'name==%ZZ' } });
    expect(res.status).toBe(400);
    expect(res.body.message_list[0].message).toMatch(/filter/);
  });
});

describe('bodies', () => {
  it('answers 400 to a 10k-deep JSON body, not a stack overflow', async () => {
    const deep = Buffer.from(`{"kind":"image","x":${'['.repeat(10_000)}${']'.repeat(10_000)}}`);
    const res = await raw('POST', `${V3}/images/list`, { body: deep });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/deeper than/);
  });

  it('refuses a body one level deeper than the limit, not one at it, a wide one or one with brackets in strings', async () => {
    const nested = (levels) => `{"kind":"image","x":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
    const past = await raw('POST', `${V3}/images/list`, { body: Buffer.from(nested(JSON_DEPTH_LIMIT + 1)) });
    expect(past.status).toBe(400);
    expect(past.text).toMatch(/deeper than/);
    for (const body of [
      nested(JSON_DEPTH_LIMIT),
      `{"kind":"image","x":[${'[],'.repeat(2 * JSON_DEPTH_LIMIT)}[]]}`,
      `{"kind":"image","filter":"name==${'{['.repeat(JSON_DEPTH_LIMIT)}"}`,
    ]) {
      const res = await raw('POST', `${V3}/images/list`, { body: Buffer.from(body) });
      expect(res.status, body).toBeLessThan(500);
      expect(res.text, body).not.toMatch(/deeper than/);
    }
  });

  it('answers 413 with the limit to bodies over 1 MiB (1.1 MB, 50 MB, chunked) and logs nothing', async () => {
    const logged = vi.spyOn(console, 'error');
    try {
      for (const [size, chunked] of [
        [1_100_000, false],
        [50_000_000, false],
        [3_000_000, true],
      ]) {
        const res = await raw('POST', `${V3}/images/list`, { body: Buffer.alloc(size, 0x20), chunked });
        expect(res.status, `${size} bytes${chunked ? ', chunked' : ''}`).toBe(413);
        expect(res.text).toContain(String(JSON_BODY_LIMIT));
      }
      expect(logged).not.toHaveBeenCalled();
    } finally {
      logged.mockRestore();
    }
  });

  it('refuses a scalar JSON body with or without a charset', async () => {
    for (const path of [`${V3}/images/list`, `${V3}/tasks/list`])
      for (const type of ['application/json', 'application/json; charset=utf-8'])
        for (const body of ['5', 'true']) {
          const res = await t.call('POST', path, { body, headers: { 'content-type': type } });
          expect(res.status, `${path}: ${body} as ${type}`).toBe(422);
        }
  });
});

describe('objects groups', () => {
  it('answers 4xx to an empty attribute name, with and without stores', async () => {
    const none = await t.call('POST', '/oss/api/svc/v3/groups', {
      body: { entity_type: 'objectstore', group_member_attributes: [{ attribute: '' }] },
    });
    expect(none.status).toBeLessThan(500);
    await createStore();
    const res = await t.call('POST', '/oss/api/svc/v3/groups', {
      body: { entity_type: 'objectstore', group_member_attributes: [{ attribute: '' }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.message_list[0].message).toMatch(/group_member_attributes/);
    const buckets = await t.call('POST', '/oss/api/svc/v3/groups', {
      body: { entity_type: 'objectstore', group_member_attributes: [{ attribute: '' }, { attribute: 'name' }] },
    });
    expect(buckets.status).toBeLessThan(500);
  });
});

/** Creates an object store on the seeded topology and waits until it is COMPLETE. */
async function createStore() {
  const { cluster, subnets } = await seededTopology(t.call);
  const created = await t.call('POST', '/oss/api/svc/v3/objectstores', {
    body: {
      api_version: '3.0',
      metadata: { kind: 'objectstore' },
      spec: objectStoreSpec('groups-store', cluster, subnets),
    },
  });
  expect(created.status).toBe(202);
  const tasks = await t.call('POST', `${V3}/tasks/list`, {
    body: { kind: 'task', filter: `entity_uuid==${created.body.metadata.uuid}` },
  });
  await waitTask(t.call, tasks.body.entities[0].uuid);
}

describe('HTTP', () => {
  it('answers HEAD 405 with Allow', async () => {
    const res = await fetch(`${t.sim.url}${V3}/images/0e09cf83-ac68-4f28-af70-6df9a43df4f0/file`, {
      method: 'HEAD',
      dispatcher: t.dispatcher,
      headers: { authorization: AUTH },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, PUT');
  });

  it('takes the basic scheme in any case (RFC 9110)', async () => {
    const token = AUTH.split(' ')[1];
    for (const scheme of ['basic', 'BASIC', 'Basic'])
      expect((await t.call('POST', `${V3}/images/list`, { body: {}, auth: `${scheme} ${token}` })).status).toBe(200);
    expect((await t.call('POST', `${V3}/images/list`, { body: {}, auth: `Bearer ${token}` })).status).toBe(401);
  });
});

describe('source_uri', () => {
  it('never copies the credentials of the URL into error_detail', async () => {
    const created = await t.call('POST', `${V3}/images`, {
      body: image('secret-url', { image_type: 'DISK_IMAGE', source_uri: 'http://user:hunter2@127.0.0.1:9/x.img' }),
    });
    const task = await waitTask(t.call, created.body.status.execution_context.task_uuid);
    expect(task.status).toBe('FAILED');
    expect(task.error_detail).not.toContain('hunter2');
    expect(JSON.stringify((await t.call('GET', `${V3}/images/${created.body.metadata.uuid}`)).body)).not.toContain(
      'hunter2:',
    );
  });

  it('shows the bytes received as progress, not the time spent', async () => {
    const source = await startHeldSource({ total: 100, first: 2 });
    try {
      const created = await t.call('POST', `${V3}/images`, {
        body: image('trickle', { image_type: 'DISK_IMAGE', source_uri: source.url }),
      });
      const uuid = created.body.status.execution_context.task_uuid;
      await source.started;
      let task;
      for (let i = 0; i < 200; i++) {
        task = (await t.call('GET', `${V3}/tasks/${uuid}`)).body;
        if (task.status === 'RUNNING') break;
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(task.status).toBe('RUNNING');
      expect(task.percentage_complete).toBeLessThan(10);
      source.release();
      expect((await waitTask(t.call, uuid)).status).toBe('SUCCEEDED');
    } finally {
      await source.close();
    }
  });

  it('fetches the simulator own sample image over its own HTTPS', async () => {
    const sample = await fetch(`${t.sim.url}/samples/cirros.img`, { dispatcher: t.dispatcher });
    expect(sample.status).toBe(200);
    const bytes = Buffer.from(await sample.arrayBuffer());
    const created = await t.call('POST', `${V3}/images`, {
      body: image('cirros', { image_type: 'DISK_IMAGE', source_uri: `${t.sim.url}/samples/cirros.img` }),
    });
    expect((await waitTask(t.call, created.body.status.execution_context.task_uuid)).status).toBe('SUCCEEDED');
    const got = await t.call('GET', `${V3}/images/${created.body.metadata.uuid}`);
    expect(got.body.status.resources.size_bytes).toBe(bytes.length);
  });
});

describe('long polls', () => {
  it('leave no listener behind: 30 polls over one connection raise no MaxListenersExceededWarning', async () => {
    const created = await t.call('POST', `${V3}/images`, { body: image('polled') });
    const task = created.body.status.execution_context.task_uuid;
    await waitTask(t.call, task);
    const warnings = [];
    const onWarning = (w) => warnings.push(w.name);
    process.on('warning', onWarning);
    const one = new Agent({ connect: { ca: t.sim.ca }, connections: 1, pipelining: 1 });
    try {
      for (let i = 0; i < 30; i++) {
        const res = await fetch(`${t.sim.url}${V3}/tasks/poll`, {
          method: 'POST',
          dispatcher: one,
          headers: { authorization: AUTH, 'content-type': 'application/json' },
          body: JSON.stringify({ task_uuid_list: [task], poll_timeout_seconds: 1 }),
        });
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      }
      await new Promise((r) => setImmediate(r));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
      await one.close();
    }
  });
});
