// Issue 19: automation written against production runs unchanged against the local svc (after the
// path and header rename). Each test sends what a public client of that style sends, to the CLI
// started as a user starts it (`--topology FILE`, a free port, HTTPS with its own certificate):
// a workshop staging script (bash, curl, jq), a provisioning framework built on requests, an
// Ansible module's read-compare-write, and a cloud provider interface uploading with
// `Content-Type: application/json`.

import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@svc/mock';
import { Agent, fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { DEFAULT_TOPOLOGY } from '../src/domain/topology.js';

const CLI = fileURLToPath(new URL('../src/cli.js', import.meta.url));
const PASSWORD = 'parity-test-password';
const dir = mkdtempSync(join(tmpdir(), 'svc-sim-parity-'));
const children = new Set();
const insecure = new Agent({ connect: { rejectUnauthorized: false } });

// the workshop topology: automation looks up the subnets `Primary` and `Secondary` by name
const TOPOLOGY = join(dir, 'topology.yaml');
writeFileSync(
  TOPOLOGY,
  `clusters:
  - name: PHX-POC042
    ip: 10.42.42.37
  - name: PC
    ip: 10.42.42.39
    central: true
subnets:
  - name: Primary
    cluster: PHX-POC042
    vlan_id: 0
    network: 10.42.42.0/24
  - name: Secondary
    cluster: PHX-POC042
    vlan_id: 421
    network: 10.42.43.0/24
  - name: overlay-01
    cluster: PHX-POC042
    subnet_type: OVERLAY
    vswitch_name: br1
    vlan_id: 0
`,
);

/** Runs the CLI; resolves with the child and its URL once it listens, or its exit code and output. */
function run(args) {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, SVC_SIM_PASSWORD: PASSWORD },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the simulator did not start in time:\n${out}`)), 600_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /local svc\s+(\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1], out: () => out });
      }
    });
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('close', (code) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code, out: () => out });
    });
  });
}

let sim;
const auth = (password = PASSWORD) => `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;

/** A call as `requests` sends it: JSON body, basic auth, verify=False. */
async function call(method, path, body, { type = 'application/json', password, raw } = {}) {
  const res = await fetch(`${sim.url}${path}`, {
    method,
    headers: {
      authorization: auth(password),
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': type }),
    },
    body: body === undefined || raw ? body : JSON.stringify(body),
    dispatcher: insecure,
    duplex: 'half',
  });
  const text = await res.text();
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    text,
    body: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined,
  };
}

/** Polls a v3 task until it ends (bounded); returns it. */
async function task(uuid) {
  for (let i = 0; i < 600; i++) {
    const { body } = await call('POST', '/api/svc/v3/tasks/poll', { task_uuid_list: [uuid], poll_timeout_seconds: 5 });
    const t = (await call('GET', `/api/svc/v3/tasks/${uuid}`)).body;
    if (['SUCCEEDED', 'FAILED', 'ABORTED'].includes(t.status)) return t;
    expect(body).toBeDefined();
  }
  throw new Error(`task ${uuid} did not end`);
}

beforeAll(async () => {
  const port = await freePort();
  sim = await run([
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--data',
    join(dir, 'data'),
    '--task-seconds',
    '0',
    '--topology',
    TOPOLOGY,
  ]);
  expect(sim.url).toBe(`https://127.0.0.1:${port}`);
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await insecure.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a workshop staging script (bash, curl, jq)', () => {
  /** Runs a bash script with curl and jq against the simulator; resolves with its stdout lines. */
  function bash(script) {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], {
      env: { ...process.env, PC: sim.url, PRISM_ADMIN: 'admin', PE_PASSWORD: PASSWORD },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    return new Promise((resolve, reject) => {
      child.on('close', (code) => {
        children.delete(child);
        if (code === 0) resolve(out.trim().split('\n'));
        else reject(new Error(`bash exited ${code}: ${err}`));
      });
    });
  }
  const CURL = `CURL_HTTP_OPTS=' --max-time 25 --silent --header Content-Type:application/json --header Accept:application/json --insecure '`;

  it('detects a wrong password by AUTHENTICATION_REQUIRED in the v3 answer (central and object store)', async () => {
    const counts = await bash(`${CURL}
      curl $CURL_HTTP_OPTS --user "$PRISM_ADMIN:not-the-password" -X POST --data '{"kind":"cluster"}' \\
        "$PC/api/svc/v3/clusters/list" | grep -c AUTHENTICATION_REQUIRED
      curl $CURL_HTTP_OPTS --user "$PRISM_ADMIN:not-the-password" "$PC/oss/api/svc/v3/objectstores/list" \\
        | grep -c AUTHENTICATION_REQUIRED`);
    expect(counts).toEqual(['1', '1']);
  });

  it('finds Primary by name, imports the cluster images through the batch call, creates an object store and greps objectstores/list', async () => {
    const lines = await bash(`${CURL}
      _url_network="$PC/api/svc/v3/subnets/list"
      CLUSTER_UUID=$(curl -X POST -d '{"kind":"subnet"}' $CURL_HTTP_OPTS --user $PRISM_ADMIN:$PE_PASSWORD $_url_network \\
        | jq '.entities[].spec | select (.name=="Primary") | .cluster_reference.uuid' | tr -d \\")
      PRIM_NETWORK_UUID=$(curl -X POST -d '{"kind":"subnet"}' $CURL_HTTP_OPTS --user $PRISM_ADMIN:$PE_PASSWORD $_url_network \\
        | jq '.entities[] | select (.spec.name=="Primary") | .metadata.uuid' | tr -d \\")
      SEC_NETWORK_UUID=$(curl -X POST -d '{"kind":"subnet"}' $CURL_HTTP_OPTS --user $PRISM_ADMIN:$PE_PASSWORD $_url_network \\
        | jq -r '.entities[] | select (.spec.name=="Secondary") | .metadata.uuid')
      echo "cluster=$CLUSTER_UUID"
      echo "primary=$PRIM_NETWORK_UUID"
      echo "secondary=$SEC_NETWORK_UUID"
      _cluster_uuid=$(curl $CURL_HTTP_OPTS -X POST "$PC/api/svc/v3/clusters/list" --user $PRISM_ADMIN:$PE_PASSWORD --data '{}' \\
        | jq --arg CLUSTER "PHX-POC042" '.entities[]|select (.status.name==$CLUSTER)| .metadata.uuid' | tr -d \\")
      echo "lookup=$_cluster_uuid"
      _http_body=$(cat <<EOF
{"action_on_failure":"CONTINUE",
 "execution_order":"SEQUENTIAL",
 "api_request_list":[{
   "operation":"POST",
   "path_and_params":"/api/nutanix/v3/images/migrate",
   "body":{
     "image_reference_list":[],
     "cluster_reference":{
       "uuid":"\${_cluster_uuid}",
       "kind":"cluster",
       "name":"string"}}}],
 "api_version":"3.0"}
EOF
      )
      _test=$(curl $CURL_HTTP_OPTS --user $PRISM_ADMIN:$PE_PASSWORD -X POST --data "\${_http_body}" "$PC/api/svc/v3/batch")
      echo "batch=$(echo "$_test" | jq -r '.api_response_list[0].status')"
      echo "import_task=$(echo "$_test" | jq -r '.api_response_list[0].api_response.task_uuid')"
      _direct=$(curl $CURL_HTTP_OPTS --user $PRISM_ADMIN:$PE_PASSWORD -X POST \\
        --data "{\\"image_reference_list\\":[],\\"cluster_reference\\":{\\"uuid\\":\\"\${_cluster_uuid}\\",\\"kind\\":\\"cluster\\"}}" \\
        "$PC/api/svc/v3/images/migrate")
      echo "direct_task=$(echo "$_direct" | jq -r .task_uuid)"
      curl $CURL_HTTP_OPTS --user $PRISM_ADMIN:$PE_PASSWORD -X POST --data '{"state":"ENABLE"}' "$PC/api/svc/v3/services/oss" > /dev/null
      _json_data_oss='{"api_version":"3.0","metadata":{"kind":"objectstore"},"spec":{"name":"ntnx-objects","description":"NTNXLAB","resources":{"domain":"ntnxlab.local","cluster_reference":{"kind":"cluster","uuid":"'
      _json_data_oss+=\${CLUSTER_UUID}
      _json_data_oss+='"},"buckets_infra_network_dns":"10.42.42.16","buckets_infra_network_vip":"10.42.42.17","buckets_infra_network_reference":{"kind":"subnet","uuid":"'
      _json_data_oss+=\${PRIM_NETWORK_UUID}
      _json_data_oss+='"},"client_access_network_reference":{"kind":"subnet","uuid":"'
      _json_data_oss+=\${PRIM_NETWORK_UUID}
      _json_data_oss+='"},"aggregate_resources":{"total_vcpu_count":10,"total_memory_size_mib":32768,"total_capacity_gib":51200},"client_access_network_ipv4_range":{"ipv4_start":"10.42.42.18","ipv4_end":"10.42.42.21"}}}}'
      _createresponse=$(curl $CURL_HTTP_OPTS --user $PRISM_ADMIN:$PE_PASSWORD -X POST -d $_json_data_oss "$PC/oss/api/svc/v3/objectstores")
      echo "created=$(echo "$_createresponse" | jq -r .metadata.uuid)"
      _loops=0
      _response=$(curl $CURL_HTTP_OPTS --user $PRISM_ADMIN:$PE_PASSWORD -X GET "$PC/oss/api/svc/v3/objectstores/list" | grep "ntnx-objects" | wc -l)
      while [ $_response -ne 1 ] && [ $_loops -lt 30 ]; do
        _response=$(curl $CURL_HTTP_OPTS --user $PRISM_ADMIN:$PE_PASSWORD -X GET "$PC/oss/api/svc/v3/objectstores/list" | grep "ntnx-objects" | wc -l)
        (( _loops++ )) || true
      done
      echo "listed=$_response"
      echo "store=$(curl $CURL_HTTP_OPTS --user $PRISM_ADMIN:$PE_PASSWORD "$PC/oss/api/svc/v3/objectstores/list" | jq -r '.specs[] | select(.spec.name=="ntnx-objects") | .metadata.uuid')"`);
    const v = Object.fromEntries(lines.map((l) => l.split(/=(.*)/s).slice(0, 2)));
    const UUID = /^[0-9a-f-]{36}$/;
    expect(v.cluster).toMatch(UUID);
    expect(v.lookup).toBe(v.cluster);
    expect(v.primary).toMatch(UUID);
    expect(v.secondary).toMatch(UUID);
    expect(v.secondary).not.toBe(v.primary);
    expect(v.batch).toBe('202');
    expect((await task(v.import_task)).status).toBe('SUCCEEDED');
    expect((await task(v.direct_task)).status).toBe('SUCCEEDED');
    expect(v.listed).toBe('1');
    expect(v.store).toBe(v.created);
  });
});

describe('a provisioning framework built on requests', () => {
  const LIST = (kind) => ({ kind, offset: 0, filter: '', length: 500, sort_order: null, sort_attribute: null });

  it('lists with null sort fields and an empty filter on every v3 list', async () => {
    for (const kind of ['image', 'cluster', 'subnet', 'task']) {
      const res = await call('POST', `/api/svc/v3/${kind}s/list`, LIST(kind));
      expect(res.status, `${kind}s/list: ${res.text}`).toBe(200);
      expect(res.body.metadata).not.toHaveProperty('sort_order');
    }
  });

  it('creates images through //v3/batch with path_and_params "api/nutanix//v3/images" and follows each task', async () => {
    const cluster = (await call('POST', '/api/svc/v3/clusters/list', LIST('cluster'))).body.entities.find(
      (e) => e.status.name === 'PHX-POC042',
    );
    const payload = (name) => ({
      operation: 'POST',
      path_and_params: 'api/nutanix//v3/images',
      body: {
        spec: {
          name,
          description: '',
          resources: {
            image_type: 'DISK_IMAGE',
            initial_placement_ref_list: [{ kind: 'cluster', uuid: cluster.metadata.uuid }],
          },
        },
        metadata: { kind: 'image' },
      },
    });
    const res = await call('POST', '/api/svc//v3/batch', {
      action_on_failure: 'CONTINUE',
      execution_order: 'SEQUENTIAL',
      api_request_list: [payload('zt-image-1'), payload('zt-image-2'), { ...payload(''), body: { metadata: {} } }],
    });
    expect(res.status, res.text).toBe(200);
    const answers = res.body.api_response_list;
    expect(answers.map((a) => a.status)).toEqual(['202', '202', '422']);
    expect(answers[2].api_response.message_list[0].details).toHaveProperty('spec');
    for (const a of answers.slice(0, 2)) {
      expect(a.path_and_params).toBe('api/nutanix//v3/images');
      const t = await task(a.api_response.status.execution_context.task_uuid);
      expect(t.status).toBe('SUCCEEDED');
    }
    const names = (await call('POST', '/api/svc/v3/images/list', LIST('image'))).body.entities.map((e) => e.spec.name);
    expect(names).toEqual(expect.arrayContaining(['zt-image-1', 'zt-image-2']));
  });

  it('stops at the first failure with ABORT', async () => {
    const res = await call('POST', '/api/svc/v3/batch', {
      action_on_failure: 'ABORT',
      execution_order: 'NON_SEQUENTIAL',
      api_request_list: [
        { operation: 'GET', path_and_params: '/api/nutanix/v3/images/00000000-0000-4000-8000-000000000000' },
        { operation: 'POST', path_and_params: '/api/svc/v3/images/list', body: { kind: 'image' } },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.api_response_list.map((a) => a.status)).toEqual(['404']);
  });

  it('filters subnets by every attribute they carry', async () => {
    const names = async (filter) =>
      (await call('POST', '/api/svc/v3/subnets/list', { kind: 'subnet', filter })).body.entities.map(
        (e) => e.spec.name,
      );
    expect(await names('subnet_type==OVERLAY')).toEqual(['overlay-01']);
    expect(await names('subnet_type==VLAN')).toEqual(['Primary', 'Secondary']);
    expect(await names('vswitch_name==br0')).toEqual(['Primary', 'Secondary']);
    expect(await names('vlan_id==421')).toEqual(['Secondary']);
    expect(await names('cluster_name==PHX-POC042;name==Primary')).toEqual(['Primary']);
    const primary = (await call('POST', '/api/svc/v3/subnets/list', { kind: 'subnet', filter: 'name==Primary' })).body
      .entities[0];
    expect(primary.spec.resources).toMatchObject({ vswitch_name: 'br0', subnet_type: 'VLAN', vlan_id: 0 });
    const image = (
      await call('POST', '/api/svc/v3/images/list', {
        kind: 'image',
        filter: 'image_type==DISK_IMAGE;name==zt-image-1',
      })
    ).body;
    expect(image.entities.map((e) => e.spec.name)).toEqual(['zt-image-1']);
  });

  it('asks the groups listing for every store and bucket attribute and gets values, never a 400', async () => {
    const store = (await call('GET', '/oss/api/svc/v3/objectstores/list')).body.specs.find(
      (s) => s.spec.name === 'ntnx-objects',
    );
    expect(store).toBeDefined();
    // deployed (one bucket), bounded
    for (let i = 0; i < 600; i++) {
      const got = await call('GET', `/oss/api/svc/v3/objectstores/${store.metadata.uuid}`);
      if (got.body.status.state === 'COMPLETE') break;
      await new Promise((r) => setImmediate(r));
    }
    const STORE =
      'uuid name domain num_msp_workers usage_bytes num_buckets num_objects num_alerts_internal deployment_version client_access_network_ip_used_list total_capacity_gib last_completed_step state percentage_complete ipv4_address num_alerts_critical num_alerts_info num_alerts_warning error_message_list cluster_name client_access_network_name client_access_network_ip_list buckets_infra_network_name buckets_infra_network_vip buckets_infra_network_dns'.split(
        ' ',
      );
    const groups = await call('POST', '/oss/api/svc/v3/groups', {
      entity_type: 'objectstore',
      group_member_attributes: STORE.map((attribute) => ({ attribute })),
    });
    expect(groups.status, groups.text).toBe(200);
    const data = groups.body.group_results[0].entity_results.find((e) => e.entity_id === store.metadata.uuid).data;
    expect(data.map((d) => d.name)).toEqual(STORE);
    const value = (name) => data.find((d) => d.name === name).values[0]?.values;
    expect(value('uuid')).toEqual([store.metadata.uuid]);
    expect(value('name')).toEqual(['ntnx-objects']);
    expect(value('cluster_name')).toEqual(['PHX-POC042']);
    expect(value('buckets_infra_network_name')).toEqual(['Primary']);
    const BUCKET =
      'uuid name storage_usage_bytes object_count versioning worm bucket_notification_state website retention_start retention_duration_days suspend_versioning cors'.split(
        ' ',
      );
    const buckets = await call('POST', `/oss/api/svc/v3/objectstores/${store.metadata.uuid}/groups`, {
      entity_type: 'bucket',
      group_member_attributes: [...BUCKET, 'not_an_attribute'].map((attribute) => ({ attribute })),
    });
    expect(buckets.status, buckets.text).toBe(200);
    expect(buckets.body.group_results[0].entity_results.length).toBeGreaterThan(0);
    for (const e of buckets.body.group_results[0].entity_results) {
      expect(e.data.map((d) => d.name)).toEqual([...BUCKET, 'not_an_attribute']);
      expect(e.data.find((d) => d.name === 'name').values[0].values).toHaveLength(1);
      expect(e.data.find((d) => d.name === 'not_an_attribute').values).toEqual([]);
    }
  });

  for (const key of ['storage_container_name', 'container_name']) {
    it(`creates a v2.0 image into a container named by ${key}`, async () => {
      const res = await call('POST', '/api/svc/v2.0/images', {
        name: `by-${key}`,
        image_type: 'DISK_IMAGE',
        image_import_spec: { [key]: 'SelfServiceContainer', url: `${sim.url}/not-fetched-without-auth` },
      });
      expect(res.status, res.text).toBe(201);
      const image = (await call('GET', '/api/svc/v2.0/images')).body.entities.find((e) => e.name === `by-${key}`);
      const containers = (await call('GET', '/api/svc/v2.0/storage_containers')).body.entities;
      expect(image.storage_container_uuid).toBe(
        containers.find((c) => c.name === 'SelfServiceContainer').storage_container_uuid,
      );
    });
  }
});

describe("an Ansible module's read-compare-write", () => {
  const metadata = {
    kind: 'image',
    categories_mapping: { Environment: ['Dev'], AppType: ['Default'] },
    use_categories_mapping: true,
  };

  it('keeps categories_mapping as sent, so the second run finds nothing to change', async () => {
    const created = await call('POST', '/api/svc/v3/images', {
      api_version: '3.1.0',
      metadata,
      spec: { name: 'integration-test-image-with-upload', resources: { image_type: 'DISK_IMAGE' } },
    });
    expect(created.status, created.text).toBe(202);
    await task(created.body.status.execution_context.task_uuid);
    const uuid = created.body.metadata.uuid;
    const read = (await call('GET', `/api/svc/v3/images/${uuid}`)).body;
    expect(read.metadata.categories_mapping).toEqual({ Environment: ['Dev'], AppType: ['Default'] });
    expect(read.metadata.use_categories_mapping).toBe(true);
    const listed = (await call('POST', '/api/svc/v3/images/list', { kind: 'image', filter: `uuid==${uuid}` })).body
      .entities[0];
    expect(listed.metadata.categories_mapping).toEqual(metadata.categories_mapping);
    // the module's idempotency check: what it would send equals what it reads back
    const wanted = { ...read.metadata, ...metadata };
    expect(wanted).toEqual(read.metadata);

    const legacy = await call('POST', '/api/svc/v3/images', {
      metadata: { kind: 'image', categories: { AppType: 'Default' } },
      spec: { name: 'with-categories', resources: { image_type: 'ISO_IMAGE' } },
    });
    expect(legacy.status).toBe(202);
    expect((await call('GET', `/api/svc/v3/images/${legacy.body.metadata.uuid}`)).body.metadata.categories).toEqual({
      AppType: 'Default',
    });
  });

  it('answers the checksum of an upload in status.resources.checksum, as the vendor test asserts', async () => {
    // the module sends the checksum of a local file only in the upload's headers, never in the spec
    const created = await call('POST', '/api/svc/v3/images', {
      api_version: '3.1.0',
      metadata: { kind: 'image' },
      spec: { name: 'integration-test-image-with-upload', resources: { image_type: 'DISK_IMAGE' } },
    });
    expect(created.status, created.text).toBe(202);
    await task(created.body.status.execution_context.task_uuid);
    const uuid = created.body.metadata.uuid;
    const bytes = randomBytes(4096);
    const sha1 = createHash('sha1').update(bytes).digest('hex').toUpperCase();
    const res = await fetch(`${sim.url}/api/svc/v3/images/${uuid}/file`, {
      method: 'PUT',
      headers: {
        authorization: auth(),
        accept: 'application/json',
        'content-type': 'application/octet-stream',
        'x-svc-checksum-type': 'SHA_1',
        'x-svc-checksum-bytes': sha1,
      },
      body: bytes,
      dispatcher: insecure,
    });
    expect(res.status, await res.text()).toBe(200);
    const checksum = { checksum_algorithm: 'SHA_1', checksum_value: sha1 };
    const read = (await call('GET', `/api/svc/v3/images/${uuid}`)).body;
    expect(read.status.resources.checksum).toEqual(checksum);
    expect(read.spec.resources.checksum).toBeUndefined();
    const listed = (await call('POST', '/api/svc/v3/images/list', { kind: 'image', filter: `uuid==${uuid}` })).body;
    expect(listed.entities[0].status.resources.checksum).toEqual(checksum);
  });

  it('refuses a category that does not exist with 422 naming it', async () => {
    const res = await call('POST', '/api/svc/v3/images', {
      metadata: { kind: 'image', categories_mapping: { Environment: ['Moon'] }, use_categories_mapping: true },
      spec: { name: 'bad-category', resources: { image_type: 'DISK_IMAGE' } },
    });
    expect(res.status).toBe(422);
    expect(res.body.message_list[0].details).toEqual({
      'metadata.categories_mapping.Environment': 'category Environment:Moon does not exist',
    });
  });

  it('answers a source_uri without a scheme with 500 INTERNAL_ERROR, as the vendor test asserts', async () => {
    const res = await call('POST', '/api/svc/v3/images', {
      metadata: { kind: 'image' },
      spec: {
        name: 'integration-test-image-with-uri',
        resources: { image_type: 'DISK_IMAGE', source_uri: 'www.google.com' },
      },
    });
    expect(res.status).toBe(500);
    expect(res.text).toContain('INTERNAL_ERROR');
  });

  it('reads a cluster and a subnet by UUID, as the info modules do', async () => {
    const subnet = (await call('POST', '/api/svc/v3/subnets/list', { kind: 'subnet', filter: 'name==Secondary' })).body
      .entities[0];
    const got = await call('GET', `/api/svc/v3/subnets/${subnet.metadata.uuid}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ api_version: '3.1', ...subnet });
    const cluster = await call('GET', `/api/svc/v3/clusters/${subnet.spec.cluster_reference.uuid}`);
    expect(cluster.body.status.name).toBe('PHX-POC042');
    const missing = await call('GET', '/api/svc/v3/clusters/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.message_list[0].reason).toBe('ENTITY_NOT_FOUND');
  });
});

describe('a cloud provider interface uploading with Content-Type: application/json', () => {
  it('stores the bytes of a v0.8 upload whatever the Content-Type, into the container named by its numeric id', async () => {
    const container = (await call('GET', '/api/svc/v2.0/storage_containers')).body.entities.find(
      (c) => c.name === 'ISO',
    );
    const numericId = container.id.split('::')[1];
    const created = await call('POST', '/api/svc/v0.8/images', { name: 'provider-stemcell', imageType: 'DISK_IMAGE' });
    expect(created.status, created.text).toBe(200);
    const uuid = (await call('GET', `/api/svc/v0.8/tasks/${created.body.taskUuid}`)).body.entityList[0].uuid;
    const bytes = randomBytes(128 * 1024);
    const res = await fetch(`${sim.url}/api/svc/v0.8/images/${uuid}/upload`, {
      method: 'PUT',
      headers: {
        authorization: auth(),
        'content-type': 'application/json',
        'x-svc-destination-container': numericId,
      },
      body: bytes,
      dispatcher: insecure,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const { taskUuid } = await res.json();
    for (let i = 0; i < 600; i++) {
      const t = (await call('GET', `/api/svc/v0.8/tasks/${taskUuid}/poll?timeoutseconds=5`)).body;
      if (t.taskInfo?.progressStatus === 'Succeeded') break;
      expect(t.taskInfo?.progressStatus).not.toBe('Failed');
    }
    const image = (await call('GET', `/api/svc/v0.8/images/${uuid}`)).body;
    expect(image).toMatchObject({ imageState: 'ACTIVE', containerUuid: container.storage_container_uuid });
    const file = await fetch(`${sim.url}/api/svc/v3/images/${uuid}/file`, {
      headers: { authorization: auth() },
      dispatcher: insecure,
    });
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
  });
});

describe('--topology', () => {
  it('the README writes the default topology as the simulator seeds it', () => {
    const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
    const block = /### Topology\n[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readme);
    expect(block, 'a yaml block under "### Topology"').not.toBeNull();
    expect(parseYaml(block[1])).toEqual(DEFAULT_TOPOLOGY);
  });

  it('refuses a bad file with one line naming the field and exit code 2', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ clusters: [{ name: 'c1' }], subnets: [{ name: 'Primary', vlan_id: 5000 }] }));
    const { code, out } = await run(['--port', '0', '--data', join(dir, 'bad'), '--topology', bad]);
    expect(code).toBe(2);
    expect(out()).toMatch(/--topology: subnets\[0\]\.vlan_id must be an integer 0-4095/);
    const missing = await run(['--port', '0', '--data', join(dir, 'bad'), '--topology', join(dir, 'nope.yaml')]);
    expect(missing.code).toBe(2);
    expect(missing.out()).toMatch(/--topology must name a readable JSON or YAML file \(ENOENT\)/);
    // the option and the reason, never the local path
    expect(out()).not.toContain(dir);
    expect(missing.out()).not.toContain(dir);
  });

  it('refuses a bad build with one line naming the field and the rule, exit code 2', async () => {
    const bad = join(dir, 'bad-build.yaml');
    writeFileSync(
      bad,
      'clusters:\n  - name: c1\n    build: { version: 6.10.1, full_version: el8.5-release-ganges-6.10.1-stable-a4c9e2, short_commit_id: a4c9e2 }\n',
    );
    const { code, out } = await run(['--port', '0', '--data', join(dir, 'bad'), '--topology', bad]);
    expect(code).toBe(2);
    const lines = out()
      .split('\n')
      .filter((l) => l.includes('--topology:'));
    expect(lines).toEqual([
      'simulator: --topology: clusters[0].build.commit_id is required when full_version does not end in the 40 hexadecimal digits of the commit',
    ]);
  });

  it('refuses a data directory it cannot make, naming the reason and not the path', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a directory');
    const { code, out } = await run(['--port', '0', '--data', file]);
    expect(code).toBe(1);
    expect(out()).toMatch(/dataDir cannot be made a directory \(ENOTDIR\)/);
    expect(out()).not.toContain(dir);
    // where Node's own recursive mkdir would spin forever: a parent that takes no children
    if (process.platform === 'linux') {
      const proc = await run(['--port', '0', '--data', '/proc/no-such-folder/data']);
      expect(proc.code).toBe(1);
      expect(proc.out()).toMatch(/dataDir cannot be made a directory \(ENOENT\)/);
    }
  });
});
