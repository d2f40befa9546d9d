// The operations of issue 12: task abort, the object store service, v2.0 image get/update and
// task list, v0.8 task poll and list, and the bucket listing of an object store.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestSimulator, waitTask } from './support/sim.js';

let t;
let slow;
beforeAll(async () => {
  t = await startTestSimulator();
  slow = await startTestSimulator({ taskSeconds: 30 });
});
afterAll(async () => {
  await t?.close();
  await slow?.close();
});
afterEach(() => {
  expect(t.violations).toEqual([]);
  expect(slow.violations).toEqual([]);
});
const image = (name) => ({
  api_version: '3.1.0',
  metadata: { kind: 'image' },
  spec: { name, resources: { image_type: 'DISK_IMAGE' } },
});

describe('central: tasks_abort, services', () => {
  it('aborts a running task: requested_status then ABORTED; a finished one cannot be aborted', async () => {
    const created = await slow.call('POST', '/api/svc/v3/images', { body: image('to-abort') });
    const uuid = created.body.status.execution_context.task_uuid;
    const aborted = await slow.call('POST', `/api/svc/v3/tasks/${uuid}/abort`);
    expect(aborted.status).toBe(200);
    const task = await waitTask(slow.call, uuid);
    expect(task).toMatchObject({ status: 'ABORTED', requested_status: 'ABORTED' });
    expect((await slow.call('POST', `/api/svc/v3/tasks/${uuid}/abort`)).status).toBe(409);
    const missing = await slow.call('POST', '/api/svc/v3/tasks/0e09cf83-ac68-4f28-af70-6df9a43df4f0/abort');
    expect(missing.status).toBe(404);
  });

  it('enables the object store service through a task; the status follows', async () => {
    expect((await t.call('GET', '/api/svc/v3/services/oss/status')).body.service_enablement_status).toBe('DISABLED');
    const enabled = await t.call('POST', '/api/svc/v3/services/oss', { body: { state: 'ENABLE' } });
    expect(enabled.status).toBe(202);
    expect((await waitTask(t.call, enabled.body.task_uuid)).status).toBe('SUCCEEDED');
    expect((await t.call('GET', '/api/svc/v3/services/oss/status')).body).toEqual({
      service_enablement_status: 'ENABLED',
      task_uuid: enabled.body.task_uuid,
    });
    expect((await t.call('GET', '/api/svc/v3/services/files/status')).status).toBe(404);
  });
});

describe('element: v2.0 image get/update, task lists, v0.8 poll', () => {
  it('gets and updates a v2.0 image, lists its tasks in v2.0 and v0.8, long-polls a v0.8 task', async () => {
    const created = await t.call('POST', '/api/svc/v2.0/images', {
      body: { name: 'v2-update', image_type: 'ISO_IMAGE' },
    });
    const polled = await t.call('GET', `/api/svc/v0.8/tasks/${created.body.task_uuid}/poll?timeoutseconds=10`);
    expect(polled.body).toMatchObject({ isUnrecognized: false, taskInfo: { progressStatus: 'Succeeded' } });
    const uuid = polled.body.taskInfo.entityList[0].uuid;
    expect((await t.call('GET', `/api/svc/v2.0/images/${uuid}`)).body).toMatchObject({
      uuid,
      name: 'v2-update',
      image_state: 'INACTIVE',
    });
    const updated = await t.call('PUT', `/api/svc/v2.0/images/${uuid}`, {
      body: { name: 'v2-renamed', annotation: 'renamed' },
    });
    expect(updated.status).toBe(200);
    expect((await t.call('GET', `/api/svc/v2.0/images/${uuid}`)).body).toMatchObject({
      name: 'v2-renamed',
      annotation: 'renamed',
    });
    const v2 = await t.call('POST', '/api/svc/v2.0/tasks/list', {
      body: { entity_list: [{ entity_id: uuid }], include_completed: true },
    });
    expect(v2.body.entities.map((e) => e.uuid)).toEqual([created.body.task_uuid, updated.body.task_uuid]);
    const v08 = await t.call(
      'GET',
      `/api/svc/v0.8/tasks?entityUuids=${uuid}&includeCompleted=true&operationTypeList=ImageCreate`,
    );
    expect(v08.body.entities.map((e) => e.uuid)).toEqual([created.body.task_uuid]);
    const unknown = await t.call(
      'GET',
      '/api/svc/v0.8/tasks/0e09cf83-ac68-4f28-af70-6df9a43df4f0/poll?timeoutseconds=1',
    );
    expect(unknown.body.isUnrecognized).toBe(true);
  });

  it('lists only unfinished tasks for a v2.0 tasks/list {}, the spec default of include_completed', async () => {
    const done = await t.call('POST', '/api/svc/v2.0/images', { body: { name: 'v2-done', image_type: 'ISO_IMAGE' } });
    await waitTask(t.call, done.body.task_uuid);
    const running = await slow.call('POST', '/api/svc/v2.0/images', {
      body: { name: 'v2-running', image_type: 'ISO_IMAGE' },
    });
    for (const sim of [t, slow]) {
      const all = await sim.call('POST', '/api/svc/v2.0/tasks/list', { body: { include_completed: true } });
      const open = await sim.call('POST', '/api/svc/v2.0/tasks/list', { body: {} });
      expect(open.status).toBe(200);
      expect(open.body.entities.map((e) => e.uuid)).toEqual(
        all.body.entities
          .filter((e) => !['Succeeded', 'Failed', 'Aborted'].includes(e.progress_status))
          .map((e) => e.uuid),
      );
    }
    const listed = (sim) => sim.call('POST', '/api/svc/v2.0/tasks/list', { body: {} });
    expect((await listed(t)).body.entities.map((e) => e.uuid)).not.toContain(done.body.task_uuid);
    expect((await listed(slow)).body.entities.map((e) => e.uuid)).toContain(running.body.task_uuid);
  });

  it('lists v0.8 tasks of the entityTypes asked for only', async () => {
    const created = await t.call('POST', '/api/svc/v0.8/images', { body: { name: 'typed', imageType: 'DISK_IMAGE' } });
    await waitTask(t.call, created.body.taskUuid);
    const of = async (query) =>
      (await t.call('GET', `/api/svc/v0.8/tasks?includeCompleted=true${query}`)).body.entities.map((e) => e.uuid);
    expect(await of('&entityTypes=Cluster')).toEqual([]);
    expect(await of('&entityTypes=Image')).toContain(created.body.taskUuid);
    expect(await of('&entityTypes=Cluster&entityTypes=Image')).toContain(created.body.taskUuid);
    expect(await of('&entityTypes=Cluster,Image')).toContain(created.body.taskUuid);
    expect(await of('')).toContain(created.body.taskUuid);
  });

  it('times a v0.8 poll out while the task runs', async () => {
    const created = await slow.call('POST', '/api/svc/v0.8/images', {
      body: { name: 'slow', imageType: 'DISK_IMAGE' },
    });
    const polled = await slow.call('GET', `/api/svc/v0.8/tasks/${created.body.taskUuid}/poll?timeoutseconds=1`);
    expect(polled.body).toEqual({ timedOut: true, isUnrecognized: false });
  });
});
