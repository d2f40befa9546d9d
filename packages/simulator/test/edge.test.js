// The edge (issue 43): bounded work before and after authentication, every malformed request
// answered. Each test is one defect of the issue: a 401 or 413 from the headers alone, `100
// Continue` only after the credentials, an answer (not a reset) to what the parser refuses, a
// stalled upload that gives its image back, bounded batches, any number of filter terms, and a
// batch's sub-request answered exactly as the same request alone.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BATCH_ANSWER_LIMIT, HEADER_LIMIT, JSON_BODY_LIMIT, URL_LIMIT } from '../src/limits.js';
import { open, within } from './support/raw.js';
import { AUTH, startTestSimulator, waitTask } from './support/sim.js';

const V3 = '/api/svc/v3';
const image = (name) => ({
  api_version: '3.1.0',
  metadata: { kind: 'image' },
  spec: { name, resources: { image_type: 'DISK_IMAGE' } },
});
/**
 * Timeouts short enough to be waited on in a test (the defaults are limits.js's); idle past headers
 * and Node's 1 s check of them, so a connection silent mid-headers gets its 408 first.
 */
const SHORT = { headersTimeoutMs: 1_000, uploadIdleTimeoutMs: 1_000, bodyTimeoutMs: 1_000, idleTimeoutMs: 3_000 };

/** Over HTTPS, the simulator as it ships; `plain`: over HTTP (raw bytes without TLS), with SHORT timeouts. */
let secure;
let plain;
beforeAll(async () => {
  [secure, plain] = await Promise.all([startTestSimulator(), startTestSimulator({ http: true, ...SHORT })]);
});
afterAll(async () => {
  await Promise.all([secure?.close(), plain?.close()]);
});
afterEach(() => {
  expect(secure.violations).toEqual([]);
  expect(plain.violations).toEqual([]);
});

/** A request's head, as bytes. */
const head = (method, path, headers = {}) =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;

/** Creates an image without a source (v3) and waits for its create task; returns its UUID. */
async function created(t, name) {
  const res = await t.call('POST', `${V3}/images`, { body: image(name) });
  expect(res.status).toBe(202);
  await waitTask(t.call, res.body.status.execution_context.task_uuid);
  return res.body.metadata.uuid;
}

describe('before authentication', () => {
  it('answers 401 from the headers alone and closes: 8 PUTs declaring 5 GiB, each sending a byte at a time', async () => {
    const connections = await Promise.all(Array.from({ length: 8 }, () => open(secure.sim.url, { ca: secure.sim.ca })));
    const trickles = connections.map(async (c, i) => {
      await c.write(
        head('PUT', `${V3}/images/0e09cf83-ac68-4f28-af70-6df9a43df4f${i}/file`, {
          'content-type': 'application/octet-stream',
          'content-length': String(5 * 1024 ** 3),
        }),
      );
      // one byte at a time until the server closes (bounded: the test waits on the close below)
      for (let n = 0; n < 600 && (await c.write('x')); n++) await new Promise((r) => setTimeout(r, 100));
    });
    for (const c of connections) {
      const answer = await within(c.next('the 401'), 'a 401 to an unauthenticated PUT with a body still arriving');
      expect(answer.status).toBe(401);
      expect(answer.headers.connection).toBe('close');
      expect(JSON.parse(answer.body).message_list[0].reason).toBe('AUTHENTICATION_REQUIRED');
      await within(c.closed, 'the close of the connection after the 401');
    }
    await Promise.all(trickles);
  });

  it('sends 100 Continue only once the credentials pass', async () => {
    const wrong = await open(plain.sim.url);
    await wrong.write(
      head('POST', `${V3}/images/list`, {
        'content-type': 'application/json',
        'content-length': '2',
        expect: '100-continue',
      }),
    );
    const refused = await within(wrong.next(), 'the 401 to a request that waits for 100 Continue');
    expect(refused.status).toBe(401);
    expect(wrong.interim).toEqual([]);
    await within(wrong.closed, 'the close after the 401');

    const right = await open(plain.sim.url);
    await right.write(
      head('POST', `${V3}/images/list`, {
        authorization: AUTH,
        'content-type': 'application/json',
        'content-length': '2',
        expect: '100-continue',
      }),
    );
    expect(await within(right.continued, '100 Continue once the credentials pass')).toBe(100);
    await right.write('{}');
    expect((await within(right.next(), 'the list answer')).status).toBe(200);
    right.socket.destroy();
  });

  it('answers 413 from a declared length over the limit, before a byte of the body, and closes', async () => {
    for (const expect100 of [false, true]) {
      const c = await open(plain.sim.url);
      await c.write(
        head('POST', `${V3}/images/list`, {
          authorization: AUTH,
          'content-type': 'application/json',
          'content-length': String(JSON_BODY_LIMIT + 1),
          ...(expect100 ? { expect: '100-continue' } : {}),
        }),
      );
      const answer = await within(c.next(), 'the 413 to a body declared over the limit');
      expect(answer.status).toBe(413);
      expect(answer.body).toContain(String(JSON_BODY_LIMIT));
      expect(c.interim).toEqual([]);
      await within(c.closed, 'the close after the 413');
    }
  });
});

describe('malformed requests: an answer, then the close (never a reset)', () => {
  const path = `${V3}/images/list`;
  const cases = [
    ['a 70 KB URL', head('GET', `${V3}/images/${'a'.repeat(70_000)}`), 414],
    ['a URL over URL_LIMIT within HEADER_LIMIT', head('GET', `${V3}/images/${'a'.repeat(URL_LIMIT)}`), 414],
    ['20 KiB of headers', head('GET', path, { 'x-filler': 'f'.repeat(20 * 1024) }), 431],
    [
      'more headers than HEADER_LIMIT in many lines',
      head(
        'GET',
        path,
        Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`x-h${i}`, 'v'.repeat(HEADER_LIMIT / 32)])),
      ),
      431,
    ],
    [
      'Content-Length with Transfer-Encoding',
      `${head('POST', path, { authorization: AUTH, 'content-type': 'application/json', 'content-length': '2', 'transfer-encoding': 'chunked' })}2\r\n{}\r\n0\r\n\r\n`,
      400,
    ],
    [
      'two Content-Lengths',
      `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
      400,
    ],
    [
      'a bad chunk size',
      `${head('POST', path, { authorization: AUTH, 'content-type': 'application/json', 'transfer-encoding': 'chunked' })}zz\r\n{}\r\n0\r\n\r\n`,
      400,
    ],
    ['a line that is not HTTP', 'HELLO THERE\r\n\r\n', 400],
  ];
  for (const [name, bytes, status] of cases) {
    it(`answers ${status} to ${name}`, async () => {
      const c = await open(plain.sim.url);
      await c.write(bytes);
      const answer = await within(c.next(`the ${status}`), `an answer to ${name}`);
      expect(answer.status).toBe(status);
      expect(answer.headers.connection).toBe('close');
      expect(answer.headers['content-type']).toBe('application/json');
      expect(JSON.parse(answer.body).message_list[0].message).toMatch(/limit|HTTP/);
      expect((await within(c.closed, 'the close after the answer')).error).toBeUndefined();
    });
  }

  it('answers a malformed request that follows a complete answer on the same connection', async () => {
    const c = await open(plain.sim.url);
    const body = '{"kind":"image"}';
    await c.write(
      `${head('POST', `${V3}/images/list`, { authorization: AUTH, 'content-type': 'application/json', 'content-length': String(body.length) })}${body}`,
    );
    const first = await within(c.next('the list'), 'the answer to a list');
    expect(first.status).toBe(200);
    // the body came whole with the headers: read, so the connection is kept
    expect(first.headers.connection).not.toBe('close');
    await c.write('HELLO THERE\r\n\r\n');
    const answer = await within(c.next('the 400'), 'an answer to a bad line after a good request');
    expect(answer.status).toBe(400);
    expect((await within(c.closed, 'the close after the answer')).error).toBeUndefined();
  });

  it('answers 408 when the request line and headers do not arrive in time', async () => {
    const c = await open(plain.sim.url);
    await c.write(`GET ${V3}/images/list HTTP/1.1\r\nHost: x\r\n`);
    const answer = await within(c.next('the 408'), 'a 408 to headers that stop');
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body).message_list[0].message).toMatch(/did not arrive within 1 s/);
    await within(c.closed, 'the close after the 408');
  });

  it('answers 408 when a JSON body does not arrive whole in time, and closes an idle connection', async () => {
    const c = await open(plain.sim.url);
    await c.write(
      head('POST', `${V3}/images/list`, {
        authorization: AUTH,
        'content-type': 'application/json',
        'content-length': '10',
      }),
    );
    await c.write('{"kind"');
    const answer = await within(c.next('the 408'), 'a 408 to a body that stops');
    expect(answer.status).toBe(408);
    await within(c.closed, 'the close after the 408');
    const silent = await open(plain.sim.url);
    await within(silent.closed, 'the close of a connection that sends nothing');
  });
});

describe('uploads', () => {
  /** Starts an upload of `total` bytes, sends `first`, then nothing. */
  async function stalled(path, { total, first, headers = {} }) {
    const c = await open(plain.sim.url);
    await c.write(
      head('PUT', path, {
        authorization: AUTH,
        'content-type': 'application/octet-stream',
        'content-length': String(total),
        ...headers,
      }),
    );
    await c.write(Buffer.alloc(first, 7));
    return c;
  }
  const parts = () => readdirSync(join(plain.dataDir, 'images')).filter((f) => f.endsWith('.part'));

  it('abandons a stalled upload after its idle timeout: 408, nothing kept, the image takes an upload, update and delete', async () => {
    const [a, b] = [await created(plain, 'stalled-a'), await created(plain, 'stalled-b')];
    for (const uuid of [a, b]) {
      const c = await stalled(`${V3}/images/${uuid}/file`, { total: 100_000, first: 1_000 });
      const answer = await within(c.next('the 408'), 'a 408 to an upload that stops');
      expect(answer.status).toBe(408);
      expect(JSON.parse(answer.body).message_list[0].message).toMatch(/abandoned/);
      await within(c.closed, 'the close after the 408');
    }
    expect(parts()).toEqual([]);
    const upload = await plain.call('PUT', `${V3}/images/${a}/file`, {
      body: Buffer.alloc(2_000, 1),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(upload.status).toBe(200);
    expect((await plain.call('GET', `${V3}/images/${a}`)).body.status.resources.size_bytes).toBe(2_000);
    const got = await plain.call('GET', `${V3}/images/${b}`);
    const updated = await plain.call('PUT', `${V3}/images/${b}`, {
      body: { api_version: '3.1.0', metadata: got.body.metadata, spec: { ...got.body.spec, name: 'renamed' } },
    });
    expect(updated.status).toBe(202);
    await waitTask(plain.call, updated.body.status.execution_context.task_uuid);
    const deleted = await plain.call('DELETE', `${V3}/images/${b}`);
    expect(deleted.status).toBe(202);
  });

  it('abandons a stalled v0.8 upload the same way: the v0.8 delete is then taken', async () => {
    const containers = await plain.call('GET', '/api/svc/v2.0/storage_containers');
    const container = containers.body.entities[0].storage_container_uuid;
    const made = await plain.call('POST', '/api/svc/v0.8/images', {
      body: { name: 'stalled-v08', imageType: 'DISK_IMAGE' },
    });
    const uuid = (await waitTask(plain.call, made.body.taskUuid)).entity_reference_list[0].uuid;
    const c = await stalled(`/api/svc/v0.8/images/${uuid}/upload`, {
      total: 50_000,
      first: 500,
      headers: { 'x-svc-destination-container': container },
    });
    expect((await within(c.next('the 408'), 'a 408 to a v0.8 upload that stops')).status).toBe(408);
    expect(parts()).toEqual([]);
    expect((await plain.call('DELETE', `/api/svc/v0.8/images/${uuid}`)).status).toBe(200);
  });

  it('keeps an upload that is slow but moving, longer than the idle timeout', async () => {
    const uuid = await created(plain, 'slow');
    const c = await stalled(`${V3}/images/${uuid}/file`, { total: 30 * 1024, first: 1024 });
    // a chunk every 100 ms for some 3 s: the idle timeout (1 s) bounds silence, not duration
    for (let i = 1; i < 30; i++) {
      await new Promise((r) => setTimeout(r, 100));
      await c.write(Buffer.alloc(1024, 2));
    }
    expect((await within(c.next(), 'the answer to a slow upload')).status).toBe(200);
    c.socket.destroy();
    expect((await plain.call('GET', `${V3}/images/${uuid}`)).body.status.resources.size_bytes).toBe(30 * 1024);
  });
});

describe('batch', () => {
  const list = (i) => ({
    operation: 'POST',
    path_and_params: '/api/nutanix/v3/images/list',
    body: { kind: 'image', offset: i % 3, length: 500 },
  });

  it('refuses more than 60 sub-requests with 422 naming api_request_list and 60 (the issue: 420)', async () => {
    for (const n of [61, 420]) {
      const res = await secure.call('POST', `${V3}/batch`, {
        body: { api_request_list: Array.from({ length: n }, (_, i) => list(i)) },
      });
      expect(res.status, `${n} sub-requests`).toBe(422);
      expect(res.body.message_list[0].details.api_request_list).toMatch(/60/);
    }
    const sixty = await secure.call('POST', `${V3}/batch`, {
      body: { api_request_list: Array.from({ length: 60 }, (_, i) => list(i)) },
    });
    expect(sixty.status).toBe(200);
    expect(sixty.body.api_response_list).toHaveLength(60);
  });

  it(`keeps its answer within BATCH_ANSWER_LIMIT: the sub-requests past it answer 413 in place`, async () => {
    // 300 images through batches of 60 creates
    for (let b = 0; b < 5; b++) {
      const res = await secure.call('POST', `${V3}/batch`, {
        body: {
          api_request_list: Array.from({ length: 60 }, (_, i) => ({
            operation: 'POST',
            path_and_params: '/api/nutanix/v3/images',
            body: image(`batch-${b}-${i}`),
          })),
        },
      });
      expect(res.body.api_response_list.every((r) => r.status === '202')).toBe(true);
    }
    const res = await secure.call('POST', `${V3}/batch`, {
      body: { api_request_list: Array.from({ length: 60 }, (_, i) => list(i)) },
    });
    expect(res.status).toBe(200);
    expect(Buffer.byteLength(res.text)).toBeLessThanOrEqual(BATCH_ANSWER_LIMIT + 60 * 1024);
    const statuses = res.body.api_response_list.map((r) => r.status);
    expect(statuses[0]).toBe('200');
    expect(statuses).toContain('413');
    const refused = res.body.api_response_list.find((r) => r.status === '413');
    expect(refused.api_response.message_list[0].message).toContain(String(BATCH_ANSWER_LIMIT));
  });
});

describe('list filters', () => {
  it('answers 63, 64 and 200 ;-joined terms as the terms they repeat; two values of one attribute match nothing', async () => {
    const uuid = await created(secure, 'filtered');
    const terms = [`name==filtered`, `uuid==${uuid}`, 'image_type==DISK_IMAGE', 'state==COMPLETE'];
    for (const n of [63, 64, 200]) {
      const filter = Array.from({ length: n }, (_, i) => terms[i % terms.length]).join(';');
      const res = await secure.call('POST', `${V3}/images/list`, { body: { kind: 'image', filter } });
      expect(res.status, `${n} terms`).toBe(200);
      expect(res.body.entities.map((e) => e.metadata.uuid)).toEqual([uuid]);
      const sorted = await secure.call('POST', `${V3}/images/list`, {
        body: { kind: 'image', filter, sort_attribute: 'name', sort_order: 'DESCENDING' },
      });
      expect(sorted.body.metadata.total_matches).toBe(1);
      const tasks = await secure.call('POST', `${V3}/tasks/list`, {
        body: { kind: 'task', filter: Array.from({ length: n }, () => `entity_uuid==${uuid}`).join(';') },
      });
      expect(tasks.status).toBe(200);
      expect(tasks.body.metadata.total_matches).toBe(1);
    }
    const none = await secure.call('POST', `${V3}/images/list`, {
      body: { kind: 'image', filter: `${Array.from({ length: 70 }, () => 'name==filtered').join(';')};name==other` },
    });
    expect(none.status).toBe(200);
    expect(none.body.metadata.total_matches).toBe(0);
  });
});

describe('one pipeline', () => {
  it('answers a sub-request of a batch exactly as the same request sent alone', async () => {
    const uuid = await created(secure, 'parity');
    const requests = [
      ['GET', `/images/${uuid}`, undefined],
      ['GET', '/images/%ZZ', undefined],
      ['GET', '/images/list', undefined],
      ['POST', '/images/list', { kind: 'image', length: 0 }],
      ['POST', '/images/list', { kind: 'image', filter: 'colour==blue' }],
      ['POST', '/images', { spec: {} }],
      ['PUT', `/images/${uuid}`, { api_version: '3.1.0', metadata: { kind: 'image' }, spec: { name: 'x' } }],
      ['DELETE', '/images/0e09cf83-ac68-4f28-af70-6df9a43df4f0', undefined],
      ['GET', '/nowhere', undefined],
    ];
    const batch = await secure.call('POST', `${V3}/batch`, {
      body: {
        api_request_list: requests.map(([operation, path, body]) => ({
          operation,
          path_and_params: `/api/nutanix/v3${path}`,
          ...(body ? { body } : {}),
        })),
      },
    });
    for (const [i, [method, path, body]] of requests.entries()) {
      const alone = await secure.call(method, `${V3}${path}`, { body });
      const sub = batch.body.api_response_list[i];
      expect(`${method} ${path}: ${sub.status}`).toBe(`${method} ${path}: ${alone.status}`);
      expect(sub.api_response).toEqual(alone.body);
    }
  });
});
