// A data dir written by the simulator before the transition tables (issue 42): its documents are
// upgraded at the first start, nothing it holds is lost, and what that version left stuck (a
// state whose task was never written: an image PENDING or DELETE_PENDING, an object store
// PENDING) gets its task again and ends.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openState } from '../src/domain/index.js';
import { startTestSimulator, waitTask } from './support/sim.js';

const V3 = '/api/svc/v3';
const T0 = Date.UTC(2026, 10, 1) * 1000;
const uuid = (n) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const image = (n, fields) => ({
  uuid: uuid(n),
  name: `old-${n}`,
  imageType: 'DISK_IMAGE',
  categories: {},
  sizeBytes: null,
  createdUs: T0,
  updatedUs: T0,
  specVersion: 0,
  ...fields,
});

let t;
let dataDir;
let cluster;
let subnet;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'svc-sim-upgrade-'));
  // the topology of a first start, as that version seeded it
  const first = await startTestSimulator({ dataDir, keepDir: true });
  cluster = (await first.call('POST', `${V3}/clusters/list`, { body: { kind: 'cluster', filter: 'name==cluster-01' } }))
    .body.entities[0].metadata.uuid;
  subnet = (await first.call('POST', `${V3}/subnets/list`, { body: { kind: 'subnet' } })).body.entities[0].metadata
    .uuid;
  await first.close();
  const store = openState(dataDir);
  const spec = (name) => ({
    name,
    resources: {
      domain: 'objects.example.com',
      cluster_reference: { kind: 'cluster', uuid: cluster },
      buckets_infra_network_reference: { kind: 'subnet', uuid: subnet },
      buckets_infra_network_dns: '10.10.110.10',
      buckets_infra_network_vip: '10.10.110.11',
      client_access_network_reference: { kind: 'subnet', uuid: subnet },
      client_access_network_ip_list: ['10.10.120.21'],
    },
  });
  store.batch(() => {
    // the older shape: no schema in the meta document, states as v3 shows them, stores as v3 specs
    store.put('meta', 'simulator', { seed: 1 });
    store.put('image', uuid(1), image(1, { state: 'COMPLETE', sizeBytes: null, writer: 'fetch' }));
    store.put('image', uuid(2), image(2, { state: 'PENDING' })); // its create task never written
    store.put('image', uuid(3), image(3, { state: 'DELETE_PENDING' })); // its delete task never written
    store.put('image', uuid(4), image(4, { state: 'COMPLETE', uploading: true }));
    store.put('objectstore', uuid(5), {
      uuid: uuid(5),
      spec: spec('stuck'),
      state: 'PENDING',
      createdUs: T0,
      updatedUs: T0,
      buckets: [],
    });
    store.put('objectstore', uuid(6), {
      uuid: uuid(6),
      spec: spec('kept'),
      state: 'COMPLETE',
      createdUs: T0,
      updatedUs: T0,
      buckets: [{ name: 'default-bucket', objects: 0, usageBytes: 0 }],
    });
  });
  store.close();
  t = await startTestSimulator({ dataDir });
});
afterAll(() => t?.close());

it('upgrades an older data dir: stuck entities get their task again and end, the rest is kept', async () => {
  const taskOf = async (n) => {
    const list = await t.call('POST', `${V3}/tasks/list`, {
      body: { kind: 'task', filter: `entity_uuid==${uuid(n)}` },
    });
    return list.body.entities[0];
  };
  // PENDING with no task: created again, ends COMPLETE
  expect((await waitTask(t.call, (await taskOf(2)).uuid)).status).toBe('SUCCEEDED');
  expect((await t.call('GET', `${V3}/images/${uuid(2)}`)).body.status.state).toBe('COMPLETE');
  // DELETE_PENDING with no task: deleted
  expect((await waitTask(t.call, (await taskOf(3)).uuid)).status).toBe('SUCCEEDED');
  expect((await t.call('GET', `${V3}/images/${uuid(3)}`)).status).toBe(404);
  // the writer slots of that version (a fetch's, the legacy upload flag): free, an upload is taken
  for (const n of [1, 4]) {
    const put = await t.call('PUT', `${V3}/images/${uuid(n)}/file`, {
      body: Buffer.from('bytes'),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(put.status, `image ${n}`).toBe(200);
  }
  // an object store PENDING with no task: deployed; one kept as it was, its spec as sent
  expect((await waitTask(t.call, (await taskOf(5)).uuid)).status).toBe('SUCCEEDED');
  expect((await t.call('GET', `/oss/api/svc/v3/objectstores/${uuid(5)}`)).body.status.state).toBe('COMPLETE');
  const kept = (await t.call('GET', `/oss/api/svc/v3/objectstores/${uuid(6)}`)).body;
  expect(kept.status.state).toBe('COMPLETE');
  expect(kept.spec).toMatchObject({
    name: 'kept',
    resources: {
      domain: 'objects.example.com',
      cluster_reference: { kind: 'cluster', uuid: cluster },
      client_access_network_ip_list: ['10.10.120.21'],
    },
  });
  expect(t.violations).toEqual([]);
  rmSync(dataDir, { recursive: true, force: true });
});
