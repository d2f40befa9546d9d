// The helpers of issue 19: central.batch (typed per sub-request), getCluster, getSubnet and
// objects.listObjectStores, against an injected fetch that answers what production answers.
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type CentralSchemas,
  createCentralClient,
  createObjectsClient,
  InvalidArgumentError,
  type ObjectsSchemas,
} from '../src/index.js';

const IMAGE = 'c2d4b1f5-8a3e-4c6b-9f1d-2e7a5b3c9d10';
const TASK = '7f3c2a1e-5b4d-4e8f-9a6c-1d2b3e4f5a60';
const CLUSTER = '0005ce15-3f3c-a8ce-3802-043f72bf18a6';

/** A fetch that records each request and answers the next JSON body of `answers`. */
function scripted(...answers: [number, unknown][]) {
  const seen: Request[] = [];
  const fetch = async (request: Request) => {
    seen.push(request.clone());
    const [status, body] = answers.shift() ?? [500, {}];
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  };
  return { seen, fetch };
}

const options = { baseUrl: 'https://pc.internal:9440/api/svc/v3', username: 'admin', password: 'pw' };

describe('central.batch', () => {
  it('sends api_request_list with the defaults production clients send and types each answer', async () => {
    const { seen, fetch } = scripted([
      200,
      {
        api_version: '3.1',
        api_response_list: [
          {
            status: '202',
            path_and_params: '/api/nutanix/v3/images',
            api_response: {
              api_version: '3.1',
              metadata: { kind: 'image', uuid: IMAGE },
              status: { state: 'PENDING', execution_context: { task_uuid: TASK } },
            },
          },
          {
            status: '202',
            path_and_params: '/api/svc/v3/images/migrate',
            // some production versions send the sub-answer as a JSON string
            api_response: JSON.stringify({ task_uuid: TASK }),
          },
          {
            status: '404',
            path_and_params: `/api/svc/v3/images/${IMAGE}`,
            api_response: {
              api_version: '3.1',
              code: 404,
              state: 'ERROR',
              message_list: [{ reason: 'ENTITY_NOT_FOUND', message: 'no image' }],
            },
          },
        ],
      },
    ]);
    const central = createCentralClient({ ...options, fetch });
    const results = await central.batch([
      {
        operation: 'POST',
        path_and_params: '/api/nutanix/v3/images',
        body: { metadata: { kind: 'image' }, spec: { name: 'a', resources: { image_type: 'DISK_IMAGE' } } },
      },
      {
        operation: 'POST',
        path_and_params: '/api/svc/v3/images/migrate',
        body: { image_reference_list: [], cluster_reference: { kind: 'cluster', uuid: CLUSTER } },
      },
      { operation: 'DELETE', path_and_params: `/api/svc/v3/images/${IMAGE}` },
    ]);
    expect(seen[0]!.url).toBe('https://pc.internal:9440/api/svc/v3/batch');
    expect(await seen[0]!.json()).toMatchObject({
      action_on_failure: 'CONTINUE',
      execution_order: 'SEQUENTIAL',
      api_request_list: [
        { operation: 'POST', path_and_params: '/api/nutanix/v3/images' },
        { operation: 'POST', path_and_params: '/api/svc/v3/images/migrate' },
        { operation: 'DELETE', path_and_params: `/api/svc/v3/images/${IMAGE}` },
      ],
    });
    const [created, migrated, deleted] = results;
    expect(created.ok && created.api_response.status?.execution_context?.task_uuid).toBe(TASK);
    expect(migrated).toMatchObject({ ok: true, status: 202, api_response: { task_uuid: TASK } });
    expect(deleted).toMatchObject({ ok: false, status: 404, api_response: { code: 404 } });
    expectTypeOf(results[1]).toEqualTypeOf<
      | { ok: true; status: number; path_and_params: string; api_response: CentralSchemas['ImageMigrateResponse'] }
      | { ok: false; status: number; path_and_params: string; api_response: CentralSchemas['ErrorResponse'] }
    >();
    if (created.ok) expectTypeOf(created.api_response).toEqualTypeOf<CentralSchemas['ImageIntentResponse']>();
  });

  it('passes ABORT and NON_SEQUENTIAL through', async () => {
    const { seen, fetch } = scripted([200, { api_version: '3.1', api_response_list: [] }]);
    const central = createCentralClient({ ...options, fetch });
    await central.batch([{ operation: 'GET', path_and_params: `/api/svc/v3/images/${IMAGE}` }], {
      actionOnFailure: 'ABORT',
      executionOrder: 'NON_SEQUENTIAL',
    });
    expect(await seen[0]!.json()).toMatchObject({ action_on_failure: 'ABORT', execution_order: 'NON_SEQUENTIAL' });
  });

  it('refuses an empty list before sending anything, naming the argument', async () => {
    const { seen, fetch } = scripted();
    const central = createCentralClient({ ...options, fetch });
    await expect(central.batch([])).rejects.toThrow(InvalidArgumentError);
    await expect(central.batch([])).rejects.toThrow(/requests/);
    expect(seen).toHaveLength(0);
  });

  it('rejects a sub-request body of the wrong type at compile time', () => {
    const central = createCentralClient({ ...options, fetch: scripted().fetch });
    expectTypeOf(central.batch).toBeCallableWith([
      {
        operation: 'POST',
        path_and_params: '/api/svc/v3/images',
        body: { metadata: { kind: 'image' }, spec: { name: 'x', resources: { image_type: 'DISK_IMAGE' } } },
      },
    ]);
    const noSpec = {
      operation: 'POST',
      path_and_params: '/api/svc/v3/images',
      body: { metadata: { kind: 'image' } },
    } as const;
    // @ts-expect-error an image create needs a spec
    void (() => central.batch([noSpec]));
  });
});

describe('central.getCluster and getSubnet', () => {
  it('GET /clusters/{uuid} and /subnets/{uuid} return the entity', async () => {
    const cluster = { api_version: '3.1', metadata: { kind: 'cluster', uuid: CLUSTER }, spec: { name: 'prod-ahv-01' } };
    const subnet = { api_version: '3.1', metadata: { kind: 'subnet', uuid: IMAGE }, spec: { name: 'Primary' } };
    const { seen, fetch } = scripted([200, cluster], [200, subnet]);
    const central = createCentralClient({ ...options, fetch });
    expect(await central.getCluster(CLUSTER)).toEqual(cluster);
    expect(await central.getSubnet(IMAGE)).toEqual(subnet);
    expect(seen.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      `GET /api/svc/v3/clusters/${CLUSTER}`,
      `GET /api/svc/v3/subnets/${IMAGE}`,
    ]);
    expectTypeOf(central.getSubnet).returns.resolves.toEqualTypeOf<CentralSchemas['SubnetIntentResponse']>();
  });

  it('refuses a non-UUID before sending anything', async () => {
    const { seen, fetch } = scripted();
    const central = createCentralClient({ ...options, fetch });
    await expect(central.getCluster('../tasks')).rejects.toThrow(InvalidArgumentError);
    expect(seen).toHaveLength(0);
  });
});

describe('objects.listObjectStores', () => {
  it('GET /objectstores/list returns the stores under specs', async () => {
    const store = {
      metadata: { kind: 'objectstore', uuid: IMAGE },
      spec: { name: 'ntnx-objects' },
      status: { state: 'PENDING', name: 'ntnx-objects' },
    };
    const { seen, fetch } = scripted([200, { api_version: '3.0', specs: [store] }]);
    const objects = createObjectsClient({ ...options, baseUrl: 'https://pc.internal:9440/oss/api/svc/v3', fetch });
    const stores = await objects.listObjectStores();
    expect(stores.map((s) => s.spec.name)).toEqual(['ntnx-objects']);
    expect(seen[0]!.method).toBe('GET');
    expect(new URL(seen[0]!.url).pathname).toBe('/oss/api/svc/v3/objectstores/list');
    expectTypeOf(stores).toEqualTypeOf<ObjectsSchemas['ObjectstoreListResponse']['specs']>();
  });
});
