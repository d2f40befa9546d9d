// The control API's figures, part of the simulator's `npm run bench` (BENCH_PARTS=control): a
// fresh simulator process over HTTPS with CONTROL_IMAGES images of CONTROL_IMAGE_BYTES each
// (100 MB of bytes), then CONTROL_ROUNDS rounds of: GET /_svc/snapshot (the whole archive read),
// PUT /_svc/snapshot of that archive (to its answer), POST /_svc/reset (to its answer). Each as
// the client sees it, from the request to the end of the answer; medians of the rounds, against
// the goals of issue 59, beside a raw copy of the same data dir (cpSync) as the anchor.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { certificate, median, post, seed, startChild } from './scale.mjs';

const CONTROL_IMAGES = 1000;
const CONTROL_IMAGE_BYTES = 100 * 1024;
const CONTROL_ROUNDS = 3;
const GOALS = { snapshotMs: 2000, restoreMs: 2000, resetMs: 50 };
const AUTH = `Basic ${Buffer.from('admin:bench').toString('base64')}`;

/**
 * One request; resolves its status and body (whole) and how long it took to its last byte, in ms.
 * @param {Agent} agent
 * @param {string} url
 * @param {{ method: string, body?: Buffer | string, type?: string }} o
 * @returns {Promise<{ status: number, body: Buffer, ms: number }>}
 */
function exchange(agent, url, { method, body, type }) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      url,
      {
        method,
        agent,
        headers: {
          authorization: AUTH,
          ...(body === undefined ? {} : { 'content-type': type, 'content-length': Buffer.byteLength(body) }),
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), ms: performance.now() - started }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Uploads `bytes` to every image of the list, 8 at a time. */
async function fill(agent, url, bytes) {
  const listed = await post(agent, `${url}/api/svc/v3/images/list`, JSON.stringify({ kind: 'image', length: 5000 }));
  const uuids = JSON.parse(listed.text).entities.map((e) => e.metadata.uuid);
  let next = 0;
  const worker = async () => {
    while (next < uuids.length) {
      const uuid = uuids[next++];
      const put = await exchange(agent, `${url}/api/svc/v3/images/${uuid}/file`, {
        method: 'PUT',
        body: bytes,
        type: 'application/octet-stream',
      });
      if (put.status !== 200) throw new Error(`an upload: HTTP ${put.status} ${put.body.toString().slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

/**
 * Runs the control part and prints its figures.
 * @returns {Promise<void>}
 * @throws {Error} when a call is not answered as it should be
 */
export async function controlBench() {
  const tls = await certificate();
  const work = mkdtempSync(join(tmpdir(), 'svc-sim-control-'));
  const dataDir = join(work, 'data');
  const agent = new Agent({ keepAlive: true, maxSockets: 8, ca: tls.cert });
  let sim;
  try {
    sim = await startChild(dataDir, tls, agent);
    await seed(agent, sim.url, 0, CONTROL_IMAGES);
    await fill(agent, sim.url, Buffer.alloc(CONTROL_IMAGE_BYTES, 7));
    const rows = { snapshot: [], restore: [], reset: [], copy: [] };
    let archiveBytes = 0;
    for (let round = 0; round < CONTROL_ROUNDS; round++) {
      const copyStarted = performance.now();
      cpSync(dataDir, join(work, `copy-${round}`), { recursive: true });
      rows.copy.push(performance.now() - copyStarted);
      rmSync(join(work, `copy-${round}`), { recursive: true, force: true });
      const snapshot = await exchange(agent, `${sim.url}/_svc/snapshot`, { method: 'GET' });
      if (snapshot.status !== 200) throw new Error(`GET /_svc/snapshot: HTTP ${snapshot.status}`);
      archiveBytes = snapshot.body.length;
      rows.snapshot.push(snapshot.ms);
      const restore = await exchange(agent, `${sim.url}/_svc/snapshot`, {
        method: 'PUT',
        body: snapshot.body,
        type: 'application/x-tar',
      });
      if (restore.status !== 200) throw new Error(`PUT /_svc/snapshot: HTTP ${restore.status} ${restore.body}`);
      rows.restore.push(restore.ms);
      const reset = await exchange(agent, `${sim.url}/_svc/reset`, {
        method: 'POST',
        body: '{}',
        type: 'application/json',
      });
      const removed = JSON.parse(reset.body.toString()).removed;
      if (reset.status !== 200 || removed.image !== CONTROL_IMAGES)
        throw new Error(`POST /_svc/reset: HTTP ${reset.status} ${reset.body}`);
      rows.reset.push(reset.ms);
      // the state back for the next round
      const again = await exchange(agent, `${sim.url}/_svc/snapshot`, {
        method: 'PUT',
        body: snapshot.body,
        type: 'application/x-tar',
      });
      if (again.status !== 200) throw new Error(`PUT /_svc/snapshot: HTTP ${again.status}`);
    }
    const [snapshotMs, restoreMs, resetMs, copyMs] = [rows.snapshot, rows.restore, rows.reset, rows.copy].map(median);
    const met = (v, goal) => `goal < ${goal} ms   met: ${v < goal ? 'yes' : 'NO'}`;
    console.log(
      `\nThe control API over HTTPS, ${CONTROL_IMAGES} images of ${CONTROL_IMAGE_BYTES / 1024} KiB (archive ${(archiveBytes / 1024 ** 2).toFixed(1)} MB), medians of ${CONTROL_ROUNDS} rounds; a raw copy of the data dir (cpSync) ${copyMs.toFixed(0)} ms beside:`,
    );
    console.log(
      `  GET /_svc/snapshot (read whole)   ${snapshotMs.toFixed(0)} ms   ${met(snapshotMs, GOALS.snapshotMs)}`,
    );
    console.log(`  PUT /_svc/snapshot (restored)     ${restoreMs.toFixed(0)} ms   ${met(restoreMs, GOALS.restoreMs)}`);
    console.log(
      `  POST /_svc/reset (${CONTROL_IMAGES} images)     ${resetMs.toFixed(1)} ms   ${met(resetMs, GOALS.resetMs)}`,
    );
  } finally {
    agent.destroy();
    await sim?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
