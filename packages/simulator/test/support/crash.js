// Crash-test support (issue 42): the simulator's CLI in a child process that kills itself at its
// Nth durable write (`--faults kill-at=N`), workflows that record what the simulator acknowledged,
// and the invariants a restart on the same data dir must keep.
import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Agent, fetch } from 'undici';
import { DatabaseSync } from '../../src/domain/store.js';
import { AUTH, objectStoreSpec, PASSWORD } from './sim.js';

const CLI = fileURLToPath(new URL('../../src/cli.js', import.meta.url));
const V3 = '/api/svc/v3';
const DONE = ['SUCCEEDED', 'FAILED', 'ABORTED'];

/**
 * A JSON client of one simulator (its own connection pool, so a dead server fails fast).
 * @param {string} url  origin
 */
export function client(url) {
  const dispatcher = new Agent({ connections: 8 });
  /**
   * @param {string} method
   * @param {string} path
   * @param {{ body?: any, headers?: Record<string, string> }} [o]  a Buffer body is sent as it is
   * @returns {Promise<{ status: number, body: any }>}
   */
  async function call(method, path, o = {}) {
    const headers = { authorization: AUTH, ...o.headers };
    let body = o.body;
    const streamed = body instanceof Readable;
    if (body !== undefined && !Buffer.isBuffer(body) && !streamed) {
      body = JSON.stringify(body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${url}${path}`, {
      method,
      headers,
      body,
      dispatcher,
      ...(streamed ? { duplex: 'half' } : {}),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    const json = (res.headers.get('content-type') ?? '').includes('json') && bytes.length > 0;
    return { status: res.status, body: json ? JSON.parse(bytes.toString('utf8')) : bytes };
  }
  /** Waits for a v3 task to end (long polls, 120 s at most) and returns it. */
  async function task(uuid) {
    for (let i = 0; i < 4; i++) {
      const polled = await call('POST', `${V3}/tasks/poll`, {
        body: { task_uuid_list: [uuid], poll_timeout_seconds: 30 },
      });
      if (polled.status !== 200)
        throw new Error(`tasks_poll answered ${polled.status}: ${JSON.stringify(polled.body)}`);
      if (polled.body.entities.length) return polled.body.entities[0];
    }
    throw new Error(`task ${uuid} did not end in 120 s`);
  }
  return { call, task, close: () => dispatcher.close() };
}

/**
 * The CLI on a free port over plain HTTP with tasks as fast as their work (or `taskSeconds` long),
 * armed to kill itself just before its `killAt`th durable write (0: never).
 * @param {string} dataDir
 * @param {number} killAt
 * @param {{ taskSeconds?: number, firstStart?: boolean }} [o]  `firstStart`: HTTPS with the data dir's own
 *   certificate and kept password, as a user's first start (their writes are kill points too)
 * @returns {Promise<{ url: string, exited: Promise<{ code: number | null, signal: string | null }>, stop: () => Promise<void>, output: () => string }>}
 */
export async function startChild(dataDir, killAt, { taskSeconds = 0, firstStart = false } = {}) {
  const args = [CLI, '--port', '0', '--task-seconds', String(taskSeconds), '--data', dataDir];
  // a first start as a user makes it: HTTPS with the certificate it makes, the password it keeps
  if (!firstStart) args.push('--http');
  if (killAt) args.push('--faults', `kill-at=${killAt}`);
  const env = { ...process.env, SVC_SIM_PASSWORD: PASSWORD };
  if (firstStart) {
    delete env.SVC_SIM_PASSWORD;
    delete env.SVC_PASSWORD;
  }
  const child = spawn(process.execPath, args, {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /local svc\s+(\S+)/.exec(out);
      if (match) resolve(match[1]);
    });
    child.stderr.on('data', (chunk) => {
      out += chunk;
    });
    exited.then(({ code, signal }) =>
      reject(new Error(`the simulator exited (${code ?? signal}) before it listened:\n${out}`)),
    );
  });
  return {
    url,
    exited,
    /** Resolves with how it exited, or rejects naming what did not happen within `ms`. */
    exitedWithin: (ms) =>
      Promise.race([
        exited,
        new Promise((_, reject) => {
          setTimeout(() => reject(new Error(`the simulator did not exit within ${ms} ms`)), ms).unref();
        }),
      ]),
    output: () => out,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * What the simulator acknowledged before a crash: per entity, what must hold after a restart.
 * @typedef {{ kind: 'image' | 'objectstore', deleted?: boolean, maybeGone?: boolean, bytes?: Buffer, name?: string }} Fact
 */
export class Acknowledged {
  /** @type {Map<string, Fact>} */
  entities = new Map();
  /** @type {Map<string, string>} task -> the end state a client saw */
  tasks = new Map();
  /** @type {Set<string>} tasks whose abort was sent (answered or not): they may end ABORTED */
  abortsAsked = new Set();
  /** @type {Set<string>} tasks whose abort was answered 200: they must end ABORTED */
  aborted = new Set();
  /** @type {Set<string>} tasks a change sent (a restore) may have removed */
  tasksMaybeGone = new Set();
  /** @param {string} uuid @param {'image' | 'objectstore'} kind @param {Partial<Fact>} [fact] */
  entity(uuid, kind, fact = {}) {
    this.entities.set(uuid, { ...this.entities.get(uuid), kind, ...fact });
  }
  /** @param {{ uuid: string, status: string }} task */
  task(task) {
    this.tasks.set(task.uuid, task.status);
    return task;
  }
  /** A copy, to go on from. */
  clone() {
    const copy = new Acknowledged();
    for (const [uuid, fact] of this.entities) copy.entities.set(uuid, { ...fact });
    for (const [uuid, status] of this.tasks) copy.tasks.set(uuid, status);
    for (const uuid of this.abortsAsked) copy.abortsAsked.add(uuid);
    for (const uuid of this.aborted) copy.aborted.add(uuid);
    for (const uuid of this.tasksMaybeGone) copy.tasksMaybeGone.add(uuid);
    return copy;
  }
}

const sha = (bytes) => createHash('sha256').update(bytes).digest('hex');

/**
 * The workflows the crash test walks, each over the public APIs as a client would, recording what
 * was acknowledged. `setup`, when given, runs once before the walk (not walked: its writes are
 * those of another workflow, e.g. a create) and hands `run` what it made. `env.source` is an HTTP
 * URL of `env.sourceBytes`; `env.bytes` what uploads send.
 * `child`: how the walked simulator runs (its task time). `run`'s client also carries `died` (the
 * simulator's exit) and `dataDir`.
 * @type {{ name: string, child?: { taskSeconds?: number },
 *   setup?: (c: ReturnType<typeof client>, ack: Acknowledged, env: any) => Promise<any>,
 *   run: (c: any, ack: Acknowledged, env: any, made: any) => Promise<void> }[]}
 */
export const WORKFLOWS = [
  {
    name: 'v3 create from a URL',
    async run(c, ack, env) {
      const created = await created3(c, ack, 'from-url', { image_type: 'DISK_IMAGE', source_uri: env.source });
      const task = ack.task(await c.task(created.status.execution_context.task_uuid));
      if (task.status === 'SUCCEEDED') ack.entity(created.metadata.uuid, 'image', { bytes: env.sourceBytes });
    },
  },
  {
    name: 'v3 create, then upload',
    async run(c, ack, env) {
      const image = await created3(c, ack, 'upload');
      ack.task(await c.task(image.status.execution_context.task_uuid));
      await upload3(c, ack, image.metadata.uuid, env.bytes);
    },
  },
  {
    name: 'v3 upload with a checksum',
    setup: (c, ack) => emptyImage(c, ack, 'upload-sha'),
    async run(c, ack, env, uuid) {
      await upload3(c, ack, uuid, env.bytes, {
        'x-svc-checksum-type': 'SHA_256',
        'x-svc-checksum-bytes': sha(env.bytes),
      });
    },
  },
  {
    name: 'v0.8 create and two-phase upload',
    async run(c, ack, env) {
      const answer = await ok(
        c.call('POST', '/api/svc/v0.8/images', { body: { name: 'v08', imageType: 'DISK_IMAGE' } }),
      );
      const create = ack.task(await c.task(answer.taskUuid));
      const uuid = create.entity_reference_list[0].uuid;
      ack.entity(uuid, 'image');
      const upload = await ok(
        c.call('PUT', `/api/svc/v0.8/images/${uuid}/upload`, {
          body: env.bytes,
          headers: { 'content-type': 'application/octet-stream', 'x-svc-destination-container': env.container },
        }),
      );
      const task = ack.task(await c.task(upload.taskUuid));
      if (task.status === 'SUCCEEDED') ack.entity(uuid, 'image', { bytes: env.bytes });
    },
  },
  {
    name: 'v2.0 create from a URL and delete',
    async run(c, ack, env) {
      const answer = await ok(
        c.call('POST', '/api/svc/v2.0/images', {
          body: {
            name: 'v20',
            image_type: 'DISK_IMAGE',
            image_import_spec: { url: env.source, storage_container_uuid: env.container },
          },
        }),
      );
      const create = ack.task(await c.task(answer.task_uuid));
      const uuid = create.entity_reference_list[0].uuid;
      ack.entity(uuid, 'image', create.status === 'SUCCEEDED' ? { bytes: env.sourceBytes } : {});
      const deleted = await ok(c.call('DELETE', `/api/svc/v2.0/images/${uuid}`));
      ack.entity(uuid, 'image', { deleted: true });
      ack.task(await c.task(deleted.task_uuid));
    },
  },
  {
    name: 'v3 update',
    setup: (c, ack) => emptyImage(c, ack, 'to-update'),
    async run(c, ack, _env, uuid) {
      const got = await ok(c.call('GET', `${V3}/images/${uuid}`));
      const updated = await ok(
        c.call('PUT', `${V3}/images/${uuid}`, {
          body: {
            api_version: '3.1.0',
            metadata: { kind: 'image', spec_version: got.metadata.spec_version },
            spec: { name: 'updated', resources: got.spec.resources },
          },
        }),
      );
      ack.entity(uuid, 'image', { name: 'updated' });
      ack.task(await c.task(updated.status.execution_context.task_uuid));
    },
  },
  {
    name: 'v3 delete of an image with bytes',
    async setup(c, ack, env) {
      const uuid = await emptyImage(c, ack, 'to-delete');
      await upload3(c, ack, uuid, env.bytes);
      return uuid;
    },
    async run(c, ack, _env, uuid) {
      const deleted = await ok(c.call('DELETE', `${V3}/images/${uuid}`));
      ack.entity(uuid, 'image', { deleted: true });
      ack.task(await c.task(deleted.status.execution_context.task_uuid));
    },
  },
  {
    name: 'v3 abort of a fetch',
    async run(c, ack, env) {
      const id = randomUUID();
      env.gate.hold(id);
      const source_uri = `${env.gate.url}/held/${id}`;
      const created = await created3(c, ack, 'abort-fetch', { image_type: 'DISK_IMAGE', source_uri });
      const task = created.status.execution_context.task_uuid;
      await untilKilled(c, env.gate.started(id));
      ack.abortsAsked.add(task);
      await ok(c.call('POST', `${V3}/tasks/${task}/abort`));
      ack.aborted.add(task);
      env.gate.release(id);
      ack.task(await c.task(task));
    },
  },
  {
    name: 'v0.8 abort of an upload',
    // its upload task runs long enough for the abort to meet it
    child: { taskSeconds: 1 },
    setup: (c, ack) => elementImage(c, ack, 'abort-upload'),
    async run(c, ack, env, uuid) {
      const upload = await ok(
        c.call('PUT', `/api/svc/v0.8/images/${uuid}/upload`, {
          body: env.bytes,
          headers: { 'content-type': 'application/octet-stream', 'x-svc-destination-container': env.container },
        }),
      );
      ack.abortsAsked.add(upload.taskUuid);
      await ok(c.call('POST', `${V3}/tasks/${upload.taskUuid}/abort`));
      ack.aborted.add(upload.taskUuid);
      ack.task(await c.task(upload.taskUuid));
    },
  },
  {
    name: 'v0.8 upload with a v2.0 update racing it',
    setup: (c, ack) => elementImage(c, ack, 'upload-race'),
    async run(c, ack, env, uuid) {
      // the body's first half now, the rest once the update has been answered
      let rest = () => {};
      const restSent = new Promise((resolve) => (rest = resolve));
      const half = env.bytes.length / 2;
      const body = Readable.from(
        (async function* () {
          yield env.bytes.subarray(0, half);
          await restSent;
          yield env.bytes.subarray(half);
        })(),
      );
      const uploading = c.call('PUT', `/api/svc/v0.8/images/${uuid}/upload`, {
        body,
        headers: { 'content-type': 'application/octet-stream', 'x-svc-destination-container': env.container },
      });
      uploading.catch(() => {});
      await untilKilled(c, written(c.dataDir, uuid));
      const update = await c.call('PUT', `/api/svc/v2.0/images/${uuid}`, { body: { name: 'raced' } });
      if (update.status !== 400)
        throw new Error(`an update during the upload answered ${update.status}: ${JSON.stringify(update.body)}`);
      rest();
      const upload = await ok(uploading);
      const task = ack.task(await c.task(upload.taskUuid));
      if (task.status === 'SUCCEEDED') ack.entity(uuid, 'image', { bytes: env.bytes });
    },
  },
  {
    name: 'restore of a snapshot',
    // an image taken into the snapshot, then one made after it: the restore keeps the first only
    async setup(c, ack, env) {
      const kept = await emptyImage(c, ack, 'in-snapshot');
      await upload3(c, ack, kept, env.bytes);
      const archive = await ok(c.call('GET', '/_svc/snapshot'));
      const tasksBefore = new Set(ack.tasks.keys());
      const after = await emptyImage(c, ack, 'after-snapshot');
      await upload3(c, ack, after, Buffer.alloc(4096, 3));
      return { archive, after, tasks: [...ack.tasks.keys()].filter((uuid) => !tasksBefore.has(uuid)) };
    },
    async run(c, ack, _env, made) {
      // sent: what was made after may be gone from now on, whether the answer comes or not
      ack.entity(made.after, 'image', { maybeGone: true });
      for (const uuid of made.tasks) ack.tasksMaybeGone.add(uuid);
      await ok(
        c.call('PUT', '/_svc/snapshot', { body: made.archive, headers: { 'content-type': 'application/x-tar' } }),
      );
      ack.entity(made.after, 'image', { deleted: true });
    },
  },
  {
    name: 'object store create and delete',
    async run(c, ack, env) {
      const uuid = await createdStore(c, ack, env, 'store-delete');
      await ok(c.call('DELETE', `/oss/api/svc/v3/objectstores/${uuid}`));
      ack.entity(uuid, 'objectstore', { deleted: true });
      await storeSettled(c, uuid);
    },
  },
  {
    name: 'object store certificate replacement',
    setup: (c, ack, env) => createdStore(c, ack, env, 'store-cert'),
    async run(c, _ack, _env, uuid) {
      await ok(c.call('POST', `/oss/api/svc/v3/objectstores/${uuid}/regenerate_self_signed_cert`));
      await storeSettled(c, uuid);
    },
  },
];

/** `promise`, or the error of the simulator's kill when it dies first (`c.died`: its exit). */
function untilKilled(c, promise) {
  return Promise.race([
    promise,
    c.died.then(() => {
      throw new Error('the simulator was killed');
    }),
  ]);
}

/** Resolves once the v0.8 upload of `uuid` has its first bytes in its partial file. */
async function written(dataDir, uuid) {
  const part = join(dataDir, 'images', `${uuid}.stage.part`);
  for (;;) {
    if (existsSync(part) && statSync(part).size > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** An element (v0.8) image without bytes whose create task has ended; its UUID. */
async function elementImage(c, ack, name) {
  const answer = await ok(c.call('POST', '/api/svc/v0.8/images', { body: { name, imageType: 'DISK_IMAGE' } }));
  const create = ack.task(await c.task(answer.taskUuid));
  const uuid = create.entity_reference_list[0].uuid;
  ack.entity(uuid, 'image');
  return uuid;
}

/** An image without bytes whose create task has ended; its UUID. */
async function emptyImage(c, ack, name) {
  const image = await created3(c, ack, name);
  ack.task(await c.task(image.status.execution_context.task_uuid));
  return image.metadata.uuid;
}

/** The body of a call that must succeed (2xx); throws naming the status otherwise. */
async function ok(answer) {
  const { status, body } = await answer;
  if (status < 200 || status > 299) throw new Error(`answered ${status}: ${JSON.stringify(body)}`);
  return body;
}

async function created3(c, ack, name, resources = { image_type: 'DISK_IMAGE' }) {
  const body = await ok(
    c.call('POST', `${V3}/images`, {
      body: { api_version: '3.1.0', metadata: { kind: 'image' }, spec: { name, resources } },
    }),
  );
  ack.entity(body.metadata.uuid, 'image');
  return body;
}

async function upload3(c, ack, uuid, bytes, headers = {}) {
  await ok(
    c.call('PUT', `${V3}/images/${uuid}/file`, {
      body: bytes,
      headers: { 'content-type': 'application/octet-stream', ...headers },
    }),
  );
  ack.entity(uuid, 'image', { bytes });
}

async function createdStore(c, ack, env, name) {
  const body = await ok(
    c.call('POST', '/oss/api/svc/v3/objectstores', {
      body: {
        api_version: '3.0',
        metadata: { kind: 'objectstore' },
        spec: objectStoreSpec(name, env.cluster, env.subnets),
      },
    }),
  );
  ack.entity(body.metadata.uuid, 'objectstore');
  await storeSettled(c, body.metadata.uuid);
  return body.metadata.uuid;
}

/** Waits until an object store is in no in-progress state (or gone). */
async function storeSettled(c, uuid) {
  for (let i = 0; i < 20; i++) {
    const { status, body } = await c.call('GET', `/oss/api/svc/v3/objectstores/${uuid}`);
    if (status === 404) return;
    if (!['PENDING', 'REPLACING_CERT', 'DELETING_INPUT'].includes(body.status.state)) return;
    // the tasks' own end is a long poll: wait on the newest active task of the store
    const tasks = await ok(
      c.call('POST', `${V3}/tasks/list`, { body: { kind: 'task', filter: `entity_uuid==${uuid}`, length: 1 } }),
    );
    const task = tasks.entities[0];
    if (task && !DONE.includes(task.status)) await c.task(task.uuid);
  }
  throw new Error(`object store ${uuid} did not leave its in-progress state`);
}

/**
 * Checks a data dir after a crash, with a simulator started on it (in this process): every
 * task ends; everything acknowledged is there (deleted ones gone, bytes identical, fields as
 * updated); no partial or orphan file; each entity left accepts its next operations (upload,
 * update, delete); SQLite's integrity check passes.
 * @param {string} dataDir
 * @param {Acknowledged} ack
 * @param {(dataDir: string) => Promise<{ url: string, close: () => Promise<void> }>} start
 * @returns {Promise<string[]>} what does not hold (empty: all does)
 */
export async function violations(dataDir, ack, start) {
  const problems = [];
  const sim = await start(dataDir);
  const c = client(sim.url);
  try {
    const active = await activeTasks(c);
    for (const uuid of active) await c.task(uuid);
    const all = await ok(c.call('POST', `${V3}/tasks/list`, { body: { kind: 'task', length: 500 } }));
    // the workflows' sources answer and nothing fails on purpose: a task that fails did so because
    // of the stop (its work not idempotent, its entity left where its end cannot apply)
    for (const task of all.entities) {
      // an acknowledged abort never ends otherwise; an abort sent but not answered may have taken
      if (ack.aborted.has(task.uuid) && task.status !== 'ABORTED')
        problems.push(
          `task ${task.uuid} (${task.operation_type}): its abort was answered 200, it ended ${task.status}`,
        );
      else if (task.status !== 'SUCCEEDED' && !(task.status === 'ABORTED' && ack.abortsAsked.has(task.uuid)))
        problems.push(`task ${task.uuid} (${task.operation_type}) ended ${task.status}: ${task.error_detail}`);
    }
    for (const [uuid, status] of ack.tasks) {
      const task = all.entities.find((t) => t.uuid === uuid);
      if (!task && ack.tasksMaybeGone.has(uuid)) continue;
      if (task?.status !== status)
        problems.push(`task ${uuid} was acknowledged ${status}, is ${task?.status ?? 'gone'}`);
    }
    const images = await ok(c.call('POST', `${V3}/images/list`, { body: { kind: 'image', length: 500 } }));
    for (const [uuid, fact] of ack.entities) {
      const path = fact.kind === 'image' ? `${V3}/images/${uuid}` : `/oss/api/svc/v3/objectstores/${uuid}`;
      const got = await c.call('GET', path);
      if (fact.deleted) {
        if (got.status !== 404)
          problems.push(`${fact.kind} ${uuid}: its delete was acknowledged, it answers ${got.status}`);
        continue;
      }
      // a change sent but not answered (a restore) may have taken or not: gone is as right as there
      if (fact.maybeGone && got.status === 404) continue;
      if (got.status !== 200) {
        problems.push(`${fact.kind} ${uuid}: acknowledged, it answers ${got.status}`);
        continue;
      }
      if (fact.name && got.body.spec.name !== fact.name)
        problems.push(`image ${uuid}: its update to "${fact.name}" was acknowledged, it is "${got.body.spec.name}"`);
      if (fact.bytes) {
        const file = await c.call('GET', `${V3}/images/${uuid}/file`);
        if (file.status !== 200 || sha(file.body) !== sha(fact.bytes))
          problems.push(
            `image ${uuid}: its bytes were acknowledged, it answers ${file.status} with ${file.body.length} bytes`,
          );
      }
    }
    problems.push(...filesOf(dataDir, images.entities));
    for (const image of images.entities) problems.push(...(await nextOperations(c, image)));
    const stores = await ok(c.call('GET', '/oss/api/svc/v3/objectstores/list'));
    for (const store of stores.specs) {
      const deleted = await c.call('DELETE', `/oss/api/svc/v3/objectstores/${store.metadata.uuid}`);
      if (deleted.status !== 202)
        problems.push(
          `object store ${store.metadata.uuid} (${store.status.state}) refuses a delete: ${deleted.status}`,
        );
      else await storeSettled(c, store.metadata.uuid);
    }
    if ((await activeTasks(c)).length) problems.push('tasks still QUEUED or RUNNING after every operation ended');
  } finally {
    await c.close();
    await sim.close();
  }
  const db = new DatabaseSync(join(dataDir, 'state.sqlite'), { readOnly: true });
  try {
    const result = db.prepare('PRAGMA integrity_check').all();
    if (result.length !== 1 || Object.values(result[0])[0] !== 'ok')
      problems.push(`SQLite integrity check: ${JSON.stringify(result)}`);
  } finally {
    db.close();
  }
  return problems;
}

async function activeTasks(c) {
  const uuids = [];
  for (const status of ['QUEUED', 'RUNNING']) {
    const page = await ok(
      c.call('POST', `${V3}/tasks/list`, { body: { kind: 'task', filter: `status==${status}`, length: 500 } }),
    );
    uuids.push(...page.entities.map((t) => t.uuid));
  }
  return uuids;
}

/** Partial files, files of no image (or of one without bytes), images whose bytes have no file. */
function filesOf(dataDir, images) {
  const problems = [];
  const withData = new Map(
    images
      .filter((i) => i.status.resources.size_bytes !== undefined)
      .map((i) => [i.metadata.uuid, i.status.resources.size_bytes]),
  );
  const names = readdirSync(join(dataDir, 'images'));
  for (const name of names) {
    if (name.endsWith('.part')) problems.push(`a partial file is left: ${name}`);
    else if (!withData.has(name)) problems.push(`a file of no image with bytes is left: ${name}`);
    else if (statSync(join(dataDir, 'images', name)).size !== withData.get(name))
      problems.push(`the file of image ${name} is not its size_bytes`);
  }
  for (const uuid of withData.keys()) if (!names.includes(uuid)) problems.push(`image ${uuid} has a size but no file`);
  return problems;
}

/** An image in a final state that takes its next operations: an upload (when it has no bytes), an update, a delete. */
async function nextOperations(c, image) {
  const uuid = image.metadata.uuid;
  const problems = [];
  if (!['COMPLETE', 'ERROR'].includes(image.status.state))
    return [`image ${uuid} is ${image.status.state} after every task ended`];
  if (image.status.state === 'COMPLETE' && image.status.resources.size_bytes === undefined) {
    const put = await c.call('PUT', `${V3}/images/${uuid}/file`, {
      body: Buffer.from('next'),
      headers: { 'content-type': 'application/octet-stream' },
    });
    if (put.status !== 200) problems.push(`image ${uuid} refuses an upload: ${put.status} ${JSON.stringify(put.body)}`);
  }
  const got = await ok(c.call('GET', `${V3}/images/${uuid}`));
  const updated = await c.call('PUT', `${V3}/images/${uuid}`, {
    body: {
      api_version: '3.1.0',
      metadata: { kind: 'image', spec_version: got.metadata.spec_version },
      spec: got.spec,
    },
  });
  if (updated.status !== 202)
    problems.push(`image ${uuid} refuses an update: ${updated.status} ${JSON.stringify(updated.body)}`);
  else await c.task(updated.body.status.execution_context.task_uuid);
  const deleted = await c.call('DELETE', `${V3}/images/${uuid}`);
  if (deleted.status !== 202)
    problems.push(`image ${uuid} refuses a delete: ${deleted.status} ${JSON.stringify(deleted.body)}`);
  else {
    await c.task(deleted.body.status.execution_context.task_uuid);
    if ((await c.call('GET', `${V3}/images/${uuid}`)).status !== 404)
      problems.push(`image ${uuid} is not gone after its delete`);
  }
  return problems;
}
