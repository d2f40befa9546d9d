// Test support: a simulator on a free 127.0.0.1 port with its own data dir, and `call`, which
// checks every answer against the spec (status declared, media type declared, JSON body valid
// against the operation's response schema) before handing it back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch } from 'undici';
import { loadApis } from '../../src/bundles.js';
import { startSimulator } from '../../src/index.js';

export const PASSWORD = 'sim-test-password';
export const AUTH = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`;

let apisPromise;
/** The bundles' routers and validators (loaded once). */
export const specs = () => (apisPromise ??= loadApis());

/**
 * Checks one answer against the spec.
 * @returns {Promise<string[]>} the violations (empty when it conforms)
 */
export async function violationsOf(path, method, status, contentType, body) {
  const apis = await specs();
  const mounts = apis
    .flatMap((api) => api.basePaths.map((base) => ({ base, api })))
    .sort((a, b) => b.base.length - a.base.length);
  const mount = mounts.find((m) => path.startsWith(`${m.base}/`));
  if (!mount) return [`${method} ${path}: no API serves this path`];
  const rel = path.slice(mount.base.length).split('?')[0];
  const operation = mount.api.backend.router.matchOperation({
    method: method.toLowerCase(),
    path: rel,
    headers: {},
    query: {},
  });
  if (!operation) return status === 404 || status === 405 ? [] : [`${method} ${path}: no operation`];
  const declared = operation.responses[String(status)] ? String(status) : 'default';
  let response = operation.responses[declared];
  if (!response) return [`${operation.operationId}: status ${status} is not declared`];
  if (response.$ref) response = mount.api.doc.components.responses[response.$ref.split('/').pop()];
  const types = Object.keys(response.content ?? {});
  const type = (contentType ?? '').split(';')[0].trim();
  if (types.length === 0)
    return body?.length ? [`${operation.operationId} ${status}: a body where the spec declares none`] : [];
  if (!types.includes(type))
    return [`${operation.operationId} ${status}: media type "${type}" is not one of ${types.join(', ')}`];
  if (type !== 'application/json') return [];
  const result = mount.api.backend.validator.validateResponse(JSON.parse(body), operation, status);
  return (result.errors ?? []).map((e) => `${operation.operationId} ${status}: ${e.instancePath || '/'} ${e.message}`);
}

/**
 * The simulators started through `startTestSimulator` by the running test file, for the leak check
 * (leak-check.js): `leaks` names what one still held when it was closed.
 * @type {{ sim: import('../../src/index.js').RunningSimulator, closed: boolean, leaks: string[] }[]}
 */
export const started = [];

/** What a simulator holds that it should not once no request is in flight, after waiting for it to settle. */
async function held(sim) {
  const { ANSWER_CACHE_BYTES } = await import('../../src/limits.js');
  const problems = () => {
    const r = sim.resources();
    return [
      ...(r.streams ? [`${r.streams} answer stream(s) still open`] : []),
      ...(r.heldBytes || r.parkedBytes ? [`${r.heldBytes + r.parkedBytes} bytes of the batch budget still held`] : []),
      ...(r.waits ? [`${r.waits} long poll(s) still waiting`] : []),
      ...(r.cacheBytes > ANSWER_CACHE_BYTES + 4 * 1024 * 1024 ? [`caches of ${r.cacheBytes} bytes`] : []),
    ];
  };
  // streams close and polls answer a moment after their connections: wait for it (a hang guard of 20 s)
  for (const deadline = Date.now() + 20_000; problems().length && Date.now() < deadline; )
    await new Promise((resolve) => setTimeout(resolve, 25));
  return problems();
}

/**
 * Starts a simulator for a test.
 * @param {import('../../src/index.js').SimulatorOptions & { keepDir?: boolean }} [options]
 */
export async function startTestSimulator(options = {}) {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'svc-sim-'));
  const sim = await startSimulator({ port: 0, password: PASSWORD, taskSeconds: 0, ...options, dataDir });
  const entry = { sim, closed: false, leaks: /** @type {string[]} */ ([]) };
  started.push(entry);
  const pool = () => new Agent({ connect: { ca: sim.ca } });
  let dispatcher = pool();
  /** Every violation seen by `call`; a test asserts it is empty. */
  const violations = [];

  /**
   * Calls the simulator and checks the answer against the spec.
   * @param {string} method
   * @param {string} path  production path, e.g. `/api/svc/v3/images/list`
   * @param {{ body?: any, headers?: Record<string, string>, auth?: string | null, raw?: boolean }} [o]
   * @returns {Promise<{ status: number, headers: Headers, body: any, text: string }>}
   */
  async function call(method, path, o = {}) {
    const headers = { ...(o.auth === null ? {} : { authorization: o.auth ?? AUTH }), ...o.headers };
    let body = o.body;
    if (body !== undefined && !(body instanceof Uint8Array) && typeof body !== 'string' && !o.raw) {
      body = JSON.stringify(body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${sim.url}${path}`, { method, headers, body, dispatcher, duplex: 'half' });
    const bytes = Buffer.from(await res.arrayBuffer());
    const text = bytes.toString('utf8');
    const type = res.headers.get('content-type') ?? '';
    violations.push(
      ...(await violationsOf(
        path,
        method,
        res.status,
        type,
        type.includes('json') || type.includes('html') ? text : bytes,
      )),
    );
    return { status: res.status, headers: res.headers, body: type.includes('json') ? JSON.parse(text) : bytes, text };
  }

  return {
    sim,
    call,
    violations,
    get dispatcher() {
      return dispatcher;
    },
    dataDir,
    /** Closes the connections `call` keeps alive (they hold descriptors on both sides), for a leak count. */
    async reconnect() {
      const old = dispatcher;
      dispatcher = pool();
      await old.close();
    },
    async close() {
      if (entry.closed) return;
      await dispatcher.close();
      entry.leaks = await held(sim);
      entry.closed = true;
      await sim.close();
      if (!options.keepDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls a v3 task until it is done (bounded). */
export async function waitTask(call, uuid, { tries = 2000, intervalMs = 25 } = {}) {
  for (let i = 0; i < tries; i++) {
    const { body } = await call('GET', `/api/svc/v3/tasks/${uuid}`);
    if (['SUCCEEDED', 'FAILED', 'ABORTED'].includes(body.status)) return body;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`task ${uuid} did not end in ${tries} polls`);
}

/**
 * The UUIDs of the seeded cluster `cluster-01` and of every subnet, as object store creation takes them.
 * @param {(method: string, path: string, o?: any) => Promise<{ body: any }>} call  a test simulator's `call`
 * @returns {Promise<{ cluster: string, subnets: string[] }>}
 */
export async function seededTopology(call) {
  const clusters = await call('POST', '/api/svc/v3/clusters/list', {
    body: { kind: 'cluster', filter: 'name==cluster-01' },
  });
  const subnets = await call('POST', '/api/svc/v3/subnets/list', { body: { kind: 'subnet' } });
  return {
    cluster: clusters.body.entities[0].metadata.uuid,
    subnets: subnets.body.entities.map((s) => s.metadata.uuid),
  };
}

/**
 * A valid object store create `spec` on the seeded topology (objects_create).
 * @param {string} name
 * @param {string} cluster a registered cluster's UUID
 * @param {string[]} subnets two subnet UUIDs: buckets infra, client access
 */
export function objectStoreSpec(name, cluster, subnets) {
  return {
    name,
    resources: {
      domain: 'objects.example.com',
      num_worker_nodes: 1,
      cluster_reference: { kind: 'cluster', uuid: cluster },
      buckets_infra_network_dns: '10.10.110.10',
      buckets_infra_network_vip: '10.10.110.11',
      buckets_infra_network_reference: { kind: 'subnet', uuid: subnets[0] },
      client_access_network_reference: { kind: 'subnet', uuid: subnets[1] },
      client_access_network_ip_list: ['10.10.120.21'],
      aggregate_resources: { total_vcpu_count: 10, total_memory_size_mib: 32768, total_capacity_gib: 100 },
    },
  };
}
