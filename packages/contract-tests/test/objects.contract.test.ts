// Every operation of the object store API, through the generated client, against the Prism mock.
import { describe, expect, it } from 'vitest';
import { createObjectsClient } from '@svc/client';
import { contract, coverageTest, errorStatusSuite } from './contract.js';

const STORE = '4f1c8a2e-7b3d-4e96-a5c1-0d8e2f6b9a37';
const CLUSTER = '0005ce15-3f3c-a8ce-3802-043f72bf18a6';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const c = contract('objects', (baseUrl) => createObjectsClient({ baseUrl, username: 'admin', password: 'contract-secret' }));
const client = () => c.client();

describe('objects: success responses', () => {
  it('objectstores_create: POST /objectstores answers 202 with the new object store', async () => {
    const op = c.cover('post', '/objectstores');
    const { data, response } = await client().POST('/objectstores', {
      body: {
        api_version: '3.0',
        metadata: { kind: 'objectstore' },
        spec: {
          name: 'objects-prod-01',
          resources: {
            domain: 'objects.example.com',
            num_worker_nodes: 3,
            cluster_reference: { kind: 'cluster', uuid: CLUSTER },
            buckets_infra_network_reference: { kind: 'subnet', uuid: 'a3f7c2e1-5b8d-4c6a-9e2f-1d0b7a4c8e53' },
            buckets_infra_network_dns: '10.10.1.50',
            buckets_infra_network_vip: '10.10.1.51',
            client_access_network_reference: { kind: 'subnet', uuid: 'd41e9b07-3c6a-4f2d-8b15-7e9a0c2d4f68' },
            client_access_network_ip_list: ['10.20.1.60', '10.20.1.61'],
          },
        },
      },
    });
    expect(response.status).toBe(202);
    expect(data?.metadata.uuid).toMatch(UUID);
    expect(data?.spec.name).toBe('objects-prod-01');
    c.expectConforms(op, 202, data);
  });

  it('objectstores_get: GET /objectstores/{uuid} answers status.state and percent_complete', async () => {
    const op = c.cover('get', '/objectstores/{uuid}');
    const { data, response } = await client().GET('/objectstores/{uuid}', { params: { path: { uuid: STORE } } });
    expect(response.status).toBe(200);
    expect(typeof data?.status.state).toBe('string');
    expect(data?.status.percent_complete).toBeGreaterThanOrEqual(0);
    c.expectConforms(op, 200, data);
  });

  it('objectstores_delete: DELETE /objectstores/{uuid} answers 202', async () => {
    c.cover('delete', '/objectstores/{uuid}');
    const { response } = await client().DELETE('/objectstores/{uuid}', { params: { path: { uuid: STORE } } });
    expect(response.status).toBe(202);
  });

  it('objectstores_regenerate_self_signed_cert: POST answers 202', async () => {
    c.cover('post', '/objectstores/{uuid}/regenerate_self_signed_cert');
    const { response } = await client().POST('/objectstores/{uuid}/regenerate_self_signed_cert', { params: { path: { uuid: STORE } } });
    expect(response.status).toBe(202);
  });

  it('groups_list: POST /groups lists object stores with their attributes', async () => {
    const op = c.cover('post', '/groups');
    const { data, response } = await client().POST('/groups', {
      body: { entity_type: 'objectstore', group_member_count: 20, group_member_offset: 0, group_member_attributes: [{ attribute: 'name' }, { attribute: 'state' }] },
    });
    expect(response.status).toBe(200);
    const entities = data?.group_results?.flatMap((g) => g.entity_results ?? []) ?? [];
    expect(entities.length).toBeGreaterThan(0);
    for (const entity of entities) expect(entity.data?.some((d) => d.name === 'name')).toBe(true);
    c.expectConforms(op, 200, data);
  });

  coverageTest(c);
});

errorStatusSuite('objects', c);
