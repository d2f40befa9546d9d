import { describe, expectTypeOf, it } from 'vitest';
import { createCentralClient, type CentralSchemas } from '../src/index.js';

const client = createCentralClient({ baseUrl: 'https://pc:9440/api/svc/v3', username: 'u', password: 'p' });

describe('central client types', () => {
  it('types request bodies from the spec', () => {
    // @ts-expect-error image_type must be DISK_IMAGE or ISO_IMAGE
    void client.POST('/images', { body: { metadata: { kind: 'image' }, spec: { name: 'x', resources: { image_type: 'CD_IMAGE' } } } });
    // @ts-expect-error spec is required
    void client.POST('/images', { body: { metadata: { kind: 'image' } } });
    // @ts-expect-error the path does not exist
    void client.GET('/images/list');
  });

  it('types responses from the spec', async () => {
    const { data } = await client.GET('/tasks/{uuid}', { params: { path: { uuid: 'x' } } });
    expectTypeOf(data).toEqualTypeOf<CentralSchemas['Task'] | undefined>();
    expectTypeOf<NonNullable<typeof data>['status']>().toEqualTypeOf<'QUEUED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'ABORTED' | 'SUSPENDED'>();
    const list = await client.POST('/images/list', { body: {} });
    type Page = NonNullable<typeof list.data>;
    expectTypeOf<Page['metadata']['total_matches']>().toEqualTypeOf<number>();
    expectTypeOf<NonNullable<NonNullable<Page['entities']>[number]['status']>['state']>().toEqualTypeOf<CentralSchemas['ImageState']>();
    // @ts-expect-error total_matches is a number
    expectTypeOf<Page['metadata']['total_matches']>().toEqualTypeOf<string>();
  });
});
