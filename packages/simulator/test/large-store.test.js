// A simulator started on a store of more entities than a page (seeded through the bulk path,
// domain/index.js openState, as the bench does): every list form of v3 images and tasks answers
// as the list semantics say (filter, sort both orders, a last page, an offset beyond the end,
// total_matches), and start-up recovery finds the cut uploads among them by an index.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openState } from '../src/domain/index.js';
import { startTestSimulator } from './support/sim.js';

const N = 1_500;
const T0 = Date.UTC(2026, 0, 1) * 1000;
const uuidOf = (prefix, i) => `${prefix}-0000-4000-8000-${String(i).padStart(12, '0')}`;
const images = Array.from({ length: N }, (_, i) => ({
  uuid: uuidOf('00000000', i),
  // mixed case and a shared prefix: the order is the collation's, not the code units'
  name: `${i % 2 ? 'Img' : 'img'}-${String((i * 7919) % N).padStart(5, '0')}`,
  imageType: i % 3 ? 'DISK_IMAGE' : 'ISO_IMAGE',
  categories: {},
  state: 'COMPLETE',
  sizeBytes: i % 5 ? (i * 37) % 1000 : null,
  createdUs: T0 + i * 1_000_000,
  updatedUs: T0 + i * 1_000_000,
  specVersion: 0,
}));
const tasks = images.map((image, i) => ({
  uuid: uuidOf('11111111', i),
  operation: 'create_image',
  status: i % 4 ? 'SUCCEEDED' : 'FAILED',
  percentage: 100,
  message: '',
  entity: { kind: 'image', uuid: image.uuid, name: image.name },
  params: {},
  createdUs: image.createdUs,
  updatedUs: image.createdUs,
  startedUs: image.createdUs,
  completedUs: image.createdUs,
  logicalTimestamp: 3,
  durationMs: 0,
  ...(i % 4 ? {} : { errorCode: 'INTERNAL_ERROR', errorDetail: 'seeded' }),
}));
// cut by a stop mid-upload: the writer slot persisted, and the legacy flag of older data dirs
const CUT = [images[700].uuid, images[1_200].uuid];
images[700].writer = 'upload';
images[1_200].uploading = true;

let t;
let dataDir;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'svc-sim-large-'));
  const store = openState(dataDir);
  store.batch(() => {
    for (const image of images) store.put('image', image.uuid, image);
    for (const task of tasks) store.put('task', task.uuid, task);
  });
  store.close();
  mkdirSync(join(dataDir, 'images'), { recursive: true });
  writeFileSync(join(dataDir, 'images', `${CUT[0]}.upload.part`), 'half an upload');
  t = await startTestSimulator({ dataDir });
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const byName = (a, b) => a.name.localeCompare(b.name);
const list = (kind, body) => t.call('POST', `/api/svc/v3/${kind}s/list`, { body: { kind, ...body } });

describe('a store of more entities than a page', () => {
  it('pages images in every form, from either end and beyond it', async () => {
    const first = await list('image', { offset: 0, length: 100 });
    expect(first.status).toBe(200);
    expect(first.body.metadata.total_matches).toBe(N);
    expect(first.body.entities.map((e) => e.metadata.uuid)).toEqual(images.slice(0, 100).map((i) => i.uuid));

    const last = await list('image', { offset: N - 30, length: 100, sort_order: 'DESCENDING' });
    expect(last.body.entities.map((e) => e.metadata.uuid)).toEqual(
      images
        .slice(0, 30)
        .map((i) => i.uuid)
        .reverse(),
    );

    const beyond = await list('image', { offset: N + 5, length: 10 });
    expect(beyond.body.metadata).toMatchObject({ total_matches: N, offset: N + 5, length: 0 });
    expect(beyond.body.entities).toEqual([]);

    const sorted = [...images].sort(byName);
    const up = await list('image', { offset: 1_000, length: 50, sort_attribute: 'name', sort_order: 'ASCENDING' });
    expect(up.body.entities.map((e) => e.spec.name)).toEqual(sorted.slice(1_000, 1_050).map((i) => i.name));
    const down = await list('image', { offset: 0, length: 50, sort_attribute: 'name', sort_order: 'DESCENDING' });
    expect(down.body.entities.map((e) => e.spec.name)).toEqual(
      [...sorted]
        .reverse()
        .slice(0, 50)
        .map((i) => i.name),
    );

    // images without a size come last in both orders, in creation order among themselves
    const sizes = await list('image', {
      offset: N - 10,
      length: 10,
      sort_attribute: 'size_bytes',
      sort_order: 'DESCENDING',
    });
    const sizeless = images.filter((i) => i.sizeBytes === null);
    expect(sizes.body.entities.map((e) => e.metadata.uuid)).toEqual(sizeless.slice(-10).map((i) => i.uuid));

    const iso = images.filter((i) => i.imageType === 'ISO_IMAGE');
    const filtered = await list('image', { offset: 10, length: 20, filter: 'image_type==ISO_IMAGE' });
    expect(filtered.body.metadata.total_matches).toBe(iso.length);
    expect(filtered.body.entities.map((e) => e.metadata.uuid)).toEqual(iso.slice(10, 30).map((i) => i.uuid));

    const both = images.filter((i) => i.imageType === 'ISO_IMAGE' && i.name === images[3].name);
    const one = await list('image', { filter: `image_type==ISO_IMAGE;name==${images[3].name}` });
    expect(one.body.metadata.total_matches).toBe(both.length);
    expect(both.length).toBe(1);

    const bad = await list('image', { sort_attribute: 'owner' });
    expect(bad.status).toBe(400);
    expect(bad.body.message_list[0].message).toMatch(
      /sort_attribute "owner" cannot be sorted on: use one of name, uuid/,
    );
    expect(t.violations).toEqual([]);
  });

  it('pages tasks by status and creation time', async () => {
    const failed = tasks.filter((x) => x.status === 'FAILED');
    const page = await list('task', { offset: failed.length - 7, length: 100, filter: 'status==FAILED' });
    expect(page.body.metadata.total_matches).toBe(failed.length);
    expect(page.body.entities.map((e) => e.uuid)).toEqual(failed.slice(-7).map((x) => x.uuid));

    const newest = await list('task', {
      offset: 0,
      length: 5,
      sort_attribute: 'creation_time',
      sort_order: 'DESCENDING',
    });
    expect(newest.body.entities.map((e) => e.uuid)).toEqual(
      tasks
        .slice(-5)
        .reverse()
        .map((x) => x.uuid),
    );
    expect(newest.body.metadata.total_matches).toBe(N);
    expect(t.violations).toEqual([]);
  });

  it('recovers the cut uploads at start: found among them, the part file removed, a new upload taken', async () => {
    expect(existsSync(join(dataDir, 'images', `${CUT[0]}.upload.part`))).toBe(false);
    for (const uuid of CUT) {
      const put = await t.call('PUT', `/api/svc/v3/images/${uuid}/file`, {
        body: new Uint8Array([1, 2, 3]),
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(put.status).toBe(200);
    }
    expect(t.violations).toEqual([]);
  });
});
