// Issue 44: what the public clients read and the simulator did not answer. Each test does what the
// client does (docs/service.md names it): a reporting script and a migration tool reading the
// clusters' build, the vendor's Ansible test asserting an image's placement after a create, and the
// vendor's cloud provider interface waiting on the v0.8 upload's `task_uuid`.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkTopology, DEFAULT_BUILDS } from '../src/domain/topology.js';
import { seededTopology, startTestSimulator, waitTask } from './support/sim.js';

const V3 = '/api/svc/v3';
const COMMIT = 'a4c9e27f03b15d68c2e4f1a9b7d3e0c5f8a2b6d1';

let t;
beforeAll(async () => {
  t = await startTestSimulator();
});
afterAll(() => t?.close());
afterEach(() => expect(t.violations).toEqual([]));

describe('cluster build', () => {
  it('answers full_version, commit_id and short_commit_id; version pc on the central endpoint', async () => {
    const { body } = await t.call('POST', `${V3}/clusters/list`, { body: { kind: 'cluster' } });
    for (const cluster of body.entities) {
      const build = cluster.status.resources.config.build;
      expect(build.commit_id).toMatch(/^[0-9a-f]{40}$/);
      expect(build.commit_id.startsWith(build.short_commit_id)).toBe(true);
      expect(build.full_version).toContain(build.commit_id);
    }
    const central = body.entities.filter((c) => c.status.resources.config.service_list.includes('PRISM_CENTRAL'));
    const registered = body.entities.filter((c) => !central.includes(c));
    expect(central).toHaveLength(1);
    // a migration tool tells the central endpoint apart with `'pc' not in ...build.full_version`
    expect(central[0].status.resources.config.build).toMatchObject({ version: 'pc' });
    expect(central[0].status.resources.config.build.full_version).toContain('pc');
    for (const cluster of registered) {
      const { build } = cluster.status.resources.config;
      expect(build.full_version).not.toContain('pc');
      expect(build.full_version).toContain(build.version);
      expect(cluster.status.resources.config.software_map.NOS.version).toBe(build.version);
    }
  });

  it('answers the build a --topology file gives, its commit read from full_version', async () => {
    const sim = await startTestSimulator({
      topology: {
        clusters: [
          {
            name: 'aos-610',
            build: { version: '6.10.1', full_version: `el8.5-release-ganges-6.10.1-stable-${COMMIT}` },
            name_servers: ['10.0.0.2'],
          },
          { name: 'pc', central: true, fqdn: 'pc.example.com' },
        ],
      },
    });
    try {
      const { body } = await sim.call('POST', `${V3}/clusters/list`, {
        body: { kind: 'cluster', filter: 'name==aos-610' },
      });
      const [cluster] = body.entities;
      expect(cluster.status.resources.config.build).toEqual({
        build_type: 'release',
        version: '6.10.1',
        full_version: `el8.5-release-ganges-6.10.1-stable-${COMMIT}`,
        commit_id: COMMIT,
        short_commit_id: COMMIT.slice(0, 6),
        is_long_term_support: false,
      });
      expect(cluster.status.resources.config.software_map.NOS.version).toBe('6.10.1');
      expect(cluster.status.resources.network.name_server_ip_list).toEqual(['10.0.0.2']);
      const central = (await sim.call('POST', `${V3}/clusters/list`, { body: { kind: 'cluster', filter: 'name==pc' } }))
        .body.entities[0];
      // not given: the central endpoint's default build, a recorded one (docs/service.md)
      expect(central.status.resources.config.build).toEqual(DEFAULT_BUILDS.central);
      expect(central.status.resources.network.fully_qualified_domain_name).toBe('pc.example.com');
      expect(sim.violations).toEqual([]);
    } finally {
      await sim.close();
    }
  });

  // given a cluster's build (and the central endpoint's), the error names the field and the rule
  const full = `el8.5-release-ganges-6.10.1-stable-${COMMIT}`;
  it.each([
    [{ version: '6.10.1' }, /^clusters\[0\]\.build\.full_version must be a non-empty string/],
    [{ full_version: full }, /^clusters\[0\]\.build\.version must be a non-empty string/],
    [{ version: '6.10.1', full_version: 'el8.5-release-6.10.1' }, /^clusters\[0\]\.build\.commit_id is required when/],
    [{ version: '6.10.1', full_version: full, commit_id: 'abc' }, /^clusters\[0\]\.build\.commit_id must be 40/],
    [
      { version: '6.10.1', full_version: full, short_commit_id: 'ffffff' },
      /^clusters\[0\]\.build\.short_commit_id must be the first/,
    ],
    [
      { version: '6.10.1', full_version: full, commit_date: 'yesterday' },
      /^clusters\[0\]\.build\.commit_date must be an ISO 8601/,
    ],
    [
      { version: '6.10.1', full_version: full, is_long_term_support: 'yes' },
      /^clusters\[0\]\.build\.is_long_term_support must be true or false/,
    ],
    [
      { version: '6.10.1', full_version: full, fullVersion: full },
      /^clusters\[0\]\.build\.fullVersion is not a build field/,
    ],
    ['6.10.1', /^clusters\[0\]\.build must be an object/],
  ])('refuses the build %j', (build, message) => {
    expect(() => checkTopology({ clusters: [{ name: 'c1', build }] })).toThrow(message);
  });

  it('refuses a central build whose version is not pc, and bad network fields', () => {
    const central = { name: 'pc', central: true, build: { version: '2024.3', full_version: `pc-2024.3-${COMMIT}` } };
    expect(() => checkTopology({ clusters: [{ name: 'c1' }, central] })).toThrow(
      /^clusters\[1\]\.build\.version must be "pc" on the central endpoint/,
    );
    const bad = (cluster) => () => checkTopology({ clusters: [{ name: 'c1', ...cluster }] });
    expect(bad({ data_services_ip: '10.0.0' })).toThrow(/^clusters\[0\]\.data_services_ip must be an IPv4 address/);
    expect(bad({ name_servers: [] })).toThrow(/^clusters\[0\]\.name_servers must be a non-empty list of IPv4/);
    expect(bad({ ntp_servers: ['pool ntp'] })).toThrow(/^clusters\[0\]\.ntp_servers must be a non-empty list/);
    expect(bad({ fqdn: 'pc..example' })).toThrow(/^clusters\[0\]\.fqdn must be a host name/);
    expect(bad({ hypervisor_version: '' })).toThrow(/^clusters\[0\]\.hypervisor_version must be a non-empty string/);
  });
});

describe('subnets as the blueprint tool reads them', () => {
  it('answers the VPC of an OVERLAY subnet and the cluster of a VLAN one', async () => {
    const sim = await startTestSimulator({
      topology: {
        clusters: [{ name: 'c1' }, { name: 'pc', central: true }],
        subnets: [
          { name: 'vlan-0', vlan_id: 0 },
          { name: 'overlay-a', subnet_type: 'OVERLAY', vpc: 'tenant-a' },
          { name: 'overlay-b', subnet_type: 'OVERLAY', vpc: 'tenant-a' },
        ],
      },
    });
    try {
      const { body } = await sim.call('POST', `${V3}/subnets/list`, { body: { kind: 'subnet' } });
      // calm-dsl: VLAN -> status.cluster_reference.name; else status.resources.vpc_reference.uuid, unguarded
      const read = body.entities.map((row) =>
        row.status.resources.subnet_type === 'VLAN'
          ? row.status.cluster_reference.name
          : row.status.resources.vpc_reference.uuid,
      );
      expect(read[0]).toBe('c1');
      expect(read[1]).toMatch(/^[0-9a-f-]{36}$/);
      expect(read[2]).toBe(read[1]); // one VPC
      expect(body.entities[1].status.resources.vpc_reference.name).toBe('tenant-a');
      expect(sim.violations).toEqual([]);
    } finally {
      await sim.close();
    }
    expect(() => checkTopology({ clusters: [{ name: 'c1' }], subnets: [{ name: 'vlan', vpc: 'tenant-a' }] })).toThrow(
      /^subnets\[0\]\.vpc must be a non-empty string, on a subnet with subnet_type OVERLAY/,
    );
  });
});

describe('v2.0 list metadata', () => {
  it('counts the storage container page from 1 and echoes an empty filter and sort, as a real answer does', async () => {
    const { body } = await t.call('GET', '/api/svc/v2.0/storage_containers');
    expect(body.metadata).toMatchObject({
      count: 3,
      page: 1,
      start_index: 1,
      end_index: 3,
      filter_criteria: '',
      sort_criteria: '',
    });
    const second = await t.call('GET', '/api/svc/v2.0/storage_containers?count=2&page=2');
    expect(second.body.metadata).toMatchObject({ count: 1, page: 2, start_index: 3, end_index: 3 });
    // the image list answers its counts only
    expect(Object.keys((await t.call('GET', '/api/svc/v2.0/images')).body.metadata).sort()).toEqual([
      'grand_total_entities',
      'total_entities',
    ]);
  });
});

describe('image placement', () => {
  it('answers spec.resources.initial_placement_ref_list in status.resources too, as the vendor test asserts', async () => {
    const { cluster } = await seededTopology(t.call);
    const created = await t.call('POST', `${V3}/images`, {
      body: {
        api_version: '3.1.0',
        metadata: { kind: 'image' },
        spec: {
          name: 'integration-test-image-with-upload',
          resources: { image_type: 'DISK_IMAGE', initial_placement_ref_list: [{ kind: 'cluster', uuid: cluster }] },
        },
      },
    });
    expect(created.status).toBe(202);
    expect(created.body.spec.resources.initial_placement_ref_list).toEqual([{ kind: 'cluster', uuid: cluster }]);
    await waitTask(t.call, created.body.status.execution_context.task_uuid);
    const image = (await t.call('GET', `${V3}/images/${created.body.metadata.uuid}`)).body;
    // the Ansible collection's test: status.resources.initial_placement_ref_list[0]['uuid'] == cluster.uuid
    expect(image.status.resources.initial_placement_ref_list[0].uuid).toBe(cluster);
    // the Terraform provider reads it as cluster_references (kind, uuid and the name when there is one)
    expect(image.status.resources.initial_placement_ref_list).toEqual([
      { kind: 'cluster', uuid: cluster, name: 'cluster-01' },
    ]);
    expect(image.spec.resources.initial_placement_ref_list).toEqual([{ kind: 'cluster', uuid: cluster }]);
    expect(image.status.resources.current_cluster_reference_list.map((r) => r.uuid)).toEqual([cluster]);
  });

  it('refuses a placement on no cluster or on the central endpoint, naming the reference', async () => {
    const clusters = (await t.call('POST', `${V3}/clusters/list`, { body: { kind: 'cluster' } })).body.entities;
    const central = clusters.find((c) => c.status.resources.config.service_list.includes('PRISM_CENTRAL'));
    for (const uuid of ['0e09cf83-ac68-4f28-af70-6df9a43df4f0', central.metadata.uuid]) {
      const res = await t.call('POST', `${V3}/images`, {
        body: {
          api_version: '3.1.0',
          metadata: { kind: 'image' },
          spec: {
            name: 'misplaced',
            resources: { image_type: 'DISK_IMAGE', initial_placement_ref_list: [{ kind: 'cluster', uuid }] },
          },
        },
      });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.message_list[0].details)).toEqual(['spec.resources.initial_placement_ref_list[0]']);
    }
  });
});

describe("the v0.8 upload's answer", () => {
  it('carries task_uuid, which the cloud provider interface waits on with v2.0 tasks/poll', async () => {
    // the provider's create_image_with_local: a v2.0 image record, its container's numeric id, the upload
    const created = await t.call('POST', '/api/svc/v2.0/images', {
      body: { name: 'stemcell', image_type: 'DISK_IMAGE', annotation: 'stemcell' },
    });
    const poll = (uuid) =>
      t.call('POST', '/api/svc/v2.0/tasks/poll', { body: { completed_tasks: [uuid], timeout_interval: 60 } });
    const imageUuid = (await poll(created.body.task_uuid)).body.completed_tasks_info[0].entity_list[0].entity_id;
    const containers = (await t.call('GET', '/api/svc/v2.0/storage_containers')).body.entities;
    const container = (await t.call('GET', `/api/svc/v2.0/storage_containers/${containers[0].storage_container_uuid}`))
      .body;
    const uploaded = await t.call('PUT', `/api/svc/v0.8/images/${imageUuid}/upload`, {
      body: new Uint8Array(64 * 1024).fill(1),
      headers: { 'content-type': 'application/json', 'x-svc-destination-container': container.id.split('::').pop() },
    });
    expect(uploaded.status).toBe(200);
    // task['task_uuid'], and taskUuid as the other v0.8 calls answer: the same task
    expect(uploaded.body.task_uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(uploaded.body.taskUuid).toBe(uploaded.body.task_uuid);
    const done = await poll(uploaded.body.task_uuid);
    expect(done.status).toBe(200);
    expect(done.body.completed_tasks_info[0].progress_status).toBe('Succeeded');
    expect((await t.call('GET', `/api/svc/v2.0/images/${imageUuid}`)).body.image_state).toBe('ACTIVE');
  });
});
