// Every resource the local svc opens is given back on every path (issue 58): a file streamed to a
// client that leaves, an upload cut at any point, a download that races a delete, a batch that
// waits on a long poll, an answer cache filled with large pages, and a request half-closed by its
// client. Each case counts what the process holds (its descriptors in /proc, the server's own
// figures: streams, budget reservations, waiters, cache bytes) before and after.
import { pbkdf2 } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prng } from '../src/faults.js';
import { ANSWER_CACHE_BYTES, ANSWER_CACHE_ENTRY_BYTES } from '../src/limits.js';
import { canCount, descriptors, extraDescriptors } from './support/leaks.js';
import { within } from './support/raw.js';
import { AUTH, startTestSimulator, waitTask } from './support/sim.js';
import { startHeldSource } from './support/source.js';

const V3 = '/api/svc/v3';
const MiB = 1024 * 1024;

/** @type {Awaited<ReturnType<typeof startTestSimulator>>} */
let t;
beforeAll(async () => {
  t = await startTestSimulator({ http: true });
});
afterAll(() => t?.close());

/** An image with `bytes`, created and uploaded over v3; its UUID. */
async function imageWith(bytes, name = 'leak') {
  const created = await t.call('POST', `${V3}/images`, {
    body: {
      api_version: '3.1.0',
      metadata: { kind: 'image' },
      spec: { name, resources: { image_type: 'DISK_IMAGE' } },
    },
  });
  await waitTask(t.call, created.body.status.execution_context.task_uuid);
  const uuid = created.body.metadata.uuid;
  if (bytes) {
    const put = await t.call('PUT', `${V3}/images/${uuid}/file`, {
      body: bytes,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(put.status).toBe(200);
  }
  return uuid;
}

/**
 * Sends `head` (and `body`, whole or its first `send` bytes) on a raw connection, reads until
 * `readBytes` bytes of the answer have arrived (or it ends), then destroys the connection.
 * @returns {Promise<number>} the bytes of the answer read
 */
function cutExchange(head, { body = Buffer.alloc(0), send = body.length, readBytes = 0 }) {
  const { port } = new URL(t.sim.url);
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port: Number(port) });
    let read = 0;
    const done = () => {
      socket.destroy();
      resolve(read);
    };
    socket.on('error', () => {});
    socket.on('close', () => resolve(read));
    socket.on('data', (chunk) => {
      read += chunk.length;
      if (read >= readBytes) done();
    });
    socket.on('connect', () => {
      socket.write(head);
      if (send > 0)
        socket.write(body.subarray(0, send), () => (readBytes === 0 && send < body.length ? done() : undefined));
      else if (readBytes === 0) setImmediate(done);
    });
  });
}

const random = prng(58);
/** What the process holds beyond `baseline` once the test's own pooled connections are closed. */
async function leftOpen(baseline) {
  await t.reconnect();
  return extraDescriptors(baseline);
}
const idle = { streams: 0, heldBytes: 0, parkedBytes: 0, waits: 0 };
/** The server's own figures once they are idle again (a stream's close is seen a tick after its descriptor's). */
async function serverFigures() {
  const figures = () => {
    const r = t.sim.resources();
    return { streams: r.streams, heldBytes: r.heldBytes, parkedBytes: r.parkedBytes, waits: r.waits };
  };
  for (
    const deadline = Date.now() + 20_000;
    JSON.stringify(figures()) !== JSON.stringify(idle) && Date.now() < deadline;
  )
    await new Promise((resolve) => setTimeout(resolve, 25));
  return figures();
}

describe.runIf(canCount)('every resource given back', () => {
  it('200 downloads cut at random points leave no descriptor and no stream open', async () => {
    const size = 4 * MiB;
    const uuid = await imageWith(Buffer.alloc(size, 9));
    const head = `GET ${V3}/images/${uuid}/file HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\n\r\n`;
    await t.reconnect();
    const baseline = descriptors();
    for (let round = 0; round < 20; round++)
      await Promise.all(
        Array.from({ length: 10 }, () => cutExchange(head, { readBytes: 1 + Math.floor(random() * (size / 2)) })),
      );
    expect(await leftOpen(baseline)).toEqual([]);
    expect(await serverFigures()).toEqual(idle);
    // the image's bytes are still whole for a reader that stays
    const whole = await t.call('GET', `${V3}/images/${uuid}/file`);
    expect(whole.body.length).toBe(size);
  });

  it('200 uploads cut at random points leave no descriptor, no partial file, and the image takes an upload', async () => {
    const uuid = await imageWith(undefined, 'cut-uploads');
    const size = 2 * MiB;
    const body = Buffer.alloc(size, 4);
    const head = `PUT ${V3}/images/${uuid}/file HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Type: application/octet-stream\r\nContent-Length: ${size}\r\n\r\n`;
    await t.reconnect();
    const baseline = descriptors();
    // one at a time: the image has one writer slot, and each cut upload must give it back
    for (let i = 0; i < 200; i++) await cutExchange(head, { body, send: Math.floor(random() * (size - 1)) });
    expect(await leftOpen(baseline)).toEqual([]);
    expect(await serverFigures()).toEqual(idle);
    const images = join(t.dataDir, 'images');
    expect(readdirSync(images).filter((name) => name.startsWith(uuid))).toEqual([]);
    // the slot is free: a whole upload is taken (the image may still be finishing a cut one's release)
    let put;
    // the last cut's release may still be on its way: a 409 until it is (a hang guard of 20 s)
    for (const deadline = Date.now() + 20_000; ; ) {
      put = await t.call('PUT', `${V3}/images/${uuid}/file`, {
        body,
        headers: { 'content-type': 'application/octet-stream' },
      });
      if (put.status !== 409 || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(put?.status).toBe(200);
    expect(existsSync(join(images, uuid))).toBe(true);
  });

  it('a download whose file is deleted before it is opened answers 404, and the server stays up', async () => {
    const uuid = await imageWith(Buffer.alloc(1000, 8), 'race-pinned');
    // the file is opened on libuv's threads: held busy, the open comes after the delete's unlink
    const busy = Array.from(
      { length: 4 },
      () => new Promise((resolve) => pbkdf2('p', 's', 400_000, 32, 'sha256', resolve)),
    );
    const download = t.call('GET', `${V3}/images/${uuid}/file`);
    const deleted = await t.call('DELETE', `${V3}/images/${uuid}`);
    await waitTask(t.call, deleted.body.status.execution_context.task_uuid);
    expect((await download).status).toBe(404);
    await Promise.all(busy);
    expect((await t.call('GET', `${V3}/images/${uuid}`)).status).toBe(404);
  });

  it('downloads that race deletes get the bytes or a 404, and give back what they opened', async () => {
    const bytes = Buffer.alloc(MiB, 3);
    await t.reconnect();
    const baseline = descriptors();
    for (let round = 0; round < 30; round++) {
      const uuid = await imageWith(bytes, `race-${round}`);
      const downloads = Array.from({ length: 6 }, () => t.call('GET', `${V3}/images/${uuid}/file`));
      const deleted = await t.call('DELETE', `${V3}/images/${uuid}`);
      expect(deleted.status).toBe(202);
      await waitTask(t.call, deleted.body.status.execution_context.task_uuid);
      for (const answer of await Promise.all(downloads)) {
        if (answer.status === 200) expect(Buffer.compare(answer.body, bytes)).toBe(0);
        else expect(answer.status).toBe(404);
      }
    }
    expect((await t.call('POST', `${V3}/images/list`, { body: { kind: 'image' } })).status).toBe(200);
    expect(await leftOpen(baseline)).toEqual([]);
    expect(await serverFigures()).toEqual(idle);
  });

  it('batches waiting on task polls hold no budget: another batch is answered while they wait', async () => {
    const source = await startHeldSource({ total: 4096, first: 16 });
    try {
      const created = await t.call('POST', `${V3}/images`, {
        body: {
          api_version: '3.1.0',
          metadata: { kind: 'image' },
          spec: { name: 'held', resources: { image_type: 'DISK_IMAGE', source_uri: source.url } },
        },
      });
      const task = created.body.status.execution_context.task_uuid;
      await source.started;
      const pollBatch = () =>
        t.call('POST', `${V3}/batch`, {
          body: {
            action_on_failure: 'CONTINUE',
            execution_order: 'SEQUENTIAL',
            api_request_list: [
              {
                operation: 'POST',
                path_and_params: '/api/nutanix/v3/tasks/poll',
                body: { task_uuid_list: [task], poll_timeout_seconds: 30 },
              },
            ],
          },
        });
      // more polling batches than the budget has room for while they wait (4)
      const polls = Array.from({ length: 6 }, pollBatch);
      for (let i = 0; t.sim.resources().waits < 6; i++) {
        if (i > 4000) throw new Error('the polls did not all start waiting');
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      // what they built before the poll (the answer's opening) is all they keep, parked apart
      expect(t.sim.resources().heldBytes).toBe(0);
      expect(t.sim.resources().parkedBytes).toBeLessThan(6 * 100);
      const other = await within(
        t.call('POST', `${V3}/batch`, {
          body: {
            api_request_list: [{ operation: 'GET', path_and_params: '/api/nutanix/v3/clusters/list' }],
          },
        }),
        'the other batch, answered while six batches wait on a poll',
      );
      expect(other.status).toBe(200);
      source.release();
      for (const poll of await Promise.all(polls)) {
        expect(poll.status).toBe(200);
        expect(poll.body.api_response_list[0].api_response.entities[0].status).toBe('SUCCEEDED');
      }
      expect(await serverFigures()).toEqual(idle);
    } finally {
      await source.close();
    }
  });

  it('answers a request that was sent whole and then half-closed', async () => {
    const uuid = await imageWith(undefined, 'half-closed');
    const body = Buffer.alloc(64 * 1024, 2);
    const { port } = new URL(t.sim.url);
    const answer = await new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port: Number(port), allowHalfOpen: true });
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk;
      });
      socket.on('end', () => {
        resolve(text);
        socket.end();
      });
      socket.on('error', reject);
      socket.on('connect', () => {
        socket.write(
          `PUT ${V3}/images/${uuid}/file HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Type: application/octet-stream\r\nContent-Length: ${body.length}\r\n\r\n`,
        );
        socket.end(body);
      });
    });
    expect(String(answer)).toMatch(/^HTTP\/1\.1 200 /);
    const got = await t.call('GET', `${V3}/images/${uuid}/file`);
    expect(got.body.length).toBe(body.length);
  });

  it('keeps the list answers it reuses within ANSWER_CACHE_BYTES, however many pages are asked', async () => {
    // 300 images of some 2.5 KB each: 100 pages of 90 are some 225 KB each (each kept), 22 MB in all
    const description = 'd'.repeat(1000);
    for (let i = 0; i < 300; i++) {
      const created = await t.call('POST', `${V3}/images`, {
        body: {
          api_version: '3.1.0',
          metadata: { kind: 'image' },
          spec: { name: `page-${i}`, description, resources: { image_type: 'DISK_IMAGE' } },
        },
      });
      expect(created.status).toBe(202);
    }
    let bytes = 0;
    for (let offset = 0; offset < 100; offset++) {
      const page = await t.call('POST', `${V3}/images/list`, { body: { kind: 'image', length: 90, offset } });
      expect(page.body.entities.length).toBe(90);
      bytes += page.text.length;
    }
    expect(bytes / 100).toBeLessThan(ANSWER_CACHE_ENTRY_BYTES);
    expect(bytes).toBeGreaterThan(ANSWER_CACHE_BYTES);
    // the route, target and validation caches hold 4 MiB at most beside it
    expect(t.sim.resources().cacheBytes).toBeLessThanOrEqual(ANSWER_CACHE_BYTES + 4 * MiB);
    // a page past the entry limit is not kept
    const before = t.sim.resources().cacheBytes;
    const large = await t.call('POST', `${V3}/images/list`, { body: { kind: 'image', length: 300 } });
    expect(large.text.length).toBeGreaterThan(ANSWER_CACHE_ENTRY_BYTES);
    expect(t.sim.resources().cacheBytes).toBeLessThanOrEqual(before + 4096);
  });
});
