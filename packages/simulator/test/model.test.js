// A model-based concurrency test (issue 42; the Jepsen idea through fast-check's model-based
// testing): random sequences of create, update, upload, delete (v3, v2.0 and inside a batch) and
// restart run against a simulator. The requests of each stretch are held and released together at
// its end (`answers`, `settle`, `restart`), in an order fast-check's scheduler picks, so that they
// overlap each other and the tasks of the stretches before (`answers` does not wait for those). Every
// answer must be one the transition table allows given what was acknowledged before the request
// was sent (happens-before); at each `settle` every image must be where the acknowledged
// operations put it: gone when a delete was accepted, its bytes those of its source or of its one
// accepted upload, its name that of its last accepted update, its state that of its create task.
// Beside the table's answers, invariants of their own (issue 58) that no table row can bend: an
// acknowledged upload (v3, or v0.8's two-phase) is never dropped, an acknowledged abort never ends
// otherwise than ABORTED, and a deleted image never comes back, across restarts.
//   SVC_SIM_MODEL_RUNS=200 SVC_SIM_MODEL_SEED=7   longer runs, another seed (the default is fixed)
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startSimulator } from '../src/index.js';
import { client } from './support/crash.js';
import { PASSWORD } from './support/sim.js';

const V3 = '/api/svc/v3';
const RUNS = Number(process.env.SVC_SIM_MODEL_RUNS ?? 30);
const SEED = Number(process.env.SVC_SIM_MODEL_SEED ?? 4242);
const GOOD = Buffer.alloc(20_000, 3);
/** Long enough that the next stretch's requests meet a running task, short enough for many runs. */
const TASK_SECONDS = 0.15;

/** A source host: `/good.img` answers GOOD; `/bad.img` answers 404 after a moment, so an update can arrive while it is fetched. */
let source;
const root = mkdtempSync(join(tmpdir(), 'svc-sim-model-'));
let runs = 0;
/** Requests sent while another was still unanswered. */
let overlapping = 0;

beforeAll(async () => {
  const server = createServer((req, res) => {
    if (req.url === '/good.img') {
      res.writeHead(200, { 'content-length': GOOD.length }).end(GOOD);
      return;
    }
    setTimeout(() => res.writeHead(404).end('gone'), 30);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  source = { url: `http://127.0.0.1:${/** @type {any} */ (server.address()).port}`, server };
});

afterAll(() => {
  source?.server.closeAllConnections();
  source?.server.close();
  rmSync(root, { recursive: true, force: true });
  console.log(`model test: ${runs} runs, ${overlapping} requests sent while another was unanswered`);
});

/**
 * @typedef {{ type: string, issuedAt: number, answeredAt?: number, status?: number, specVersion?: number,
 *   name?: string, size?: number, writingAt?: number }} Op  an operation on an image and what it was
 *   answered; `writingAt`: when a v0.8 upload was seen writing its first bytes
 * @typedef {{ uuid: string, source: 'none' | 'good' | 'bad', name: string, ops: Op[], createTask: string }} ModelImage
 * @typedef {{ images: ModelImage[] }} Model
 * @typedef {{ sim: any, c: ReturnType<typeof client>, dir: string, s: any, clock: number,
 *   inflight: Set<Promise<void>>, unanswered: number, problems: string[], container: string }} Real
 */

/** The successes of an op type (v3 202; uploads 200; element calls 200; an abort 200). */
const SUCCESS = { update: 202, v2update: 200, delete: 202, upload: 200, stage: 200, v2delete: 200, abort: 200 };
/** Every status an op may be answered: success, refused (409, element 400), gone (404). */
const ALLOWED = {
  update: [202, 409, 404],
  v2update: [200, 400, 404],
  delete: [202, 409, 404],
  upload: [200, 409, 404],
  stage: [200, 400, 404],
  v2delete: [200, 400, 404],
  // an abort of the image's create task: 409 once it has ended
  abort: [200, 409],
};
const isDelete = (op) => op.type === 'delete' || op.type === 'v2delete';
const isUpdate = (op) => op.type === 'update' || op.type === 'v2update';
const isWriter = (op) => op.type === 'upload' || op.type === 'stage';
const succeeded = (op) => op.status === SUCCESS[op.type];

/**
 * Sends an op to an image once the scheduler releases it, and checks its answer against what
 * was acknowledged before it was sent.
 * @param {Real} r
 * @param {ModelImage} image
 * @param {Op['type']} type
 * @param {(op: Op) => Promise<{ status: number, body: any }>} send
 * @param {(op: Op, answer: any) => void} [record]
 */
function fire(r, image, type, send, record) {
  const done = r.s
    .schedule(Promise.resolve(), `${type} ${image.name}`)
    .then(async () => {
      /** @type {Op} */
      const op = { type, issuedAt: ++r.clock };
      image.ops.push(op);
      if (r.unanswered++ > 0) overlapping++;
      const answer = await send(op).finally(() => r.unanswered--);
      op.answeredAt = ++r.clock;
      op.status = answer.status;
      record?.(op, answer.body);
      check(r, image, op, answer.body);
    })
    .catch((error) => r.problems.push(`${type} ${image.name}: ${error.message}`))
    .finally(() => r.inflight.delete(done));
  r.inflight.add(done);
}

/**
 * Resolves true once the v0.8 upload of `uuid` has bytes in its partial file, false when
 * `answered` (its answer) comes first: it was refused before it wrote.
 */
async function partWritten(dir, uuid, answered) {
  const part = join(dir, 'images', `${uuid}.stage.part`);
  let done = false;
  answered.finally(() => (done = true)).catch(() => {});
  for (;;) {
    if (existsSync(part) && statSync(part).size > 0) return true;
    if (done) return false;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** The rules an answer must keep at the moment it arrives. */
function check(r, image, op, body) {
  const where = `${op.type} of ${image.name} (${image.source} source) answered ${op.status}`;
  if (!ALLOWED[op.type].includes(op.status))
    r.problems.push(`${where}: not an answer it may give (${JSON.stringify(body)})`);
  const before = (other) => other !== op && other.answeredAt !== undefined && other.answeredAt < op.issuedAt;
  if (succeeded(op) && image.ops.some((d) => isDelete(d) && succeeded(d) && before(d)))
    r.problems.push(`${where}: accepted after a delete of it was accepted`);
  // an upload that began writing its bytes, all of them sent, is kept: nothing after it may drop it
  if (op.type === 'stage' && op.writingAt !== undefined && !succeeded(op))
    r.problems.push(`${where}: its bytes were being written, and it was not kept (${JSON.stringify(body)})`);
  if (isWriter(op) && succeeded(op)) {
    if (image.source !== 'none') r.problems.push(`${where}: an image created from a source_uri took an upload`);
    if (image.ops.some((u) => isWriter(u) && succeeded(u) && before(u)))
      r.problems.push(`${where}: a second upload was accepted`);
  }
}

/** A v0.8 two-phase upload of `size` bytes, its body in two halves (see `fire`). */
function stage(r, image, size) {
  fire(
    r,
    image,
    'stage',
    async (op) => {
      // its first half now; its rest when the scheduler says, once the first is being written
      // (other requests meet the upload in progress) or the upload was refused
      let rest = () => {};
      const restReleased = new Promise((resolve) => (rest = resolve));
      const bytes = Buffer.alloc(size, 2);
      const body = Readable.from(
        (async function* () {
          yield bytes.subarray(0, size >> 1);
          await restReleased;
          yield bytes.subarray(size >> 1);
        })(),
      );
      const answer = r.c.call('PUT', `/api/svc/v0.8/images/${image.uuid}/upload`, {
        body,
        headers: { 'content-type': 'application/octet-stream', 'x-svc-destination-container': r.container },
      });
      if (await partWritten(r.dir, image.uuid, answer)) op.writingAt = ++r.clock;
      r.s.schedule(Promise.resolve(), `rest of the v0.8 upload of ${image.name}`).then(rest);
      return answer;
    },
    (op) => {
      op.size = size;
    },
  );
}

/** A v2.0 update naming the image `name`. */
function v2update(r, image, name) {
  fire(
    r,
    image,
    'v2update',
    () => r.c.call('PUT', `/api/svc/v2.0/images/${image.uuid}`, { body: { name } }),
    (op) => {
      op.name = name;
    },
  );
}

/** A create of each kind: `none` takes an upload; `good` fetches GOOD; `bad` fails its fetch. */
const create = fc.constantFrom('none', 'good', 'bad').map((kind) => ({
  check: (m) => m.images.length < 3,
  async run(m, r) {
    const name = `img-${m.images.length}`;
    const resources = {
      image_type: 'DISK_IMAGE',
      ...(kind === 'none' ? {} : { source_uri: `${source.url}/${kind}.img` }),
    };
    const { status, body } = await r.c.call('POST', `${V3}/images`, {
      body: { api_version: '3.1.0', metadata: { kind: 'image' }, spec: { name, resources } },
    });
    if (status !== 202) throw new Error(`create answered ${status}: ${JSON.stringify(body)}`);
    m.images.push({
      uuid: body.metadata.uuid,
      source: kind,
      name,
      ops: [],
      createTask: body.status.execution_context.task_uuid,
    });
  },
  toString: () => `create(${kind})`,
}));

/** The same image's v0.8 upload and v2.0 update in one stretch: the scheduler orders them. */
const stageAndUpdate = fc.tuple(fc.nat(2), fc.integer({ min: 2, max: 9000 })).map(([i, size]) => ({
  check: (m) => m.images.length > 0,
  run(m, r) {
    const image = m.images[i % m.images.length];
    stage(r, image, size);
    v2update(r, image, 'zeta');
  },
  toString: () => `v0.8 upload and v2.0 update(${i}, ${size} bytes)`,
}));

/** @type {fc.Arbitrary<fc.AsyncCommand<Model, Real>>[]} */
const commands = [
  // twice: images to work on early in a run
  create,
  create,
  fc.tuple(fc.nat(2), fc.constantFrom('alpha', 'beta', 'gamma')).map(([i, name]) => ({
    check: (m) => m.images.length > 0,
    run(m, r) {
      const image = m.images[i % m.images.length];
      fire(
        r,
        image,
        'update',
        async () => {
          const got = await r.c.call('GET', `${V3}/images/${image.uuid}`);
          if (got.status !== 200) return got;
          return r.c.call('PUT', `${V3}/images/${image.uuid}`, {
            body: {
              api_version: '3.1.0',
              metadata: { kind: 'image', spec_version: got.body.metadata.spec_version },
              spec: { ...got.body.spec, name },
            },
          });
        },
        (op, answer) => {
          op.name = name;
          op.specVersion = answer?.metadata?.spec_version;
        },
      );
    },
    toString: () => `update(${i}, ${name})`,
  })),
  fc.nat(2).map((i) => ({
    check: (m) => m.images.length > 0,
    run(m, r) {
      const image = m.images[i % m.images.length];
      fire(r, image, 'delete', () => r.c.call('DELETE', `${V3}/images/${image.uuid}`));
    },
    toString: () => `delete(${i})`,
  })),
  fc.nat(2).map((i) => ({
    check: (m) => m.images.length > 0,
    run(m, r) {
      const image = m.images[i % m.images.length];
      fire(r, image, 'v2delete', () => r.c.call('DELETE', `/api/svc/v2.0/images/${image.uuid}`));
    },
    toString: () => `v2.0 delete(${i})`,
  })),
  fc.tuple(fc.nat(2), fc.constantFrom('delta', 'epsilon')).map(([i, name]) => ({
    check: (m) => m.images.length > 0,
    run(m, r) {
      v2update(r, m.images[i % m.images.length], name);
    },
    toString: () => `v2.0 update(${i}, ${name})`,
  })),
  fc.tuple(fc.nat(2), fc.integer({ min: 2, max: 9000 })).map(([i, size]) => ({
    check: (m) => m.images.length > 0,
    run(m, r) {
      stage(r, m.images[i % m.images.length], size);
    },
    toString: () => `v0.8 upload(${i}, ${size} bytes)`,
  })),
  // twice: the same image's v0.8 upload and v2.0 update in one stretch, the scheduler ordering them
  stageAndUpdate,
  stageAndUpdate,
  fc.nat(2).map((i) => ({
    check: (m) => m.images.length > 0,
    run(m, r) {
      const image = m.images[i % m.images.length];
      fire(r, image, 'abort', () => r.c.call('POST', `${V3}/tasks/${image.createTask}/abort`));
    },
    toString: () => `abort of the create(${i})`,
  })),
  fc.tuple(fc.nat(2), fc.integer({ min: 1, max: 9000 })).map(([i, size]) => ({
    check: (m) => m.images.length > 0,
    run(m, r) {
      const image = m.images[i % m.images.length];
      fire(
        r,
        image,
        'upload',
        () =>
          r.c.call('PUT', `${V3}/images/${image.uuid}/file`, {
            body: Buffer.alloc(size, 1),
            headers: { 'content-type': 'application/octet-stream' },
          }),
        (op) => {
          op.size = size;
        },
      );
    },
    toString: () => `upload(${i}, ${size} bytes)`,
  })),
  // a batch: an update and a delete of one image, in that order, in one request
  fc.nat(2).map((i) => ({
    check: (m) => m.images.length > 0,
    run(m, r) {
      const image = m.images[i % m.images.length];
      const batch = r.s
        .schedule(Promise.resolve(), `batch ${image.name}`)
        .then(async () => {
          const got = await r.c.call('GET', `${V3}/images/${image.uuid}`);
          /** @type {Op} */
          const update = { type: 'update', issuedAt: ++r.clock, name: 'batched' };
          /** @type {Op} */
          const del = { type: 'delete', issuedAt: r.clock };
          image.ops.push(update, del);
          if (r.unanswered++ > 0) overlapping++;
          const spec_version = got.body?.metadata?.spec_version ?? 0;
          const answer = await r.c.call('POST', `${V3}/batch`, {
            body: {
              action_on_failure: 'CONTINUE',
              execution_order: 'SEQUENTIAL',
              api_request_list: [
                {
                  operation: 'PUT',
                  path_and_params: `/api/nutanix/v3/images/${image.uuid}`,
                  body: {
                    api_version: '3.1.0',
                    metadata: { kind: 'image', spec_version },
                    spec: { ...(got.status === 200 ? got.body.spec : { resources: {} }), name: 'batched' },
                  },
                },
                { operation: 'DELETE', path_and_params: `/api/nutanix/v3/images/${image.uuid}` },
              ],
            },
          });
          r.unanswered--;
          const list = answer.body.api_response_list ?? [];
          for (const [op, sub] of [
            [update, list[0]],
            [del, list[1]],
          ]) {
            op.answeredAt = ++r.clock;
            op.status = Number(sub?.status ?? answer.status);
            if (op === update) op.specVersion = sub?.api_response?.metadata?.spec_version;
            check(r, image, op, sub?.api_response);
          }
        })
        .catch((error) => r.problems.push(`batch ${image.name}: ${error.message}`))
        .finally(() => r.inflight.delete(batch));
      r.inflight.add(batch);
    },
    toString: () => `batch(update, delete)(${i})`,
  })),
  fc.constant({
    check: () => true,
    run: (_m, r) => settleRequests(r),
    toString: () => 'answers',
  }),
  fc.constant({
    check: () => true,
    async run(_m, r) {
      await settleRequests(r);
      await r.c.close();
      await r.sim.close();
      r.sim = await start(r.dir);
      r.c = client(r.sim.url);
    },
    toString: () => 'restart',
  }),
  fc.constant({
    check: () => true,
    run: (m, r) => settle(m, r),
    toString: () => 'settle',
  }),
];

const start = (dir) =>
  startSimulator({ port: 0, dataDir: dir, password: PASSWORD, taskSeconds: TASK_SECONDS, http: true });

/** Releases the stretch's requests in the scheduler's order and waits for their answers (not for their tasks). */
async function settleRequests(r) {
  await r.s.waitAll();
  // a request may schedule more of itself (the rest of an upload's body): released as it comes
  while (r.inflight.size) await r.s.waitFor(Promise.all([...r.inflight]));
  if (r.problems.length) throw new Error(r.problems.join('\n'));
}

/** Every request answered and every task ended: each image is exactly where its acknowledged operations put it. */
async function settle(m, r) {
  await settleRequests(r);
  // every task ended: one listing of them all (two listings, RUNNING then QUEUED, miss a task
  // that starts in between)
  for (let i = 0; ; i++) {
    const all = await r.c.call('POST', `${V3}/tasks/list`, { body: { kind: 'task', length: 500 } });
    const running = all.body.entities.find((t) => t.status === 'QUEUED' || t.status === 'RUNNING');
    if (!running) break;
    if (i >= 400) throw new Error(`task ${running.uuid} still ${running.status} after 400 waits`);
    await r.c.task(running.uuid);
  }
  const problems = [];
  const withBytes = new Set();
  for (const image of m.images) {
    const got = await r.c.call('GET', `${V3}/images/${image.uuid}`);
    const accepted = image.ops.filter((op) => isDelete(op) && succeeded(op));
    for (const gone of image.ops.filter((op) => op.status === 404))
      if (!accepted.some((d) => d.issuedAt < /** @type {number} */ (gone.answeredAt)))
        problems.push(`${image.name}: ${gone.type} answered 404, no delete of it was accepted before`);
    if (accepted.length) {
      if (got.status !== 404) problems.push(`${image.name}: its delete was accepted, it answers ${got.status}`);
      continue;
    }
    if (got.status !== 200) {
      problems.push(`${image.name}: no delete was accepted, it answers ${got.status}`);
      continue;
    }
    const { state, resources } = got.body.status;
    const created = (await r.c.call('GET', `${V3}/tasks/${image.createTask}`)).body.status;
    // an acknowledged abort ends its task ABORTED, whatever its work did; its image is then in ERROR
    const aborted = image.ops.some((op) => op.type === 'abort' && succeeded(op));
    const expected = aborted
      ? ['ERROR', 'ABORTED']
      : image.source === 'bad'
        ? ['ERROR', 'FAILED']
        : ['COMPLETE', 'SUCCEEDED'];
    if (state !== expected[0] || created !== expected[1])
      problems.push(
        `${image.name} (${image.source} source): ${state} with its create task ${created}, not ${expected.join(' with ')}`,
      );
    // an acknowledged upload (v3, or v0.8's two-phase) is never dropped
    const upload = image.ops.find((op) => isWriter(op) && succeeded(op));
    const size = image.source === 'good' && !aborted ? GOOD.length : upload?.size;
    if (resources.size_bytes !== size) problems.push(`${image.name}: size_bytes ${resources.size_bytes}, not ${size}`);
    if (size !== undefined) withBytes.add(image.uuid);
    // accepted updates never overlap (an update waits for the one before): their answers come in their order
    const updates = image.ops.filter((op) => isUpdate(op) && succeeded(op));
    const last = updates.reduce((a, b) => ((b.answeredAt ?? 0) > (a?.answeredAt ?? -1) ? b : a), undefined);
    if (got.body.metadata.spec_version !== updates.length)
      problems.push(
        `${image.name}: spec_version ${got.body.metadata.spec_version} after ${updates.length} accepted updates`,
      );
    if (got.body.spec.name !== (last?.name ?? image.name))
      problems.push(`${image.name}: named "${got.body.spec.name}", its last accepted update named it "${last?.name}"`);
  }
  const files = readdirSync(join(r.dir, 'images'));
  for (const name of files) if (!withBytes.has(name)) problems.push(`a file no image with bytes holds: ${name}`);
  if (problems.length) throw new Error(`${problems.join('\n')}\n${await history(m, r)}`);
}

/** What each image was asked and answered, and its tasks: the story a failure is read from. */
async function history(m, r) {
  const lines = [];
  for (const image of m.images) {
    lines.push(`${image.name} ${image.uuid} (${image.source} source):`);
    for (const op of image.ops)
      lines.push(
        `  ${op.type}${op.name ? ` "${op.name}"` : ''} sent at ${op.issuedAt}, answered ${op.status} at ${op.answeredAt}`,
      );
    const tasks = await r.c.call('POST', `${V3}/tasks/list`, {
      body: {
        kind: 'task',
        filter: `entity_uuid==${image.uuid}`,
        length: 100,
        sort_attribute: 'creation_time',
        sort_order: 'ASCENDING',
      },
    });
    for (const t of tasks.body.entities ?? [])
      lines.push(
        `  task ${t.operation_type} ${t.status}${t.error_detail ? `: ${t.error_detail}` : ''} (${t.progress_message})`,
      );
  }
  return lines.join('\n');
}

describe('random interleavings against the transition table', () => {
  it(`every answer and every settled state is one the model allows (${RUNS} runs, seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.commands(commands, { maxCommands: 30, size: 'medium' }), async (s, cmds) => {
        runs++;
        const dir = mkdtempSync(join(root, 'run-'));
        const sim = await start(dir);
        const c = client(sim.url);
        const container = (await c.call('GET', '/api/svc/v2.0/storage_containers')).body.entities[0]
          .storage_container_uuid;
        /** @type {Real} */
        const real = { sim, c, dir, s, clock: 0, inflight: new Set(), unanswered: 0, problems: [], container };
        /** @type {Model} */
        const model = { images: [] };
        try {
          await fc.asyncModelRun(() => ({ model, real }), cmds);
          // every run ends settled, whatever its last command
          await settle(model, real);
        } finally {
          await s.waitAll();
          while (real.inflight.size) await Promise.allSettled([...real.inflight]);
          await real.c.close();
          await real.sim.close();
          rmSync(dir, { recursive: true, force: true });
        }
        if (real.problems.length) throw new Error(real.problems.join('\n'));
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });
});
