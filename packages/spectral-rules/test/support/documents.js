/**
 * Sample OpenAPI 3.1 documents for the rule tests.
 *
 * `validDocument()` is a small but complete API that follows every house
 * convention and is clean under spectral:oas `all`; it looks like a bundled
 * document (shared parts in `components`, internal `$ref`s). Failing samples
 * are made from it with `documentWith(mutate)`, so each one differs from a
 * clean document by exactly the change under test.
 */

export const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
const IMAGE_UUID = '2c6a7f4e-1b1e-4c8e-9a0d-5f3f2b9c1d11';
const OWNER_UUID = '00000000-0000-0000-0000-000000000000';
const TASK_UUID = '8d4c2a10-7e53-4f0b-b2a6-3c1d9e8f7a65';

const ref = (name, kind = 'schemas') => ({ $ref: `#/components/${kind}/${name}` });
const errors = { 404: ref('Error', 'responses'), default: ref('Error', 'responses') };

const imageInput = {
  api_version: '3.1',
  metadata: { kind: 'image', category_uuid_list: [] },
  spec: { name: 'ubuntu-24.04', source_uri: 'https://images.svc.test/ubuntu-24.04.qcow2' },
};

const imageResponse = {
  api_version: '3.1',
  metadata: {
    kind: 'image',
    uuid: IMAGE_UUID,
    owner_uuid: OWNER_UUID,
    category_uuid_list: [],
    creation_time: '2024-05-01T10:00:00Z',
    last_update_time: '2024-05-01T10:05:00Z',
  },
  spec: { name: 'ubuntu-24.04', source_uri: 'https://images.svc.test/ubuntu-24.04.qcow2' },
  status: { state: 'PENDING', execution_context: { task_uuid: TASK_UUID }, duration_usecs: 1500000 },
};

/** @returns {Record<string, any>} a fresh copy of the clean sample document */
export function validDocument() {
  return structuredClone({
    openapi: '3.1.0',
    info: {
      title: 'Images API',
      version: '3.1.0',
      description: 'Manages disk and ISO images.',
      contact: { name: 'API team', url: 'https://developer.svc.test', email: 'api@svc.test' },
      license: { name: 'Apache 2.0', url: 'https://www.apache.org/licenses/LICENSE-2.0' },
    },
    servers: [
      {
        url: 'https://{pc_host}:9440/api/svc/v3',
        description: 'Prism Central',
        variables: { pc_host: { default: 'pc.svc.test', description: 'Host name or IP address of Prism Central.' } },
      },
    ],
    security: [{ basicAuth: [] }],
    tags: [{ name: 'Images', description: 'Disk and ISO images.' }],
    paths: {
      '/images': {
        post: {
          operationId: 'images_create',
          summary: 'Create an image',
          description: 'Creates an image from a URL; the returned task tracks the download.',
          tags: ['Images'],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: ref('ImageIntentInput'),
                examples: { ubuntu: { summary: 'An Ubuntu cloud image', value: imageInput } },
              },
            },
          },
          responses: {
            202: ref('ImageIntentResponse', 'responses'),
            400: ref('Error', 'responses'),
            default: ref('Error', 'responses'),
          },
        },
      },
      '/images/list': {
        post: {
          operationId: 'images_list',
          summary: 'List images',
          description: 'Lists the images that match the filter, one page at a time.',
          tags: ['Images'],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: ref('ListMetadata'),
                examples: {
                  firstPage: { summary: 'The first 20 images', value: { kind: 'image', offset: 0, length: 20 } },
                },
              },
            },
          },
          responses: {
            200: {
              description: 'One page of images.',
              content: {
                'application/json': {
                  schema: ref('ImageListResponse'),
                  examples: {
                    onePage: {
                      summary: 'A page with one image',
                      value: {
                        api_version: '3.1',
                        metadata: { kind: 'image', total_matches: 1 },
                        entities: [imageResponse],
                      },
                    },
                  },
                },
              },
            },
            400: ref('Error', 'responses'),
            default: ref('Error', 'responses'),
          },
        },
      },
      '/images/{uuid}': {
        parameters: [ref('Uuid', 'parameters')],
        get: {
          operationId: 'images_get',
          summary: 'Get an image',
          description: 'Returns the image with its current status.',
          tags: ['Images'],
          responses: { 200: ref('ImageIntentResponse', 'responses'), ...errors },
        },
        put: {
          operationId: 'images_update',
          summary: 'Update an image',
          description: 'Replaces the spec of the image.',
          tags: ['Images'],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: ref('ImageIntentInput'),
                examples: { rename: { summary: 'Rename the image', value: imageInput } },
              },
            },
          },
          responses: { 202: ref('ImageIntentResponse', 'responses'), ...errors },
        },
        delete: {
          operationId: 'images_delete',
          summary: 'Delete an image',
          description: 'Deletes the image; the returned task tracks the deletion.',
          tags: ['Images'],
          responses: {
            202: {
              description: 'The deletion has started.',
              content: {
                'application/json': {
                  schema: ref('TaskReference'),
                  examples: { started: { summary: 'The deletion task', value: { task_uuid: TASK_UUID } } },
                },
              },
            },
            ...errors,
          },
        },
      },
      '/images/{uuid}/file': {
        parameters: [ref('Uuid', 'parameters')],
        put: {
          operationId: 'images_upload_file',
          summary: 'Upload the image file',
          description: 'Uploads the disk contents of the image.',
          tags: ['Images'],
          requestBody: {
            required: true,
            content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
          },
          responses: { 204: { description: 'The file has been stored.' }, ...errors },
        },
        get: {
          operationId: 'images_download_file',
          summary: 'Download the image file',
          description: 'Returns the disk contents of the image.',
          tags: ['Images'],
          responses: {
            200: {
              description: 'The disk contents.',
              content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
            },
            ...errors,
          },
        },
      },
    },
    components: {
      securitySchemes: { basicAuth: { type: 'http', scheme: 'basic', description: 'HTTP basic authentication.' } },
      parameters: {
        Uuid: {
          name: 'uuid',
          in: 'path',
          required: true,
          description: 'The UUID of the entity.',
          schema: ref('Uuid'),
        },
      },
      responses: {
        ImageIntentResponse: {
          description: 'The image and its status.',
          content: {
            'application/json': {
              schema: ref('ImageIntentResponse'),
              examples: { pending: { summary: 'An image being created', value: imageResponse } },
            },
          },
        },
        Error: {
          description: 'The request failed.',
          content: { 'application/json': { schema: ref('Error') } },
        },
      },
      schemas: {
        Uuid: { type: 'string', format: 'uuid', pattern: UUID_PATTERN, description: 'A UUID (RFC 4122).' },
        Metadata: {
          type: 'object',
          description: 'Identity and bookkeeping of an entity.',
          required: ['kind'],
          properties: {
            kind: { type: 'string' },
            uuid: ref('Uuid'),
            owner_uuid: ref('Uuid'),
            category_uuid_list: { type: 'array', items: ref('Uuid') },
            creation_time: { type: 'string', format: 'date-time', readOnly: true },
            last_update_time: { type: 'string', format: 'date-time', readOnly: true },
          },
        },
        ImageSpec: {
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string' }, source_uri: { type: 'string', format: 'uri' } },
        },
        ImageStatus: {
          type: 'object',
          properties: {
            state: { type: 'string', enum: ['PENDING', 'COMPLETE', 'ERROR'] },
            execution_context: {
              type: 'object',
              properties: {
                task_uuid: { oneOf: [ref('Uuid'), { type: 'array', items: ref('Uuid') }] },
              },
            },
            duration_usecs: { type: 'integer', format: 'int64' },
          },
        },
        ImageIntentInput: {
          type: 'object',
          required: ['spec', 'metadata'],
          properties: {
            api_version: { type: 'string' },
            spec: ref('ImageSpec'),
            metadata: ref('Metadata'),
          },
        },
        ImageIntentResponse: {
          allOf: [
            ref('ImageIntentInput'),
            { type: 'object', required: ['status'], properties: { status: ref('ImageStatus') } },
          ],
        },
        ImageListResponse: {
          type: 'object',
          properties: {
            api_version: { type: 'string' },
            metadata: {
              type: 'object',
              properties: { kind: { type: 'string' }, total_matches: { type: 'integer', format: 'int32' } },
            },
            entities: { type: 'array', items: ref('ImageIntentResponse') },
          },
        },
        ListMetadata: {
          type: 'object',
          properties: {
            kind: { type: 'string' },
            offset: { type: 'integer', format: 'int32', minimum: 0 },
            length: { type: 'integer', format: 'int32', minimum: 1 },
            filter: { type: 'string' },
          },
        },
        TaskReference: { type: 'object', required: ['task_uuid'], properties: { task_uuid: ref('Uuid') } },
        Error: {
          type: 'object',
          required: ['state', 'message_list'],
          properties: {
            api_version: { type: 'string' },
            code: { type: 'integer', format: 'int32' },
            state: { type: 'string' },
            message_list: {
              type: 'array',
              items: { type: 'object', properties: { message: { type: 'string' }, reason: { type: 'string' } } },
            },
          },
        },
      },
    },
  });
}

/**
 * @param {(doc: Record<string, any>) => void} mutate changes a copy of the clean document in place
 * @returns {Record<string, any>}
 */
export function documentWith(mutate) {
  const doc = validDocument();
  mutate(doc);
  return doc;
}

/**
 * A minimal document with the given paths and servers (for rules that only
 * look at paths, operations and servers).
 *
 * @param {Record<string, any>} paths
 * @param {Array<Record<string, any>>} [servers]
 */
export function documentWithPaths(paths, servers = [{ url: 'https://pc.svc.test:9440/api/svc/v3' }]) {
  return {
    openapi: '3.1.0',
    info: { title: 'Sample', version: '1.0.0' },
    servers,
    paths,
  };
}

/**
 * A minimal operation: summary, one 200 response with a 4xx and a default.
 *
 * @param {Record<string, any>} [fields] merged into the operation
 */
export function operation(fields = {}) {
  return {
    summary: 'An operation',
    responses: {
      200: { description: 'OK' },
      404: { description: 'Not found' },
      default: { description: 'Error' },
    },
    ...fields,
  };
}
