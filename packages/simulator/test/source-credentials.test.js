// The credentials of a `source_uri` (issue 43, 6): never shown, wherever the URL is echoed or
// logged (the v3 image and task, the v0.8 and v2.0 views, the logs), however awkward they are; and
// sent to the source as basic authentication, so that a source that requires them is fetched.
import { createServer } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestSimulator, waitTask } from './support/sim.js';

const V3 = '/api/svc/v3';
/** A port nothing listens on: the fetch fails at once, and the failure is what is shown. */
const NOWHERE = '127.0.0.1:9';

/** [case, source_uri, what must never be shown (each form the secret may take)] */
const AWKWARD = [
  [
    'an e-mail user name',
    `http://ops.lead@corp.example:Tr0ub4dor@${NOWHERE}/a.img`,
    ['ops.lead@corp.example', 'ops.lead%40corp.example', 'Tr0ub4dor'],
  ],
  ['a password with @', `http://builder:P@ssW0rd-x@${NOWHERE}/a.img`, ['P@ssW0rd-x', 'P%40ssW0rd-x']],
  ['a password with an escaped /', `http://builder:sl%2Fash-Pw@${NOWHERE}/a.img`, ['sl%2Fash-Pw', 'sl/ash-Pw']],
  ['a password with a raw / (no URL then)', `http://builder:sl/ash-Pw@${NOWHERE}/a.img`, ['sl/ash-Pw', 'sl%2Fash-Pw']],
  ['a password with a space', `http://builder:two W0rds@${NOWHERE}/a.img`, ['two W0rds', 'two%20W0rds', 'W0rds']],
  ['a password with %40', `http://builder:pct%40Sign@${NOWHERE}/a.img`, ['pct%40Sign', 'pct@Sign']],
  ['a password with :', `http://builder:co:lo:nPw@${NOWHERE}/a.img`, ['co:lo:nPw', 'co%3Alo%3AnPw', 'lo:nPw']],
  ['a user name alone', `https://Lone-Us3r@${NOWHERE}/a.img`, ['Lone-Us3r']],
];

let t;
const logged = [];
beforeAll(async () => {
  t = await startTestSimulator();
});
afterAll(async () => {
  await t?.close();
});
afterEach(() => {
  expect(t.violations).toEqual([]);
});

describe('source_uri credentials are never shown', () => {
  for (const [name, uri, secrets] of AWKWARD) {
    it(`with ${name}: not in the answers of v3, v0.8 and v2.0, nor in the logs`, async () => {
      const spy = vi.spyOn(console, 'error').mockImplementation((...args) => logged.push(args.join(' ')));
      try {
        const seen = [];
        const created = await t.call('POST', `${V3}/images`, {
          body: { api_version: '3.1.0', metadata: { kind: 'image' }, spec: { name, resources: { source_uri: uri } } },
        });
        expect(created.status).toBe(202);
        seen.push(created.text);
        const uuid = created.body.metadata.uuid;
        const taskUuid = created.body.status.execution_context.task_uuid;
        const task = await waitTask(t.call, taskUuid);
        expect(task.status).toBe('FAILED');
        expect(task.error_detail).toMatch(/Could not access the URL/);
        for (const path of [
          `${V3}/tasks/${taskUuid}`,
          `${V3}/images/${uuid}`,
          `/api/svc/v0.8/tasks/${taskUuid}`,
          `/api/svc/v2.0/tasks/${taskUuid}`,
          `/api/svc/v0.8/images/${uuid}`,
          `/api/svc/v2.0/images/${uuid}`,
        ])
          seen.push((await t.call('GET', path)).text);
        seen.push((await t.call('POST', `${V3}/images/list`, { body: { kind: 'image', length: 500 } })).text);
        seen.push((await t.call('POST', `${V3}/tasks/list`, { body: { kind: 'task', length: 500 } })).text);
        // the v2.0 create names the source `image_import_spec.url` (a URI: one with a space is refused)
        const v2 = await t.call('POST', '/api/svc/v2.0/images', {
          body: { name, image_type: 'DISK_IMAGE', image_import_spec: { url: uri, storage_container_name: 'ISO' } },
        });
        seen.push(v2.text);
        if (v2.status === 201) {
          seen.push(JSON.stringify(await waitTask(t.call, v2.body.task_uuid)));
          seen.push((await t.call('GET', `/api/svc/v2.0/tasks/${v2.body.task_uuid}`)).text);
        } else expect(v2.status, v2.text).toBe(400);
        const shown = [...seen, ...logged].join('\n');
        for (const secret of secrets) expect(shown, `${secret} shown`).not.toContain(secret);
        // what is shown still says which source it was
        expect(shown).toContain(`${NOWHERE}/a.img`);
      } finally {
        spy.mockRestore();
      }
    });
  }

  it('nor in the 500 of a source_uri without a scheme', async () => {
    const res = await t.call('POST', `${V3}/images`, {
      body: {
        api_version: '3.1.0',
        metadata: { kind: 'image' },
        spec: { name: 'schemeless', resources: { source_uri: 'builder:P@ssW0rd-y@files.example/a.img' } },
      },
    });
    expect(res.status).toBe(500);
    expect(res.text).not.toContain('P@ssW0rd-y');
    expect(res.text).not.toContain('builder');
    expect(res.text).toContain('files.example/a.img');
  });
});

describe('a source that requires credentials', () => {
  const USER = 'me@corp.example';
  const PASSWORD = 'p@ss w:rd/%';
  const bytes = Buffer.alloc(4096, 5);
  let source;
  /** The Authorization headers the source was sent. */
  const sent = [];
  beforeAll(async () => {
    const expected = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
    const server = createServer((req, res) => {
      sent.push(req.headers.authorization);
      if (req.headers.authorization !== expected) {
        res.writeHead(401, { 'www-authenticate': 'Basic realm="images"' }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length }).end(bytes);
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
    source = { server, host: `127.0.0.1:${/** @type {any} */ (server.address()).port}` };
  });
  afterAll(() => {
    source?.server.closeAllConnections();
    source?.server.close();
  });

  /** Creates an image from `uri` and waits for its task. */
  async function fetched(name, uri) {
    const created = await t.call('POST', `${V3}/images`, {
      body: { api_version: '3.1.0', metadata: { kind: 'image' }, spec: { name, resources: { source_uri: uri } } },
    });
    expect(created.status).toBe(202);
    const task = await waitTask(t.call, created.body.status.execution_context.task_uuid);
    return { task, image: (await t.call('GET', `${V3}/images/${created.body.metadata.uuid}`)).body };
  }

  it('is fetched with the user info as basic authentication, percent-encoded or not', async () => {
    const encoded = `http://${encodeURIComponent(USER)}:${encodeURIComponent(PASSWORD)}@${source.host}/disk.img`;
    // as typed: WHATWG URL takes the user info up to the last @ before the path (no / in it then)
    const typed = `http://${USER}:p@ss w:rd@${source.host}/disk.img`;
    const first = await fetched('with-credentials', encoded);
    expect(first.task.status, first.task.error_detail).toBe('SUCCEEDED');
    expect(first.image.status.resources.size_bytes).toBe(bytes.length);
    expect(first.image.spec.resources.source_uri).toBe(`http://${source.host}/disk.img`);
    const second = await fetched('typed-credentials', typed.replace('p@ss w:rd', 'wrong-one'));
    expect(second.task.status).toBe('FAILED');
    expect(second.task.error_detail).toMatch(/401/);
    expect(second.task.error_detail).not.toContain('wrong-one');
    expect(sent.at(-1)).toBe(`Basic ${Buffer.from(`${USER}:wrong-one`).toString('base64')}`);
  });
});
