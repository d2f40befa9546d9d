// The simulator's memory under a burst of maximal batches, part of its `npm run bench` (bench.mjs
// runs it last; BENCH_PARTS=burst runs it alone): a fresh simulator process over HTTPS, seeded with
// BURST_IMAGES images, gets BURST_BATCHES POST /batch at once, each on its own connection, each
// of 60 sub-requests (the description's maxItems) listing every image in one page, every body
// with its keys in another order so that no page comes from the answer cache: each batch's answer
// reaches BATCH_ANSWER_LIMIT and the sub-requests past it are answered 413 in place. The figure
// is the process's peak RSS (maxRSS) after the burst, against a goal of BURST_RSS_MB (issue 43).
// Not timed.
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BATCH_ANSWER_LIMIT } from '../src/limits.js';
import { certificate, post, seed, startChild } from './scale.mjs';

const BURST_BATCHES = 100;
const SUB_REQUESTS = 60;
/** A page of all of them (some 200 KB) takes a batch's answer past BATCH_ANSWER_LIMIT within 60. */
const BURST_IMAGES = 300;
const BURST_RSS_MB = 300;
const AUTH = `Basic ${Buffer.from('admin:bench').toString('base64')}`;

/** The list bodies: one page of every image, in every order of the keys (120 texts). */
function bodies() {
  const body = { kind: 'image', offset: 0, length: BURST_IMAGES, filter: '', sort_order: 'ASCENDING' };
  const orders = (keys) =>
    keys.length <= 1 ? [keys] : keys.flatMap((k, i) => orders(keys.filter((_, j) => j !== i)).map((r) => [k, ...r]));
  return orders(Object.keys(body)).map((keys) => Object.fromEntries(keys.map((k) => [k, body[k]])));
}

/**
 * POSTs one batch and reads its answer without keeping it: its size and its sub-requests' statuses.
 * @returns {Promise<{ bytes: number, statuses: Record<string, number> }>}
 * @throws {Error} when the answer is not a 200
 */
function batch(agent, url, body) {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      url,
      { method: 'POST', agent, headers: { authorization: AUTH, 'content-type': 'application/json' } },
      (res) => {
        let bytes = 0;
        let tail = '';
        /** @type {Record<string, number>} */
        const statuses = {};
        res.setEncoding('latin1');
        res.on('data', (text) => {
          bytes += text.length;
          // a status split between two chunks is read whole: the last 14 characters of one (one
          // fewer than a match: none is counted twice) go before the next
          const seen = tail + text;
          for (const m of seen.matchAll(/\{"status":"(\d{3})"/g)) statuses[m[1]] = (statuses[m[1]] ?? 0) + 1;
          tail = seen.slice(-14);
        });
        res.on('end', () =>
          res.statusCode === 200
            ? resolve({ bytes, statuses })
            : reject(new Error(`POST /batch: HTTP ${res.statusCode}`)),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Runs the burst and prints its figure.
 * @returns {Promise<void>}
 * @throws {Error} when a batch is not answered 200 with 60 sub-requests, each 200 or 413
 */
export async function batchBurst() {
  const tls = await certificate();
  const work = mkdtempSync(join(tmpdir(), 'svc-sim-burst-'));
  const agent = new Agent({ keepAlive: true, maxSockets: BURST_BATCHES, ca: tls.cert });
  let sim;
  try {
    sim = await startChild(work, tls, agent);
    await seed(agent, sim.url, 0, BURST_IMAGES);
    const before = await sim.ask('rss');
    const lists = bodies();
    const url = `${sim.url}/api/svc/v3/batch`;
    const answers = await Promise.all(
      Array.from({ length: BURST_BATCHES }, (_, b) =>
        batch(
          agent,
          url,
          JSON.stringify({
            api_request_list: Array.from({ length: SUB_REQUESTS }, (_, i) => ({
              operation: 'POST',
              path_and_params: '/api/nutanix/v3/images/list',
              body: lists[(b * SUB_REQUESTS + i) % lists.length],
            })),
          }),
        ),
      ),
    );
    const after = await sim.ask('rss');
    const total = (code) => answers.reduce((n, a) => n + (a.statuses[code] ?? 0), 0);
    for (const a of answers) {
      const counted = Object.values(a.statuses).reduce((n, c) => n + c, 0);
      const others = Object.keys(a.statuses).filter((code) => code !== '200' && code !== '413');
      if (counted !== SUB_REQUESTS || others.length)
        throw new Error(`a batch's answer: ${JSON.stringify(a.statuses)}, not ${SUB_REQUESTS} of 200 or 413`);
    }
    const largest = Math.max(...answers.map((a) => a.bytes));
    console.log(
      `\n${BURST_BATCHES} batches at once over HTTPS, each of ${SUB_REQUESTS} lists of all ${BURST_IMAGES} images (answer limit ${BATCH_ANSWER_LIMIT} bytes; largest answer ${largest} bytes; sub-requests: ${total('200')} answered 200, ${total('413')} 413 past the limit):`,
    );
    console.log(
      `  simulator peak RSS ${after.maxRssMB.toFixed(1)} MB (before the burst ${before.maxRssMB.toFixed(1)} MB)   goal < ${BURST_RSS_MB} MB   met: ${after.maxRssMB < BURST_RSS_MB ? 'yes' : 'NO'}`,
    );
  } finally {
    agent.destroy();
    await sim?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

/** Images of the catalogue the pages list: a page of them all is some 3 MB, as the hostile round's. */
const PAGE_IMAGES = 3000;
const PAGES = 64;
const PAGES_MB = 50;

/**
 * A process's RSS once it has settled, in MB: after two full collections each second, until it
 * has not fallen by more than 1 MB for 8 seconds (40 at most). V8 gives freed pages back to the
 * system some seconds after the work that freed them (its memory reducer), not at the collection.
 * @param {{ ask: (m: string) => Promise<any> }} child  a sim-child.mjs started with --expose-gc
 * @returns {Promise<number>}
 */
async function settledMB(child) {
  let lowest = Infinity;
  for (let second = 0, calm = 0; second < 40 && calm < 8; second++) {
    const { keptMB } = await child.ask('rss');
    if (keptMB < lowest - 1) [lowest, calm] = [Math.min(lowest, keptMB), 0];
    else [lowest, calm] = [Math.min(lowest, keptMB), calm + 1];
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return lowest;
}

/**
 * The memory the answer cache keeps (issue 58): a fresh simulator process over HTTPS, seeded with
 * PAGE_IMAGES images, asked PAGES maximal list pages (each of every image, each body another, so
 * that each is cached apart), one after the other. The figure is its RSS once settled (settledMB)
 * after the pages, against the same before them: goal < PAGES_MB above it.
 * @returns {Promise<void>}
 * @throws {Error} when a page is not a 200 of every image
 */
export async function listPages() {
  const tls = await certificate();
  const work = mkdtempSync(join(tmpdir(), 'svc-sim-pages-'));
  const agent = new Agent({ keepAlive: true, maxSockets: 1, ca: tls.cert });
  let sim;
  try {
    sim = await startChild(work, tls, agent, { nodeFlags: ['--expose-gc'] });
    await seed(agent, sim.url, 0, PAGE_IMAGES);
    const before = await settledMB(sim);
    let bytes = 0;
    for (let i = 0; i < PAGES; i++) {
      // each body another order or offset: another answer, each of (nearly) every image
      const body = JSON.stringify({
        kind: 'image',
        offset: Math.floor(i / 8),
        length: PAGE_IMAGES,
        sort_attribute: ['name', 'uuid', 'creation_time', 'last_update_time'][i % 4],
        sort_order: (i >> 2) % 2 ? 'ASCENDING' : 'DESCENDING',
      });
      const answer = await post(agent, `${sim.url}/api/svc/v3/images/list`, body);
      if (answer.status !== 200) throw new Error(`a page: HTTP ${answer.status} ${answer.text.slice(0, 200)}`);
      bytes += answer.text.length;
    }
    const after = await settledMB(sim);
    const above = after - before;
    console.log(
      `\n${PAGES} list pages of up to ${PAGE_IMAGES} images over HTTPS, one after another (${(bytes / PAGES / 1024 ** 2).toFixed(1)} MB each on average):`,
    );
    console.log(
      `  simulator RSS once settled ${after.toFixed(1)} MB, ${above.toFixed(1)} MB above its ${before.toFixed(1)} MB before the pages   goal < ${PAGES_MB} MB above   met: ${above < PAGES_MB ? 'yes' : 'NO'}`,
    );
  } finally {
    agent.destroy();
    await sim?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
