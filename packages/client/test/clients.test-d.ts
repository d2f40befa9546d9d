import { describe, expectTypeOf, it } from 'vitest';
import {
  type CentralSchemas,
  type ClientOptions,
  type Cluster,
  type CompleteImage,
  createCentralClient,
  createElementClient,
  createObjectsClient,
  type ElementErrorBody,
  type ElementSchemas,
  type EnabledServiceStatus,
  type GroupEntity,
  type Image,
  type ImageList,
  type ImageV0_8,
  isApiError,
  type ObjectStore,
  type ObjectStoreListEntry,
  type ObjectsSchemas,
  type StorageContainer,
  type Subnet,
  type SucceededTask,
  type SucceededTaskV0_8,
  type SucceededTaskV2_0,
  type Task,
  unwrap,
  type V3ErrorBody,
} from '../src/index.js';

const client = createCentralClient({ baseUrl: 'https://pc:9440/api/svc/v3', username: 'u', password: 'p' });

describe('central client types', () => {
  it('types request bodies from the spec', () => {
    const cdImage = {
      metadata: { kind: 'image' as const },
      spec: { name: 'x', resources: { image_type: 'CD_IMAGE' } },
    };
    // @ts-expect-error image_type must be DISK_IMAGE or ISO_IMAGE
    void client.POST('/images', { body: cdImage });
    // @ts-expect-error spec is required
    void client.POST('/images', { body: { metadata: { kind: 'image' } } });
    // @ts-expect-error the path does not exist
    void client.GET('/images/list');
  });

  it('types responses from the spec', async () => {
    const { data } = await client.GET('/tasks/{uuid}', { params: { path: { uuid: 'x' } } });
    expectTypeOf(data).toEqualTypeOf<CentralSchemas['Task'] | undefined>();
    expectTypeOf<NonNullable<typeof data>['status']>().toEqualTypeOf<
      'QUEUED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'ABORTED' | 'SUSPENDED'
    >();
    const list = await client.POST('/images/list', { body: {} });
    type Page = NonNullable<typeof list.data>;
    expectTypeOf<Page['metadata']['total_matches']>().toEqualTypeOf<number>();
    expectTypeOf<NonNullable<NonNullable<Page['entities']>[number]['status']>['state']>().toEqualTypeOf<
      CentralSchemas['ImageState']
    >();
    // @ts-expect-error total_matches is a number
    expectTypeOf<Page['metadata']['total_matches']>().toEqualTypeOf<string>();
  });
});

describe('workflow and error types', () => {
  it('types paged entities from the list call', async () => {
    for await (const image of client.paginate('/images/list', { kind: 'image' })) {
      expectTypeOf(image).toEqualTypeOf<CentralSchemas['ImageIntentResource']>();
    }
    for await (const subnet of client.paginate('/subnets/list')) {
      expectTypeOf(subnet.status?.resources?.subnet_type).toEqualTypeOf<'VLAN' | 'OVERLAY' | undefined>();
    }
    // @ts-expect-error the body of /images/list takes kind "image" only
    void client.paginate('/images/list', { kind: 'cluster' });
    // @ts-expect-error /images is not a list call
    void client.paginate('/images');
  });

  it('types tasks and images the workflows return, with what they guarantee', () => {
    expectTypeOf(client.waitForTask('x')).resolves.toEqualTypeOf<SucceededTask>();
    expectTypeOf<SucceededTask['status']>().toEqualTypeOf<'SUCCEEDED'>();
    expectTypeOf(client.deleteImage('x')).resolves.toEqualTypeOf<SucceededTask>();
    expectTypeOf(client.createImageFromUrl).returns.resolves.toEqualTypeOf<CompleteImage>();
    // a created image has its uuid (no `!` needed) and is COMPLETE
    expectTypeOf<CompleteImage['metadata']['uuid']>().toEqualTypeOf<string>();
    expectTypeOf<CompleteImage['status']['state']>().toEqualTypeOf<'COMPLETE'>();
    expectTypeOf<Image['metadata']['uuid']>().toEqualTypeOf<string | undefined>();
    const element = createElementClient({ host: 'pe', username: 'u', password: 'p' });
    expectTypeOf(element.waitForTask('x')).resolves.toEqualTypeOf<SucceededTaskV0_8>();
    expectTypeOf(element.waitForTask('x', { version: 'v2.0' })).resolves.toEqualTypeOf<SucceededTaskV2_0>();
    expectTypeOf(element.waitForTask('x', { longPollSeconds: 30 })).resolves.toEqualTypeOf<SucceededTaskV0_8>();
    expectTypeOf<SucceededTaskV0_8['progressStatus']>().toEqualTypeOf<'Succeeded'>();
    expectTypeOf(element.uploadImage).returns.resolves.toEqualTypeOf<ImageV0_8>();
    // @ts-expect-error the long poll is v0.8 only
    void element.waitForTask('x', { version: 'v2.0', longPollSeconds: 30 });
    expectTypeOf(client.abortTask('x')).resolves.toEqualTypeOf<void>();
    expectTypeOf(client.enableObjectsService()).resolves.toEqualTypeOf<EnabledServiceStatus>();
    expectTypeOf<CentralSchemas['ServiceEnablementStatus']['service_enablement_status']>().toEqualTypeOf<string>();
    // @ts-expect-error give a file or a stream
    void element.uploadImage({ name: 'x', imageType: 'ISO_IMAGE', container: 'c' });
    const both = {
      name: 'x',
      imageType: 'ISO_IMAGE' as const,
      container: 'c',
      file: 'a.iso',
      stream: new ReadableStream(),
    };
    // @ts-expect-error not both
    void element.uploadImage(both);
    // @ts-expect-error imageType is DISK_IMAGE or ISO_IMAGE
    void element.uploadImage({ name: 'x', imageType: 'CD', container: 'c', file: 'a.iso' });
  });

  it('types the buckets of an object store', async () => {
    const objects = createObjectsClient({ host: 'pc', username: 'u', password: 'p' });
    for await (const bucket of objects.paginateBuckets('x', {
      group_member_attributes: [{ attribute: 'storage_usage_bytes' }],
    })) {
      expectTypeOf(bucket).toEqualTypeOf<GroupEntity>();
      expectTypeOf(bucket).toExtend<ObjectsSchemas['GroupEntityResult']>();
    }
    // @ts-expect-error entity_type is set by paginateBuckets
    void objects.paginateBuckets('x', { entity_type: 'bucket' });
    // @ts-expect-error group_member_count comes from pageSize
    void objects.paginateBuckets('x', { group_member_count: 5 });
  });

  it('narrows ApiError by status', () => {
    const e: unknown = new Error();
    if (isApiError(e, 401)) {
      expectTypeOf(e.body).toEqualTypeOf<string>();
      expectTypeOf(e.status).toEqualTypeOf<401>();
    }
    if (isApiError(e, 404)) {
      expectTypeOf(e.body).toEqualTypeOf<V3ErrorBody | ElementErrorBody | Record<string, unknown> | string>();
    }
  });

  it('unwrap returns the success body', async () => {
    const image = await unwrap(client.GET('/images/{uuid}', { params: { path: { uuid: 'x' } } }));
    expectTypeOf(image.status.state).toEqualTypeOf<CentralSchemas['ImageState']>();
    expectTypeOf(image.metadata.uuid).toEqualTypeOf<string | undefined>();
    // @ts-expect-error data is never undefined after unwrap
    expectTypeOf(image).toEqualTypeOf<undefined>();
  });

  it('names the entities: interfaces over the generated schemas, same members', () => {
    expectTypeOf<Image>().toExtend<CentralSchemas['ImageIntentResponse']>();
    expectTypeOf<CentralSchemas['ImageIntentResponse']>().toExtend<Image>();
    expectTypeOf<ImageList>().toExtend<CentralSchemas['ImageListResponse']>();
    expectTypeOf<CentralSchemas['ImageListResponse']>().toExtend<ImageList>();
    expectTypeOf<CentralSchemas['Task']>().toExtend<Task>();
    expectTypeOf<Task>().toExtend<CentralSchemas['Task']>();
    expectTypeOf<ElementSchemas['StorageContainerV2_0']>().toExtend<StorageContainer>();
    expectTypeOf<ObjectsSchemas['ObjectstoreIntentResponse']>().toExtend<ObjectStore>();
    expectTypeOf<ObjectStore['metadata']['uuid']>().toEqualTypeOf<string>();
    // the lookups automation makes (issue 19)
    expectTypeOf(client.getCluster('x')).resolves.toEqualTypeOf<Cluster>();
    expectTypeOf<CentralSchemas['ClusterIntentResponse']>().toExtend<Cluster>();
    expectTypeOf<Cluster>().toExtend<CentralSchemas['ClusterIntentResponse']>();
    expectTypeOf(client.getSubnet('x')).resolves.toEqualTypeOf<Subnet>();
    expectTypeOf<CentralSchemas['SubnetIntentResponse']>().toExtend<Subnet>();
    expectTypeOf<Subnet>().toExtend<CentralSchemas['SubnetIntentResponse']>();
    const objects = createObjectsClient({ host: 'pc', username: 'u', password: 'p' });
    expectTypeOf(objects.listObjectStores()).resolves.toEqualTypeOf<ObjectStoreListEntry[]>();
    expectTypeOf<ObjectsSchemas['ObjectstoreListResponse']['specs'][number]>().toExtend<ObjectStoreListEntry>();
  });

  it('refuses ca together with insecureSkipTlsVerify', () => {
    const pem = '-----BEGIN CERTIFICATE-----';
    createCentralClient({ host: 'pc', username: 'u', password: 'p', ca: pem });
    createCentralClient({ host: 'pc', username: 'u', password: 'p', ca: pem, insecureSkipTlsVerify: false });
    // @ts-expect-error trust the certificate or skip verification, not both
    createCentralClient({ host: 'pc', username: 'u', password: 'p', ca: pem, insecureSkipTlsVerify: true });
    // @ts-expect-error also when the options are built first
    const both: ClientOptions = { host: 'pc', username: 'u', password: 'p', ca: [pem], insecureSkipTlsVerify: true };
    void both;
  });

  it('takes baseUrl or host, not both', () => {
    createCentralClient({ host: 'pc', port: 9440, username: 'u', password: 'p', insecureSkipTlsVerify: true });
    // @ts-expect-error baseUrl and host exclude each other
    createCentralClient({ host: 'pc', baseUrl: 'https://pc:9440/api/svc/v3', username: 'u', password: 'p' });
    // @ts-expect-error a password is required
    createCentralClient({ host: 'pc', username: 'u' });
  });
});
