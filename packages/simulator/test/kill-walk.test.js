// A kill at every durable write (issue 42; SQLite's crash-test method): each workflow runs in a
// simulator armed to SIGKILL itself just before its Nth durable write (a SQLite commit, a write
// to an image file, a rename, an unlink), for N = 1, 2, ... until the workflow ends with no kill.
// After each kill a simulator starts on the same data dir and `violations` checks that
// everything acknowledged is there, every entity ends in a state that takes its next operation,
// no partial or orphan file is left and SQLite's integrity check passes. Exhaustive, not sampled.
//   SVC_SIM_KILL_WALK=long  walks uploads of 3 MiB (many file writes each) instead of 64 KiB
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch } from 'undici';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { keptPassword, startSimulator } from '../src/index.js';
import { Acknowledged, client, startChild, violations, WORKFLOWS } from './support/crash.js';
import { PASSWORD } from './support/sim.js';
import { startGatedSource, startSource } from './support/source.js';

const LONG = process.env.SVC_SIM_KILL_WALK === 'long';
/** More kill points than any workflow has: a walk that reaches it never ends. */
const MAX_POINTS = LONG ? 400 : 60;

const root = mkdtempSync(join(tmpdir(), 'svc-sim-walk-'));
const template = join(root, 'template');
/** @type {Record<string, any>} */
const env = {};
let source;
/** @type {Map<string, number>} workflow -> its durable writes */
const walked = new Map();

const startHere = (dataDir) => startSimulator({ port: 0, dataDir, password: PASSWORD, taskSeconds: 0, http: true });

beforeAll(async () => {
  env.bytes = Buffer.alloc(LONG ? 3 * 1024 * 1024 : 64 * 1024, 5);
  env.sourceBytes = Buffer.alloc(LONG ? 3 * 1024 * 1024 : 48 * 1024, 6);
  source = await startSource({ '/disk.img': env.sourceBytes });
  env.source = `${source.url}/disk.img`;
  env.gate = await startGatedSource(env.sourceBytes);
  // a data dir as a first start leaves it (topology seeded), copied for every kill point, so
  // that the count of writes is the workflow's own
  const sim = await startHere(template);
  const c = client(sim.url);
  const clusters = await c.call('POST', '/api/svc/v3/clusters/list', {
    body: { kind: 'cluster', filter: 'name==cluster-01' },
  });
  const subnets = await c.call('POST', '/api/svc/v3/subnets/list', { body: { kind: 'subnet' } });
  const containers = await c.call('GET', '/api/svc/v2.0/storage_containers');
  env.cluster = clusters.body.entities[0].metadata.uuid;
  env.subnets = subnets.body.entities.map((s) => s.metadata.uuid);
  env.container = containers.body.entities[0].storage_container_uuid;
  await c.close();
  await sim.close();
});

afterAll(async () => {
  await source?.close();
  await env.gate?.close();
  rmSync(root, { recursive: true, force: true });
  if (walked.size)
    console.log(`kill walk: ${[...walked].map(([name, n]) => `${name} ${n}`).join(', ')} durable writes walked`);
});

// two at a time (vitest.config.js maxConcurrency): the walks share nothing but the template and the source
describe.concurrent('a kill at every durable write', () => {
  for (const [index, workflow] of WORKFLOWS.entries()) {
    it(`${workflow.name}: after a kill at any write, nothing acknowledged is lost and nothing is stuck`, async ({
      expect,
    }) => {
      // what the workflow works on, made once (a create walked by another workflow)
      const start = join(root, `${index}-setup`);
      cpSync(template, start, { recursive: true });
      const acknowledged = new Acknowledged();
      let made;
      if (workflow.setup) {
        const sim = await startHere(start);
        const c = client(sim.url);
        made = await workflow.setup(c, acknowledged, env);
        await c.close();
        await sim.close();
      }
      for (let n = 1; ; n++) {
        if (n > MAX_POINTS) throw new Error(`${workflow.name}: still writing after ${MAX_POINTS} kill points`);
        const dataDir = join(root, `${index}-${n}`);
        cpSync(start, dataDir, { recursive: true });
        const child = await startChild(dataDir, n, workflow.child);
        const c = Object.assign(client(child.url), { died: child.exited, dataDir });
        const ack = acknowledged.clone();
        let failure;
        try {
          await workflow.run(c, ack, env, made);
        } catch (error) {
          failure = error;
        }
        await c.close();
        // a fetch the run held (its first request) is answered whole from now on
        env.gate.releaseAll();
        if (failure) {
          // the workflow stopped: that must be the kill, and nothing else (a hang guard: a killed
          // child's exit is seen at once; one still alive is stopped and named)
          const exit = await child.exitedWithin(30_000).catch(async () => {
            await child.stop();
            return { signal: 'none: it was still running' };
          });
          if (exit.signal !== 'SIGKILL')
            throw new Error(
              `kill point ${n}: the workflow failed without the kill: ${failure.message}\n${child.output()}`,
            );
        } else await child.stop();
        const problems = await violations(dataDir, ack, startHere);
        expect(problems, `${workflow.name}, killed before durable write ${n}`).toEqual([]);
        rmSync(dataDir, { recursive: true, force: true });
        if (!failure) {
          walked.set(workflow.name, n - 1);
          return;
        }
      }
    });
  }
});

describe('a kill at every durable write of a first start', () => {
  it('the next start listens, serves the certificate it kept and takes the password it kept', async ({ expect }) => {
    for (let n = 1; ; n++) {
      if (n > MAX_POINTS) throw new Error(`a first start still writing after ${MAX_POINTS} kill points`);
      const dataDir = join(root, `first-${n}`);
      let killed = false;
      try {
        const child = await startChild(dataDir, n, { firstStart: true });
        await child.stop();
      } catch (error) {
        if (!/exited \(SIGKILL\) before it listened/.test(error.message)) throw error;
        killed = true;
      }
      const again = await startChild(dataDir, 0, { firstStart: true });
      try {
        const ca = readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8');
        const dispatcher = new Agent({ connect: { ca } });
        const password = keptPassword(dataDir).password;
        const res = await fetch(`${again.url}/api/svc/v3/images/list`, {
          method: 'POST',
          headers: {
            authorization: `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`,
            'content-type': 'application/json',
          },
          body: '{"kind":"image"}',
          dispatcher,
        });
        await res.arrayBuffer();
        await dispatcher.close();
        expect(res.status, `killed before durable write ${n} of a first start`).toBe(200);
      } finally {
        await again.stop();
      }
      rmSync(dataDir, { recursive: true, force: true });
      if (!killed) {
        walked.set('first start', n - 1);
        return;
      }
    }
  });
});
