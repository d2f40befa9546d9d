// The client's workflows end to end against the simulator, through @svc/client as users call it.

import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { createCentralClient, createElementClient, TaskFailedError } from '@svc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, startTestSimulator } from './support/sim.js';
import { startSource } from './support/source.js';

let t;
let source;
let central;
let element;
const image = randomBytes(512 * 1024);
beforeAll(async () => {
  t = await startTestSimulator();
  source = await startSource({ '/cirros.qcow2': image });
  const common = { username: 'admin', password: PASSWORD, ca: t.sim.ca, retry: false };
  central = createCentralClient({ ...common, baseUrl: `${t.sim.url}/api/svc/v3` });
  element = createElementClient({ ...common, baseUrl: `${t.sim.url}/api/svc` });
});
afterAll(async () => {
  await t?.close();
  await source?.close();
});

/** `total` bytes in 1 MiB chunks of a repeated random block, hashed as they are made. */
function bigStream(total, hash) {
  const block = randomBytes(1024 * 1024);
  let sent = 0;
  return Readable.from(
    (function* () {
      while (sent < total) {
        const chunk = block.subarray(0, Math.min(block.length, total - sent));
        sent += chunk.length;
        hash.update(chunk);
        yield chunk;
      }
    })(),
  );
}

describe('@svc/client against the simulator', () => {
  it('createImageFromUrl from a local HTTP server returns the COMPLETE image with the real size', async () => {
    const created = await central.createImageFromUrl(
      { name: 'cirros', resources: { image_type: 'DISK_IMAGE', source_uri: `${source.url}/cirros.qcow2` } },
      { intervalMs: 20 },
    );
    expect(created.status.state).toBe('COMPLETE');
    expect(created.status.resources?.size_bytes).toBe(image.length);
  });

  it('waitForTask on a failing source rejects with TaskFailedError carrying error_code and error_detail', async () => {
    const { data } = await central.POST('/images', {
      body: {
        api_version: '3.1.0',
        metadata: { kind: 'image' },
        spec: {
          name: 'broken',
          resources: { image_type: 'DISK_IMAGE', source_uri: `${source.url}/nothing-here.qcow2` },
        },
      },
    });
    const task = data?.status.execution_context?.task_uuid;
    const error = await central.waitForTask(/** @type {string} */ (task), { intervalMs: 20 }).catch((e) => e);
    expect(error).toBeInstanceOf(TaskFailedError);
    expect(error.status).toBe('FAILED');
    expect(error.error_detail).toMatch(/nothing-here\.qcow2: 404/);
  });

  it('uploadImage streams 100 MB through the two-phase upload; the bytes come back identical', async () => {
    const sent = createHash('sha256');
    const size = 100 * 1024 * 1024;
    const uploaded = await element.uploadImage(
      {
        name: 'hundred-mb',
        imageType: 'DISK_IMAGE',
        container: 'default-container-33871',
        stream: bigStream(size, sent),
      },
      { intervalMs: 20 },
    );
    expect(uploaded.imageState).toBe('ACTIVE');
    const { data } = await central.GET('/images/{uuid}', { params: { path: { uuid: uploaded.uuid } } });
    expect(data?.status.resources?.size_bytes).toBe(size);
    const file = await central.GET('/images/{uuid}/file', {
      params: { path: { uuid: uploaded.uuid } },
      parseAs: 'stream',
    });
    const received = createHash('sha256');
    for await (const chunk of /** @type {any} */ (file.data)) received.update(chunk);
    expect(received.digest('hex')).toBe(sent.digest('hex'));
  });

  it('deleteImage waits for the delete task; the image is then 404', async () => {
    const { data } = await central.POST('/images', {
      body: {
        api_version: '3.1.0',
        metadata: { kind: 'image' },
        spec: { name: 'short-lived', resources: { image_type: 'ISO_IMAGE' } },
      },
    });
    const uuid = /** @type {string} */ (data?.metadata.uuid);
    const task = await central.deleteImage(uuid, { intervalMs: 20 });
    expect(task.status).toBe('SUCCEEDED');
    const after = await central.GET('/images/{uuid}', { params: { path: { uuid } } });
    expect(after.response.status).toBe(404);
  });

  it('paginate walks 250 images, each exactly once', async () => {
    const names = new Set();
    for (let i = 0; i < 250; i++) {
      const name = `page-${String(i).padStart(3, '0')}`;
      names.add(name);
      const { response } = await central.POST('/images', {
        body: {
          api_version: '3.1.0',
          metadata: { kind: 'image' },
          spec: { name, resources: { image_type: 'DISK_IMAGE' } },
        },
      });
      expect(response.status).toBe(202);
    }
    const seen = [];
    for await (const entity of central.paginate(
      '/images/list',
      { kind: 'image', sort_attribute: 'name', sort_order: 'ASCENDING' },
      { pageSize: 40 },
    )) {
      if (entity.spec?.name.startsWith('page-')) seen.push(entity.spec.name);
    }
    expect(seen).toEqual([...names].sort());
  });
});
