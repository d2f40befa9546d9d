import { describe, expect, it } from 'vitest';
import {
  type ClientOptions,
  ClientOptionsError,
  createCentralClient,
  createElementClient,
  createObjectsClient,
} from '../src/index.js';

/** A fetch that records the request and answers with the given JSON. */
function recordingFetch(status = 200, body: unknown = { ok: true }) {
  const seen: Request[] = [];
  const fetch = async (request: Request) => {
    seen.push(request.clone());
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  };
  return { seen, fetch };
}

const good: ClientOptions = {
  baseUrl: 'https://pc.internal:9440/api/svc/v3/',
  username: 'admin',
  password: 's3cr€t:x',
};

describe('createCentralClient', () => {
  it('sends basic auth, JSON and the base path on every call', async () => {
    const { seen, fetch } = recordingFetch(200, { api_version: '3.1', metadata: { total_matches: 0 }, entities: [] });
    const client = createCentralClient({ ...good, fetch });
    const { data, error } = await client.POST('/images/list', { body: { kind: 'image', offset: 0, length: 5 } });
    expect(error).toBeUndefined();
    expect(data?.metadata.total_matches).toBe(0);
    const request = seen[0]!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('https://pc.internal:9440/api/svc/v3/images/list');
    const expected = 'Basic ' + Buffer.from('admin:s3cr€t:x', 'utf8').toString('base64');
    expect(request.headers.get('authorization')).toBe(expected);
    expect(request.headers.get('content-type')).toBe('application/json');
    expect(await request.json()).toEqual({ kind: 'image', offset: 0, length: 5 });
  });

  it('fills path parameters', async () => {
    const { seen, fetch } = recordingFetch(200, { uuid: 'x', status: 'RUNNING' });
    const client = createCentralClient({ ...good, fetch });
    await client.GET('/tasks/{uuid}', { params: { path: { uuid: '7f3c2a1e-5b4d-4e8f-9a6c-1d2b3e4f5a60' } } });
    expect(seen[0]!.url).toBe('https://pc.internal:9440/api/svc/v3/tasks/7f3c2a1e-5b4d-4e8f-9a6c-1d2b3e4f5a60');
  });

  it('sends binary bodies as they are', async () => {
    const { seen, fetch } = recordingFetch(200, {});
    const client = createCentralClient({ ...good, fetch });
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    await client.PUT('/images/{uuid}/file', {
      params: { path: { uuid: 'c2d4b1f5-8a3e-4c6b-9f1d-2e7a5b3c9d10' } },
      body: bytes,
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    expect(seen[0]!.headers.get('content-type')).toBe('application/octet-stream');
    expect(new Uint8Array(await seen[0]!.arrayBuffer())).toEqual(bytes);
  });

  it('returns the declared error body on 4xx', async () => {
    const body = {
      api_version: '3.1',
      code: 404,
      kind: 'image',
      message_list: [{ message: 'gone', reason: 'ENTITY_NOT_FOUND' }],
      state: 'ERROR',
    };
    const { fetch } = recordingFetch(404, body);
    const client = createCentralClient({ ...good, fetch });
    const { data, error, response } = await client.GET('/images/{uuid}', {
      params: { path: { uuid: 'c2d4b1f5-8a3e-4c6b-9f1d-2e7a5b3c9d10' } },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(error).toEqual(body);
  });

  const cases: { name: string; given: Partial<ClientOptions> | null; option: string; rule: RegExp }[] = [
    { name: 'no options', given: null, option: 'baseUrl', rule: /required/ },
    { name: 'empty baseUrl', given: { baseUrl: '' }, option: 'baseUrl', rule: /non-empty/ },
    { name: 'relative baseUrl', given: { baseUrl: '/api/svc/v3' }, option: 'baseUrl', rule: /absolute URL/ },
    { name: 'ftp baseUrl', given: { baseUrl: 'ftp://pc/api' }, option: 'baseUrl', rule: /http or https/ },
    {
      name: 'credentials in baseUrl',
      given: { baseUrl: 'https://admin:pw@pc:9440/api/svc/v3' },
      option: 'baseUrl',
      rule: /credentials/,
    },
    { name: 'no username', given: { username: '' }, option: 'username', rule: /non-empty/ },
    { name: 'colon in username', given: { username: 'a:b' }, option: 'username', rule: /":"/ },
    { name: 'password not a string', given: { password: 42 as unknown as string }, option: 'password', rule: /string/ },
    {
      name: 'baseUrl and host',
      given: { host: 'pc' } as Partial<ClientOptions>,
      option: 'host',
      rule: /cannot be combined with baseUrl/,
    },
    {
      name: 'host with a path',
      given: { baseUrl: undefined, host: 'pc/x' } as Partial<ClientOptions>,
      option: 'host',
      rule: /host name or IP/,
    },
    {
      name: 'port out of range',
      given: { baseUrl: undefined, host: 'pc', port: 70000 } as Partial<ClientOptions>,
      option: 'port',
      rule: /at most 65535/,
    },
    {
      name: 'port with baseUrl',
      given: { port: 9440 } as Partial<ClientOptions>,
      option: 'port',
      rule: /goes with host/,
    },
    { name: 'negative timeout', given: { timeoutMs: -1 }, option: 'timeoutMs', rule: /positive number/ },
    { name: 'ca not PEM', given: { ca: 'hello' }, option: 'ca', rule: /PEM/ },
    {
      name: 'ca and insecure',
      // tsc refuses the pair (see clients.test-d.ts); JavaScript callers get the run-time check.
      given: { ca: '-----BEGIN CERTIFICATE-----x', insecureSkipTlsVerify: true } as unknown as Partial<ClientOptions>,
      option: 'ca',
      rule: /not both/,
    },
    {
      name: 'insecure not boolean',
      given: { insecureSkipTlsVerify: 'yes' as unknown as boolean },
      option: 'insecureSkipTlsVerify',
      rule: /true or false/,
    },
    { name: 'too many retries', given: { retry: { retries: 50 } }, option: 'retry', rule: /0 to 10/ },
    { name: 'middleware not a list', given: { middleware: {} as never }, option: 'middleware', rule: /array/ },
    { name: 'signal not a signal', given: { signal: {} as never }, option: 'signal', rule: /AbortSignal/ },
    {
      name: 'a query in baseUrl',
      given: { baseUrl: 'https://pc:9440/api/svc/v3?token=s3cr€t' },
      option: 'baseUrl',
      rule: /no "\?query" or "#fragment"/,
    },
    {
      name: 'a fragment in baseUrl',
      given: { baseUrl: 'https://pc:9440/api/svc/v3#s3cr€t' },
      option: 'baseUrl',
      rule: /no "\?query" or "#fragment"/,
    },
  ];
  for (const { name, given, option, rule } of cases) {
    it(`rejects ${name} with an error naming "${option}"`, () => {
      const options = given === null ? (null as unknown as ClientOptions) : ({ ...good, ...given } as ClientOptions);
      let thrown: unknown;
      try {
        createCentralClient(options);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(ClientOptionsError);
      expect((thrown as ClientOptionsError).option).toBe(option);
      expect((thrown as Error).message).toMatch(rule);
      expect((thrown as Error).message).not.toContain('s3cr€t');
      expect((thrown as Error).message).not.toContain('pw@');
    });
  }
});

describe('host and port', () => {
  it('builds https://<host>:<port><base path> for each API, port 9440 by default', async () => {
    const urls: string[] = [];
    const fetch = async (request: Request) => {
      urls.push(request.url);
      return new Response('{}', { status: 200, headers: { 'Content-Type': 'application/json' } });
    };
    const creds = { username: 'admin', password: 'pw', fetch };
    await createCentralClient({ host: 'pc.internal', ...creds }).GET('/tasks/{uuid}', {
      params: { path: { uuid: 'x' } },
    });
    await createElementClient({ host: '10.0.0.5', port: 9441, ...creds }).GET('/v2.0/storage_containers');
    await createObjectsClient({ host: 'pc.internal', ...creds }).POST('/groups', {
      body: { entity_type: 'objectstore' },
    });
    expect(urls).toEqual([
      'https://pc.internal:9440/api/svc/v3/tasks/x',
      'https://10.0.0.5:9441/api/svc/v2.0/storage_containers',
      'https://pc.internal:9440/oss/api/svc/v3/groups',
    ]);
  });
});

describe('createElementClient and createObjectsClient', () => {
  it('sends v0.8 and v2.0 calls under either element base, with basic auth', async () => {
    for (const baseUrl of ['https://pe.internal:9440/api/svc', 'https://pe.internal:9440/PrismGateway/services/rest']) {
      const { seen, fetch } = recordingFetch(200, { taskUuid: '7f3c2a1e-5b4d-4e8f-9a6c-1d2b3e4f5a60' });
      const client = createElementClient({ ...good, baseUrl, fetch });
      await client.POST('/v0.8/images', { body: { name: 'x.iso', imageType: 'ISO_IMAGE' } });
      await client.GET('/v2.0/storage_containers');
      expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual([
        `POST ${baseUrl}/v0.8/images`,
        `GET ${baseUrl}/v2.0/storage_containers`,
      ]);
      expect(seen.every((r) => r.headers.get('authorization')?.startsWith('Basic '))).toBe(true);
    }
  });

  it('sends object store calls under /oss/api/svc/v3', async () => {
    const { seen, fetch } = recordingFetch(200, { group_results: [] });
    const client = createObjectsClient({ ...good, baseUrl: 'https://pc.internal:9440/oss/api/svc/v3', fetch });
    await client.POST('/groups', { body: { entity_type: 'objectstore' } });
    expect(seen[0]!.url).toBe('https://pc.internal:9440/oss/api/svc/v3/groups');
    expect(seen[0]!.headers.get('authorization')).toMatch(/^Basic /);
  });

  it('checks options like the central client', () => {
    expect(() => createElementClient({ ...good, baseUrl: 'pe:9440' })).toThrow(/client option "baseUrl"/);
    expect(() => createObjectsClient({ ...good, username: '' })).toThrow(/client option "username"/);
  });
});
