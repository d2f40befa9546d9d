// Every operation of the object store API, through the generated client, against the Prism mock.

import { createObjectsClient } from '@svc/client';
import { describe, expect, it } from 'vitest';
import { SchemaValidator } from '../src/spec.js';
import { clientOptions, contract, coverageTest, errorStatusSuite } from './contract.js';

const STORE = '0e09cf83-ac68-4f28-af70-6df9a43df4f0';
const CLUSTER = '0005ce15-3f3c-a8ce-3802-043f72bf18a6';

const c = contract('objects', (baseUrl) => createObjectsClient({ baseUrl, ...clientOptions }));
const client = () => c.client();

describe('objects: success responses', () => {
  it('objectstores_create: POST /objectstores sends the object store and reads the 202 answer', async () => {
    const op = c.cover('objectstores_create');
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
    c.expectSent({ method: 'POST', url: '/objectstores', contentType: 'application/json' });
    c.expectConforms(op, 202, data);
  });

  it('objectstores_get: GET /objectstores/{uuid} fills the path parameter', async () => {
    const op = c.cover('objectstores_get');
    const { data, response } = await client().GET('/objectstores/{uuid}', { params: { path: { uuid: STORE } } });
    expect(response.status).toBe(200);
    c.expectSent({ method: 'GET', url: `/objectstores/${STORE}` });
    c.expectConforms(op, 200, data);
  });

  it('objectstores_list: GET /objectstores/list reads every store under specs', async () => {
    const op = c.cover('objectstores_list');
    const { data, response } = await client().GET('/objectstores/list');
    expect(response.status).toBe(200);
    c.expectSent({ method: 'GET', url: '/objectstores/list' });
    c.expectConforms(op, 200, data);
  });

  it('objectstores_delete: DELETE /objectstores/{uuid} fills the path parameter', async () => {
    c.cover('objectstores_delete');
    const { response } = await client().DELETE('/objectstores/{uuid}', { params: { path: { uuid: STORE } } });
    expect(response.status).toBe(202);
    c.expectSent({ method: 'DELETE', url: `/objectstores/${STORE}` });
  });

  it('objectstores_regenerate_self_signed_cert: POST /objectstores/{uuid}/regenerate_self_signed_cert sends no body', async () => {
    c.cover('objectstores_regenerate_self_signed_cert');
    const { response } = await client().POST('/objectstores/{uuid}/regenerate_self_signed_cert', {
      params: { path: { uuid: STORE } },
    });
    expect(response.status).toBe(202);
    c.expectSent({ method: 'POST', url: `/objectstores/${STORE}/regenerate_self_signed_cert` });
  });

  it('groups_list: POST /groups sends the attributes asked and reads the groups', async () => {
    const op = c.cover('groups_list');
    const { data, response } = await client().POST('/groups', {
      body: {
        entity_type: 'objectstore',
        group_member_count: 20,
        group_member_offset: 0,
        group_member_attributes: [{ attribute: 'name' }, { attribute: 'state' }],
      },
    });
    expect(response.status).toBe(200);
    c.expectSent({ method: 'POST', url: '/groups', contentType: 'application/json' });
    c.expectConforms(op, 200, data);
  });

  it('objectstores_groups_list: POST /objectstores/{uuid}/groups sends the bucket query and reads the groups', async () => {
    const op = c.cover('objectstores_groups_list');
    const { data, response } = await client().POST('/objectstores/{uuid}/groups', {
      params: { path: { uuid: STORE } },
      body: {
        entity_type: 'bucket',
        group_member_count: 20,
        group_member_offset: 0,
        group_member_attributes: [
          { attribute: 'name' },
          { attribute: 'storage_usage_bytes' },
          { attribute: 'object_count' },
        ],
      },
    });
    expect(response.status).toBe(200);
    c.expectSent({ method: 'POST', url: `/objectstores/${STORE}/groups`, contentType: 'application/json' });
    c.expectConforms(op, 200, data);
  });

  coverageTest(c);
});

errorStatusSuite('objects', c);

describe('objects: the mock enforces the spec', () => {
  it('refuses an object store query on the bucket listing, naming entity_type', async () => {
    const { response } = await client().POST('/objectstores/{uuid}/groups', {
      params: { path: { uuid: STORE } },
      // @ts-expect-error this endpoint lists buckets only
      body: { entity_type: 'objectstore' },
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(c.exchanges.pop()?.violations ?? '').toMatch(/entity_type/);
  });
});

describe('objects: the monitoring attributes of the groups listing are typed', () => {
  const schemas = new SchemaValidator('objects', c.doc);
  const field = (name: string, value: string) =>
    schemas.validate('/components/schemas/GroupFieldData', {
      name,
      values: [{ values: [value], time: 1793617200000000 }],
    });
  it.each([
    ['usage_bytes', '53687091200'],
    ['num_buckets', '2'],
    ['num_alerts_critical', '0'],
    ['percentage_complete', '100'],
    ['state', 'COMPLETE'],
    ['error_message_list', 'Deployment failed: IP address 10.10.110.13 is already in use.'],
    ['client_access_network_ip_list', '10.10.120.21'],
    ['cluster_name', 'anything goes'],
  ])('accepts %s = %s', (name, value) => {
    expect(field(name, value)).toEqual([]);
  });
  it.each([
    ['usage_bytes', '1.5 GiB', 'pattern'],
    ['num_objects', '-1', 'pattern'],
    ['num_alerts_warning', 'many', 'pattern'],
    ['percentage_complete', '101', 'pattern'],
    ['ipv4_address', 'objects.example.com', 'format'],
  ])('refuses %s = %s, naming the rule', (name, value, rule) => {
    expect(field(name, value).join('\n')).toMatch(new RegExp(rule));
  });
});

describe('objects: workflow methods against the mock', () => {
  it('paginateGroups yields the entities of the pages it asks for, first page first', async () => {
    const body = { entity_type: 'objectstore' as const, group_member_attributes: [{ attribute: 'name' }] };
    const { data: first } = await client().POST('/groups', {
      body: { ...body, group_member_count: 20, group_member_offset: 0 },
    });
    c.exchanges.length = 0;
    const items = [];
    for await (const entity of client().paginateGroups(body, { pageSize: 20 })) items.push(entity);
    const firstPage = first!.group_results!.flatMap((g) => g.entity_results ?? []);
    expect(items.slice(0, firstPage.length)).toEqual(firstPage);
    expect(c.exchanges.map((e) => `${e.method} ${e.url}`)).toEqual(c.exchanges.map(() => 'POST /groups'));
  });
});
