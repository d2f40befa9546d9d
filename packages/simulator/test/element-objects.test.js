import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seededTopology, startTestSimulator } from './support/sim.js';

const MISSING = '0e09cf83-ac68-4f28-af70-6df9a43df4f0';
let t;
beforeAll(async () => {
  t = await startTestSimulator();
});
afterAll(() => t?.close());
afterEach(() => {
  expect(t.violations).toEqual([]);
});

/** Polls a v0.8 task until it is done (bounded). */
async function waitV0_8(uuid) {
  for (let i = 0; i < 200; i++) {
    const { body } = await t.call('GET', `/api/svc/v0.8/tasks/${uuid}`);
    if (['Succeeded', 'Failed', 'Aborted'].includes(body.progressStatus)) return body;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`task ${uuid} did not end`);
}

describe('element v0.8 and v2.0', () => {
  it('runs the two-phase upload: INACTIVE record, PUT into a container, ACTIVE with its size; v3 lists it', async () => {
    const containers = await t.call('GET', '/api/svc/v2.0/storage_containers');
    const iso = containers.body.entities.find((c) => c.name === 'ISO');
    const usageBefore = Number(iso.usage_stats['storage.usage_bytes']);
    const created = await t.call('POST', '/api/svc/v0.8/images', {
      body: { name: 'two-phase', imageType: 'ISO_IMAGE', annotation: 'phase one' },
    });
    expect(created.status).toBe(200);
    const task = await waitV0_8(created.body.taskUuid);
    const uuid = task.entityList[0].uuid;
    const record = await t.call('GET', `/api/svc/v0.8/images/${uuid}`);
    expect(record.body.imageState).toBe('INACTIVE');

    const data = randomBytes(300_000);
    const unknownContainer = await t.call('PUT', `/api/svc/v0.8/images/${uuid}/upload`, {
      body: data,
      headers: { 'content-type': 'application/octet-stream', 'x-svc-destination-container': MISSING },
    });
    expect(unknownContainer.status).toBe(404);
    expect(unknownContainer.body.message).toMatch(/X-Svc-Destination-Container/);
    const noHeader = await t.call('PUT', `/api/svc/v0.8/images/${uuid}/upload`, {
      body: data,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(noHeader.status).toBe(400);
    expect(noHeader.body.message).toMatch(/x-svc-destination-container/);

    // the legacy base answers the same
    const upload = await t.call('PUT', `/PrismGateway/services/rest/v0.8/images/${uuid}/upload`, {
      body: data,
      headers: {
        'content-type': 'application/octet-stream;charset=UTF-8',
        'x-svc-destination-container': iso.storage_container_uuid,
      },
    });
    expect(upload.status).toBe(200);
    expect((await waitV0_8(upload.body.taskUuid)).progressStatus).toBe('Succeeded');
    const active = await t.call('GET', `/api/svc/v0.8/images/${uuid}`);
    expect(active.body).toMatchObject({ imageState: 'ACTIVE', containerUuid: iso.storage_container_uuid });
    const again = await t.call('PUT', `/api/svc/v0.8/images/${uuid}/upload`, {
      body: data,
      headers: {
        'content-type': 'application/octet-stream',
        'x-svc-destination-container': iso.storage_container_uuid,
      },
    });
    expect(again.status).toBe(400);
    expect(again.body.message).toMatch(/not in state INACTIVE/);

    const v3 = await t.call('POST', '/api/svc/v3/images/list', { body: { kind: 'image', filter: 'name==two-phase' } });
    expect(v3.body.entities[0].status.resources.size_bytes).toBe(data.length);
    const v2 = await t.call('GET', `/api/svc/v2.0/storage_containers/${iso.storage_container_uuid}`);
    expect(Number(v2.body.usage_stats['storage.usage_bytes'])).toBe(usageBefore + data.length);
    const listed = await t.call('GET', `/api/svc/v2.0/images`);
    expect(listed.body.entities.find((i) => i.uuid === uuid)).toMatchObject({
      image_state: 'ACTIVE',
      vm_disk_size: data.length,
      storage_container_name: 'ISO',
    });
  });

  it('filters v0.8 images, deletes through v2.0 and answers 404 after', async () => {
    const created = await t.call('POST', '/api/svc/v2.0/images', {
      body: { name: 'v2-image', image_type: 'DISK_IMAGE' },
    });
    expect(created.status).toBe(201);
    const task = await t.call('GET', `/api/svc/v2.0/tasks/${created.body.task_uuid}`);
    const uuid = task.body.entity_list[0].entity_id;
    const filtered = await t.call('GET', '/api/svc/v0.8/images?filterCriteria=name%3D%3Dv2-image');
    expect(filtered.body.entities.map((i) => i.uuid)).toEqual([uuid]);
    const deleted = await t.call('DELETE', `/api/svc/v2.0/images/${uuid}`);
    const polled = await t.call('POST', '/api/svc/v2.0/tasks/poll', {
      body: { completed_tasks: [deleted.body.task_uuid], timeout_interval: 10 },
    });
    expect(polled.body.completed_tasks_info[0].progress_status).toBe('Succeeded');
    expect((await t.call('GET', `/api/svc/v0.8/images/${uuid}`)).status).toBe(404);
    expect((await t.call('GET', `/api/svc/v2.0/tasks/${MISSING}`)).status).toBe(404);
  });
});

describe('object stores', () => {
  it('creates a store from the seeded cluster and subnets, follows it to COMPLETE, lists, regenerates, deletes', async () => {
    const { cluster, subnets } = await seededTopology(t.call);
    const body = {
      api_version: '3.0',
      metadata: { kind: 'objectstore' },
      spec: {
        name: 'objects-01',
        description: '',
        resources: {
          domain: 'objects.example.com',
          num_worker_nodes: 3,
          cluster_reference: { kind: 'cluster', uuid: cluster },
          buckets_infra_network_dns: '10.10.110.10',
          buckets_infra_network_vip: '10.10.110.11',
          buckets_infra_network_reference: { kind: 'subnet', uuid: subnets[0] },
          client_access_network_reference: { kind: 'subnet', uuid: subnets[1] },
          client_access_network_ip_list: ['10.10.120.21', '10.10.120.22'],
          aggregate_resources: { total_vcpu_count: 30, total_memory_size_mib: 98304, total_capacity_gib: 1024 },
        },
      },
    };
    const badCluster = structuredClone(body);
    badCluster.spec.resources.cluster_reference.uuid = MISSING;
    const refused = await t.call('POST', '/oss/api/svc/v3/objectstores', { body: badCluster });
    expect(refused.status).toBe(422);
    expect(refused.body.message_list[0].details).toHaveProperty(['spec.resources.cluster_reference.uuid']);

    const created = await t.call('POST', '/oss/api/svc/v3/objectstores', { body });
    expect(created.status).toBe(202);
    expect(created.body.status.state).toBe('PENDING');
    const uuid = created.body.metadata.uuid;
    expect((await t.call('POST', '/oss/api/svc/v3/objectstores', { body })).status).toBe(409);
    let state;
    for (let i = 0; i < 2000 && state !== 'COMPLETE'; i++) {
      const got = await t.call('GET', `/oss/api/svc/v3/objectstores/${uuid}`);
      state = got.body.status.state;
      if (state === 'COMPLETE') expect(got.body.status.percent_complete).toBe(100);
      else await new Promise((r) => setTimeout(r, 25));
    }
    expect(state).toBe('COMPLETE');

    const groups = await t.call('POST', '/oss/api/svc/v3/groups', {
      body: {
        entity_type: 'objectstore',
        group_member_attributes: [
          { attribute: 'name' },
          { attribute: 'state' },
          { attribute: 'num_buckets' },
          { attribute: 'cluster_name' },
        ],
      },
    });
    const entity = groups.body.group_results[0].entity_results.find((e) => e.entity_id === uuid);
    const value = (name) => entity.data.find((d) => d.name === name).values[0].values[0];
    expect([value('name'), value('state'), value('cluster_name')]).toEqual(['objects-01', 'COMPLETE', 'cluster-01']);
    const unknown = await t.call('POST', '/oss/api/svc/v3/groups', {
      body: { entity_type: 'objectstore', group_member_attributes: [{ attribute: 'colour' }] },
    });
    // production answers an attribute it does not know without values (issue 19), not 400
    expect(unknown.status).toBe(200);
    const unknownData = unknown.body.group_results[0].entity_results.find((e) => e.entity_id === uuid).data;
    expect(unknownData).toEqual([{ name: 'colour', values: [] }]);

    const buckets = await t.call('POST', `/oss/api/svc/v3/objectstores/${uuid}/groups`, {
      body: { entity_type: 'bucket', group_member_attributes: [{ attribute: 'name' }, { attribute: 'object_count' }] },
    });
    expect(buckets.body.group_results[0].entity_results.map((e) => e.data.map((d) => d.values[0].values[0]))).toEqual([
      ['default-bucket', '0'],
    ]);

    expect((await t.call('POST', `/oss/api/svc/v3/objectstores/${uuid}/regenerate_self_signed_cert`)).status).toBe(202);
    const replacing = await t.call('GET', `/oss/api/svc/v3/objectstores/${uuid}`);
    expect(['REPLACING_CERT', 'COMPLETE']).toContain(replacing.body.status.state);
    for (let i = 0; i < 200; i++) {
      if ((await t.call('GET', `/oss/api/svc/v3/objectstores/${uuid}`)).body.status.state === 'COMPLETE') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect((await t.call('DELETE', `/oss/api/svc/v3/objectstores/${uuid}`)).status).toBe(202);
    let gone = false;
    for (let i = 0; i < 2000 && !gone; i++) {
      gone = (await t.call('GET', `/oss/api/svc/v3/objectstores/${uuid}`)).status === 404;
      if (!gone) await new Promise((r) => setTimeout(r, 25));
    }
    expect(gone).toBe(true);
    const notFound = await t.call('GET', `/oss/api/svc/v3/objectstores/${uuid}`);
    expect(notFound.body).toMatchObject({ api_version: '3.0', code: 404, kind: 'objectstore', state: 'ERROR' });
  });
});
