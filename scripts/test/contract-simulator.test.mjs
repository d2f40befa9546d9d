// `npm run contract` against the local svc: zero violations over every API with entities in
// place, and a simulator made to answer one field wrongly is reported by operation and field.
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSimulator } from '@svc/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from './support/run.mjs';

const SCRIPT = fileURLToPath(new URL('../contract.mjs', import.meta.url));
const PASSWORD = 'contract-sim-S3cret';
const dirs = [];
const sims = [];

/** A simulator with an image, its task and an object store in place, so that gets answer 200. */
async function simulator(options = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-contract-sim-'));
  dirs.push(dataDir);
  const sim = await startSimulator({ port: 0, dataDir, password: PASSWORD, taskSeconds: 0, http: true, ...options });
  sims.push(sim);
  const headers = {
    authorization: `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`,
    'content-type': 'application/json',
  };
  // node:https trusts the simulator's own certificate (fetch has no per-call CA option)
  const post = (path, body) =>
    new Promise((resolve, reject) => {
      // http.request ignores `ca`
      const req = /** @type {typeof httpsRequest} */ (sim.ca ? httpsRequest : httpRequest)(
        `${sim.url}${path}`,
        { method: 'POST', headers, ca: sim.ca },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve(JSON.parse(text)));
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });
  await post('/api/svc/v3/images', {
    api_version: '3.1.0',
    metadata: { kind: 'image' },
    spec: { name: 'contract-image', resources: { image_type: 'DISK_IMAGE' } },
  });
  const cluster = (await post('/api/svc/v3/clusters/list', { kind: 'cluster', filter: 'name==cluster-01' })).entities[0]
    .metadata.uuid;
  const [infra, client] = (await post('/api/svc/v3/subnets/list', { kind: 'subnet' })).entities.map(
    (s) => s.metadata.uuid,
  );
  await post('/oss/api/svc/v3/objectstores', {
    api_version: '3.0',
    metadata: { kind: 'objectstore' },
    spec: {
      name: 'contract-store',
      resources: {
        domain: 'objects.example.com',
        cluster_reference: { kind: 'cluster', uuid: cluster },
        buckets_infra_network_reference: { kind: 'subnet', uuid: infra },
        buckets_infra_network_dns: '10.10.110.10',
        buckets_infra_network_vip: '10.10.110.11',
        client_access_network_reference: { kind: 'subnet', uuid: client },
      },
    },
  });
  return sim;
}

const run = (args) =>
  runCommand(process.execPath, [SCRIPT, ...args], { env: { ...process.env, SVC_PASSWORD: PASSWORD } });

afterAll(async () => {
  await Promise.all(sims.map((s) => s.close()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('npm run contract against the simulator', () => {
  let sim;
  beforeAll(async () => {
    sim = await simulator({ http: false });
  });

  it('reports zero violations, with the gets answered 200 from listed entities', async () => {
    const { code, out } = await run(['--target', sim.url, '--user', 'admin', '--insecure']);
    expect(out).toMatch(/contract: 0 violation\(s\)$/m);
    expect(code, out).toBe(0);
    expect(out).toMatch(/central images_get GET \/images\/\{uuid\} -> 200: conforms/);
    expect(out).toMatch(/element images_get_v0_8 GET \/v0.8\/images\/\{uuid\} -> 200: conforms/);
    expect(out).not.toContain(PASSWORD);
  });

  it('reports the one field a simulator answers wrongly', async () => {
    // api_version as a number where the spec says string, in GET /images/{uuid} only
    const wrong = await simulator({
      tamper: (_api, operationId, _status, body) =>
        operationId === 'images_get' ? { ...body, api_version: 3.1 } : body,
    });
    const { code, out } = await run(['--target', wrong.url, '--user', 'admin', '--api', 'central']);
    expect(code, out).toBe(1);
    expect(out).toMatch(/central images_get GET \/images\/\{uuid\} -> 500: 1 violation\(s\)/);
    expect(out).toMatch(/api_version/);
    expect(out).toMatch(/contract: 1 violation\(s\)$/m);
  });
});
