// Issue 44: the simulator answers every field its own spec declares. For every operation that
// answers an entity or a list, each JSON example of its 2xx answer names the fields the spec
// declares and fills (test/support/coverage.js); the simulator's answer for an equivalent entity
// (SCENARIOS, one per example) must carry each of them, or the field is in EXCEPTIONS, the one list
// of fields the simulator does not serve, each with the reason and a source. The test reads the
// bundles, so a field added to the spec and to an example, and not served, fails it.

import { readFileSync } from 'node:fs';
import { operations } from '@svc/oas';
import { apis } from '@svc/oas/apis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredFields, missingFields, responseExamples } from './support/coverage.js';
import { objectStoreSpec, seededTopology, startTestSimulator, waitTask } from './support/sim.js';

/**
 * The fields the spec's examples fill that the simulator does not answer, keyed by the schema
 * property that declares them (`<component>.<path in it>`); a field inside one is excused with it.
 * Each entry: why it is absent (state the simulator does not have, or nothing to derive it from)
 * and where the field comes from.
 * @type {Record<string, { reason: string, source: string }>}
 */
const EXCEPTIONS = {
  'ImageStatusResources.image_placement_policy_state_list': {
    reason:
      'state the simulator does not have: it models no image placement policies (the spec has no policy operation)',
    source: 'the vendor v3 swagger file, image_placement_policy_state (docs/service.md S1)',
  },
  'SubnetStatus.execution_context': {
    reason: "the subnet's last task: the simulator's subnets come from its topology, made by no task",
    source: 'a recorded subnet list of a central endpoint (docs/service.md S4, TestOperations_ListSubnet.yaml)',
  },
  'StorageContainerV2_0.mapped_remote_containers.*': {
    reason: 'state the simulator does not have: no remote sites, so no container is mapped to one (it answers {})',
    source:
      'a real storage container list (packages/contract-tests/conformance/element.storage_containers.list.response.ntnxrest-1.json)',
  },
};

/** The bundles, with their operations and the 2xx JSON examples. */
const bundles = apis().map(({ name, bundleJson }) => {
  const doc = JSON.parse(readFileSync(bundleJson, 'utf8'));
  return { name, doc, examples: responseExamples(doc, operations(doc)) };
});

let t; // tasks end at once
let slow; // tasks run for minutes: QUEUED/RUNNING states, time-outs, an empty store
let failing; // every task fails (--faults task-fail=1): a failed object store deployment
let ctl; // the control API's: reset, restored, its journal and rules changed

/** An image and an object store on the control API's simulator (what a reset removes, a snapshot holds). */
async function ctlEntities() {
  const created = await ok(ctl, 'POST', `${V3}/images`, { body: image('kept') });
  await waitTask(ctl.call, created.status.execution_context.task_uuid);
  const store = await ok(ctl, 'POST', `${OSS}/objectstores`, {
    body: storeBody('ctl-store', await seededTopology(ctl.call)),
  });
  await waitTask(ctl.call, await storeTask(ctl, store.metadata.uuid));
}
/** @type {{ cluster: string, subnets: string[] }} */
let topology;

const V3 = '/api/svc/v3';
const OSS = '/oss/api/svc/v3';
/** A v3 image create body with a description and a category. */
const image = (name, resources = {}) => ({
  api_version: '3.1.0',
  metadata: { kind: 'image', categories: { AppType: 'Default' } },
  spec: { name, description: `${name} for the coverage test`, resources: { image_type: 'DISK_IMAGE', ...resources } },
});

/** The answer of a call, checked to be a 2xx. */
async function ok(sim, method, path, o) {
  const answer = await sim.call(method, path, o);
  if (answer.status < 200 || answer.status > 299)
    throw new Error(`${method} ${path} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  return answer.body;
}

/** Waits until a task of the slow simulator is RUNNING (it is QUEUED for a moment first). */
async function running(sim, uuid) {
  for (let i = 0; i < 2000; i++) {
    const task = await ok(sim, 'GET', `${V3}/tasks/${uuid}`);
    if (task.status === 'RUNNING') return task;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`task ${uuid} never became RUNNING`);
}

/** Entities made once for the scenarios. */
const made = {};

/**
 * The simulator's answer for an entity equivalent to each example, keyed `<operationId> <example>`.
 * @type {Record<string, () => Promise<any>>}
 */
const SCENARIOS = {
  // central
  'batch_create BatchImagesAccepted': () =>
    ok(t, 'POST', `${V3}/batch`, {
      body: {
        action_on_failure: 'CONTINUE',
        execution_order: 'SEQUENTIAL',
        api_version: '3.0',
        api_request_list: [{ operation: 'POST', path_and_params: '/api/nutanix/v3/images', body: image('batched') }],
      },
    }),
  'batch_create BatchSubRequestFailed': () =>
    ok(t, 'POST', `${V3}/batch`, {
      body: {
        action_on_failure: 'CONTINUE',
        execution_order: 'SEQUENTIAL',
        api_version: '3.0',
        api_request_list: [
          {
            operation: 'POST',
            path_and_params: '/api/svc/v3/images',
            body: { api_version: '3.1.0', metadata: { kind: 'image' }, spec: { name: 'bad', resources: {} } },
          },
        ],
      },
    }),
  'clusters_list ClusterListPage': () => ok(t, 'POST', `${V3}/clusters/list`, { body: { kind: 'cluster' } }),
  'clusters_get ClusterGet': () => ok(t, 'GET', `${V3}/clusters/${topology.cluster}`),
  'images_create ImagePending': () => made.createAnswer,
  'images_list ImageListPage': () => ok(t, 'POST', `${V3}/images/list`, { body: { kind: 'image', length: 100 } }),
  'images_migrate ImageMigrateTask': () =>
    ok(t, 'POST', `${V3}/images/migrate`, {
      body: { image_reference_list: [], cluster_reference: { kind: 'cluster', uuid: topology.cluster } },
    }),
  'images_get ImageComplete': () => ok(t, 'GET', `${V3}/images/${made.complete}`),
  'images_get ImagePlaced': () => ok(t, 'GET', `${V3}/images/${made.placed}`),
  'images_update ImageUpdatePending': async () => {
    const current = await ok(t, 'GET', `${V3}/images/${made.complete}`);
    return ok(t, 'PUT', `${V3}/images/${made.complete}`, {
      body: { api_version: '3.1.0', metadata: current.metadata, spec: current.spec },
    });
  },
  'images_delete ImageDeletePending': async () => {
    const created = await ok(t, 'POST', `${V3}/images`, { body: image('to-delete') });
    await waitTask(t.call, created.status.execution_context.task_uuid);
    return ok(t, 'DELETE', `${V3}/images/${created.metadata.uuid}`);
  },
  'services_oss_enable OssEnableTask': () => ok(t, 'POST', `${V3}/services/oss`, { body: { state: 'ENABLE' } }),
  'services_get_status OssEnabled': async () => {
    const enabled = await ok(t, 'POST', `${V3}/services/oss`, { body: { state: 'ENABLE' } });
    await waitTask(t.call, enabled.task_uuid);
    return ok(t, 'GET', `${V3}/services/oss/status`);
  },
  'services_get_status OssNotEnabled': () => ok(slow, 'GET', `${V3}/services/oss/status`),
  'subnets_list SubnetListPage': () => ok(t, 'POST', `${V3}/subnets/list`, { body: { kind: 'subnet' } }),
  'subnets_get SubnetGet': () => ok(t, 'GET', `${V3}/subnets/${topology.subnets[0]}`),
  'tasks_list TaskListPage': () => ok(t, 'POST', `${V3}/tasks/list`, { body: { kind: 'task' } }),
  'tasks_poll TaskPollChanged': () =>
    ok(t, 'POST', `${V3}/tasks/poll`, { body: { task_uuid_list: [made.completeTask], poll_timeout_seconds: 1 } }),
  'tasks_poll TaskPollTimedOut': () =>
    ok(slow, 'POST', `${V3}/tasks/poll`, { body: { task_uuid_list: [made.slowTask], poll_timeout_seconds: 1 } }),
  'tasks_get TaskRunning': () => running(slow, made.slowTask),
  'tasks_get TaskSucceeded': () => ok(t, 'GET', `${V3}/tasks/${made.completeTask}`),
  'tasks_get TaskFailed': () => ok(t, 'GET', `${V3}/tasks/${made.failedTask}`),
  // the simulator's abort ends the task at once: its ABORTED answer stands for the aborting one too
  'tasks_get TaskAborting': () => ok(slow, 'GET', `${V3}/tasks/${made.abortedTask}`),
  'tasks_get TaskAborted': () => ok(slow, 'GET', `${V3}/tasks/${made.abortedTask}`),

  // element
  'images_list_v0_8 ImageListWithInactiveV0_8': () => ok(t, 'GET', '/api/svc/v0.8/images'),
  'images_create_v0_8 ImageCreateTaskV0_8': () =>
    ok(t, 'POST', '/api/svc/v0.8/images', { body: { name: 'v08-created', imageType: 'DISK_IMAGE' } }),
  'images_get_v0_8 ImageInactiveV0_8': () => ok(t, 'GET', `/api/svc/v0.8/images/${made.inactive}`),
  'images_get_v0_8 ImageActiveV0_8': () => ok(t, 'GET', `/api/svc/v0.8/images/${made.active}`),
  'images_delete_v0_8 ImageDeleteTaskV0_8': async () => {
    const uuid = await elementImage('v08-to-delete');
    return ok(t, 'DELETE', `/api/svc/v0.8/images/${uuid}`);
  },
  'images_upload_v0_8 ImageUploadTaskV0_8': () => made.uploadAnswer,
  'tasks_list_v0_8 TaskListV0_8': () => ok(t, 'GET', '/api/svc/v0.8/tasks?includeCompleted=true'),
  'tasks_get_v0_8 TaskSucceededV0_8': () => ok(t, 'GET', `/api/svc/v0.8/tasks/${made.completeTask}`),
  'tasks_get_v0_8 TaskRunningV0_8': async () => {
    await running(slow, made.slowTask);
    return ok(slow, 'GET', `/api/svc/v0.8/tasks/${made.slowTask}`);
  },
  'tasks_get_v0_8 TaskFailedV0_8': () => ok(t, 'GET', `/api/svc/v0.8/tasks/${made.failedTask}`),
  'tasks_poll_v0_8 TaskPollCompletedV0_8': () =>
    ok(t, 'GET', `/api/svc/v0.8/tasks/${made.completeTask}/poll?timeoutseconds=1`),
  'tasks_poll_v0_8 TaskPollTimedOutV0_8': () =>
    ok(slow, 'GET', `/api/svc/v0.8/tasks/${made.slowTask}/poll?timeoutseconds=1`),
  'images_list_v2_0 ImageListV2_0': () => ok(t, 'GET', '/api/svc/v2.0/images'),
  'images_create_v2_0 ImageCreateTaskV2_0': () =>
    ok(t, 'POST', '/api/svc/v2.0/images', { body: { name: 'v20-created', image_type: 'DISK_IMAGE' } }),
  'images_get_v2_0 ImageActiveV2_0': () => ok(t, 'GET', `/api/svc/v2.0/images/${made.active}`),
  'images_update_v2_0 ImageUpdateTaskV2_0': () =>
    ok(t, 'PUT', `/api/svc/v2.0/images/${made.active}`, { body: { annotation: 'updated by the coverage test' } }),
  'images_delete_v2_0 ImageDeleteTaskV2_0': async () => {
    const uuid = await elementImage('v20-to-delete');
    return ok(t, 'DELETE', `/api/svc/v2.0/images/${uuid}`);
  },
  'storage_containers_list_v2_0 StorageContainerListFirstPageV2_0': () =>
    ok(t, 'GET', '/api/svc/v2.0/storage_containers'),
  'storage_containers_get_v2_0 StorageContainerIsoV2_0': async () => {
    const list = await ok(t, 'GET', '/api/svc/v2.0/storage_containers');
    const iso = list.entities.find((c) => c.name === 'ISO');
    return ok(t, 'GET', `/api/svc/v2.0/storage_containers/${iso.storage_container_uuid}`);
  },
  'tasks_list_v2_0 TaskListV2_0': () =>
    ok(t, 'POST', '/api/svc/v2.0/tasks/list', { body: { include_completed: true } }),
  'tasks_poll_v2_0 TaskPollCompletedV2_0': () =>
    ok(t, 'POST', '/api/svc/v2.0/tasks/poll', { body: { completed_tasks: [made.failedTask], timeout_interval: 1 } }),
  'tasks_poll_v2_0 TaskPollTimedOutV2_0': () =>
    ok(slow, 'POST', '/api/svc/v2.0/tasks/poll', { body: { completed_tasks: [made.slowTask], timeout_interval: 1 } }),
  // control: a simulator of its own, as a reset would empty the others
  'health_list Health': () => ok(ctl, 'GET', '/_svc/health'),
  'reset_create ResetRemoved': async () => {
    await ctlEntities();
    return ok(ctl, 'POST', '/_svc/reset', { body: {} });
  },
  'snapshot_upload SnapshotRestored': async () => {
    await ctlEntities();
    const archive = await ctl.call('GET', '/_svc/snapshot');
    return ok(ctl, 'PUT', '/_svc/snapshot', {
      body: new Uint8Array(archive.body),
      headers: { 'content-type': 'application/x-tar' },
    });
  },
  'requests_list JournalTwoRequests': async () => {
    await ok(ctl, 'DELETE', '/_svc/requests');
    await ctl.call('POST', `${V3}/images`, { body: image('refused', { image_type: 'FLOPPY' }) });
    await ok(ctl, 'POST', `${V3}/images/list`, { body: { kind: 'image' } });
    return ok(ctl, 'GET', '/_svc/requests');
  },
  'requests_list JournalEmpty': async () => {
    await ok(ctl, 'DELETE', '/_svc/requests');
    return ok(ctl, 'GET', '/_svc/requests');
  },
  'faults_list FaultRulesRetryInForce': async () => {
    await ok(ctl, 'PUT', '/_svc/faults', {
      body: { rules: [{ operation_id: 'clusters_get', status: 503, probability: 1, count: 2 }] },
    });
    await ctl.call('GET', `${V3}/clusters/${topology.cluster}`);
    const listed = await ok(ctl, 'GET', '/_svc/faults');
    await ok(ctl, 'DELETE', '/_svc/faults');
    return listed;
  },
  'faults_list FaultRulesNone': async () => {
    await ok(ctl, 'DELETE', '/_svc/faults');
    return ok(ctl, 'GET', '/_svc/faults');
  },
  'faults_update FaultRulesRetry': async () => {
    const set = await ok(ctl, 'PUT', '/_svc/faults', {
      body: { rules: [{ operation_id: 'clusters_get', status: 503, probability: 1, count: 2 }] },
    });
    await ok(ctl, 'DELETE', '/_svc/faults');
    return set;
  },
  'tasks_complete TaskCompleted': async () => {
    await ok(ctl, 'PUT', '/_svc/settings', { body: { task_seconds: 3600 } });
    const created = await ok(ctl, 'POST', `${V3}/images`, { body: image('to-complete') });
    const done = await ok(ctl, 'POST', `/_svc/tasks/${created.status.execution_context.task_uuid}/complete`, {
      body: { status: 'SUCCEEDED' },
    });
    await ok(ctl, 'PUT', '/_svc/settings', { body: { task_seconds: 0 } });
    return done;
  },
  'settings_list SettingsDefault': () => ok(ctl, 'GET', '/_svc/settings'),
  'settings_update SettingsInstant': () => ok(ctl, 'PUT', '/_svc/settings', { body: { task_seconds: 0 } }),
  'tasks_get_v2_0 TaskSucceededV2_0': () => ok(t, 'GET', `/api/svc/v2.0/tasks/${made.completeTask}`),
  'tasks_get_v2_0 TaskRunningV2_0': async () => {
    await running(slow, made.slowTask);
    return ok(slow, 'GET', `/api/svc/v2.0/tasks/${made.slowTask}`);
  },
  'tasks_get_v2_0 TaskFailedV2_0': () => ok(t, 'GET', `/api/svc/v2.0/tasks/${made.failedTask}`),

  // objects
  'groups_list GroupsObjectstorePage': () => ok(t, 'POST', `${OSS}/groups`, { body: groupsQuery() }),
  'groups_list GroupsNoObjectstores': () => ok(slow, 'POST', `${OSS}/groups`, { body: groupsQuery() }),
  'objectstores_create ObjectstorePending': () => made.storeAnswer,
  'objectstores_list ObjectstoreListOne': () => ok(t, 'GET', `${OSS}/objectstores/list`),
  'objectstores_list ObjectstoreListEmpty': () => ok(slow, 'GET', `${OSS}/objectstores/list`),
  'objectstores_get ObjectstoreDeploying': () => ok(slow, 'GET', `${OSS}/objectstores/${made.deployingStore}`),
  'objectstores_get ObjectstoreComplete': () => ok(t, 'GET', `${OSS}/objectstores/${made.store}`),
  'objectstores_get ObjectstoreDeploymentFailed': () => ok(failing, 'GET', `${OSS}/objectstores/${made.failedStore}`),
  'objectstores_groups_list GroupsBucketPage': () =>
    ok(t, 'POST', `${OSS}/objectstores/${made.store}/groups`, {
      body: {
        entity_type: 'bucket',
        group_member_attributes: ['name', 'storage_usage_bytes', 'object_count'].map((attribute) => ({ attribute })),
      },
    }),
};

/** The groups query of the object store listing, asking the attributes the example shows. */
const groupsQuery = () => ({
  entity_type: 'objectstore',
  group_member_attributes: [
    'name',
    'domain',
    'state',
    'percentage_complete',
    'error_message_list',
    'cluster_name',
    'num_msp_workers',
    'total_capacity_gib',
    'num_buckets',
    'usage_bytes',
    'num_objects',
    'num_alerts_critical',
    'num_alerts_warning',
    'client_access_network_ip_list',
  ].map((attribute) => ({ attribute })),
});

/** An object store create body on a simulator's topology, with a description. */
function storeBody(name, { cluster, subnets }, range = false) {
  const spec = { ...objectStoreSpec(name, cluster, subnets), description: `${name} for the coverage test` };
  if (range) {
    delete spec.resources.client_access_network_ip_list;
    spec.resources.client_access_network_ipv4_range = { ipv4_start: '10.10.120.31', ipv4_end: '10.10.120.34' };
  }
  return { api_version: '3.0', metadata: { kind: 'objectstore' }, spec };
}

/** A v0.8 image made and its create task ended; its UUID. */
async function elementImage(name) {
  const { taskUuid } = await ok(t, 'POST', '/api/svc/v0.8/images', {
    body: { name, annotation: `${name} for the coverage test`, imageType: 'DISK_IMAGE' },
  });
  const done = await ok(t, 'GET', `/api/svc/v0.8/tasks/${taskUuid}/poll?timeoutseconds=30`);
  return done.taskInfo.entityList[0].uuid;
}

beforeAll(async () => {
  t = await startTestSimulator();
  slow = await startTestSimulator({ taskSeconds: 600 });
  failing = await startTestSimulator({ faults: { taskFailRate: 1 } });
  ctl = await startTestSimulator();
  topology = await seededTopology(t.call);
  const sample = `${t.sim.url}/samples/cirros.img`;
  const resources = {
    source_uri: sample,
    architecture: 'X86_64',
    version: { product_name: 'cirros', product_version: '0.6.2' },
  };

  made.createAnswer = await ok(t, 'POST', `${V3}/images`, { body: image('complete', resources) });
  made.complete = made.createAnswer.metadata.uuid;
  made.completeTask = made.createAnswer.status.execution_context.task_uuid;
  await waitTask(t.call, made.completeTask);
  const placed = await ok(t, 'POST', `${V3}/images`, {
    body: image('placed', { ...resources, initial_placement_ref_list: [{ kind: 'cluster', uuid: topology.cluster }] }),
  });
  made.placed = placed.metadata.uuid;
  await waitTask(t.call, placed.status.execution_context.task_uuid);
  const failed = await ok(t, 'POST', `${V3}/images`, {
    body: image('unreachable', { source_uri: 'http://127.0.0.1:1/none.img' }),
  });
  made.failedTask = failed.status.execution_context.task_uuid;
  await waitTask(t.call, made.failedTask);

  // v0.8: one image without bytes, one uploaded through the two-phase upload
  made.inactive = await elementImage('v08-inactive');
  made.active = await elementImage('v08-active');
  const containers = await ok(t, 'GET', '/api/svc/v2.0/storage_containers');
  made.uploadAnswer = await ok(t, 'PUT', `/api/svc/v0.8/images/${made.active}/upload`, {
    body: new Uint8Array(4096).fill(7),
    headers: {
      'content-type': 'application/octet-stream',
      'x-svc-destination-container': containers.entities[0].storage_container_uuid,
    },
  });
  await waitTask(t.call, made.uploadAnswer.taskUuid);

  made.storeAnswer = await ok(t, 'POST', `${OSS}/objectstores`, { body: storeBody('store', topology) });
  made.store = made.storeAnswer.metadata.uuid;
  await waitTask(t.call, await storeTask(t, made.store));

  const slowTopology = await seededTopology(slow.call);
  const slowImage = await ok(slow, 'POST', `${V3}/images`, { body: image('slow') });
  made.slowTask = slowImage.status.execution_context.task_uuid;
  const toAbort = await ok(slow, 'POST', `${V3}/images`, { body: image('to-abort') });
  made.abortedTask = toAbort.status.execution_context.task_uuid;
  await running(slow, made.abortedTask);
  await ok(slow, 'POST', `${V3}/tasks/${made.abortedTask}/abort`);
  await waitTask(slow.call, made.abortedTask);
  made.deployingStore = (
    await ok(slow, 'POST', `${OSS}/objectstores`, { body: storeBody('deploying', slowTopology) })
  ).metadata.uuid;

  const failingTopology = await seededTopology(failing.call);
  made.failedStore = (
    await ok(failing, 'POST', `${OSS}/objectstores`, { body: storeBody('failing', failingTopology, true) })
  ).metadata.uuid;
  await waitTask(failing.call, await storeTask(failing, made.failedStore));
});

afterAll(async () => {
  await t?.close();
  await slow?.close();
  await failing?.close();
  await ctl?.close();
});

/** The task of an object store's deployment, found by its entity. */
async function storeTask(sim, uuid) {
  const list = await ok(sim, 'POST', `${V3}/tasks/list`, { body: { kind: 'task', filter: `entity_uuid==${uuid}` } });
  return list.entities[0].uuid;
}

describe('the simulator answers every field its spec declares and its examples fill', () => {
  const all = bundles.flatMap(({ name, doc, examples }) => examples.map((ex) => ({ api: name, doc, ...ex })));

  it('has an equivalent answer for every 2xx JSON example of every operation', () => {
    const keys = all.map((ex) => `${ex.operationId} ${ex.name}`);
    expect(keys.filter((k) => !SCENARIOS[k])).toEqual([]);
    expect(Object.keys(SCENARIOS).filter((k) => !keys.includes(k))).toEqual([]);
  });

  const used = new Set();
  const checked = new Set();
  for (const ex of all) {
    it(`${ex.api} ${ex.operationId}: ${ex.name}`, async () => {
      checked.add(ex);
      const answer = await SCENARIOS[`${ex.operationId} ${ex.name}`]();
      const missing = missingFields(
        declaredFields(ex.doc, ex.schema, ex.value),
        declaredFields(ex.doc, ex.schema, answer),
        EXCEPTIONS,
      );
      for (const m of missing) if (m.excusedBy) used.add(m.excusedBy);
      expect(missing.filter((m) => !m.excusedBy).map((m) => `${m.path} (${m.declared})`)).toEqual([]);
    });
  }

  it('lists no exception that nothing needs (the list stays short and true)', () => {
    expect(checked.size, 'every example checked above').toBe(all.length);
    expect(Object.keys(EXCEPTIONS).filter((k) => !used.has(k))).toEqual([]);
  });

  it('fails on a field the spec declares and an example fills that the simulator does not answer', async () => {
    // a copy of the central bundle with one more build field, filled by the cluster example
    const doc = structuredClone(bundles.find((b) => b.name === 'central').doc);
    doc.components.schemas.ClusterBuild.properties.release_channel = { type: 'string' };
    const ex = responseExamples(doc, operations(doc)).find((e) => e.name === 'ClusterGet');
    ex.value.status.resources.config.build.release_channel = 'stable';
    const answer = await SCENARIOS['clusters_get ClusterGet']();
    expect(
      missingFields(declaredFields(doc, ex.schema, ex.value), declaredFields(doc, ex.schema, answer), EXCEPTIONS),
    ).toEqual([
      {
        path: 'status.resources.config.build.release_channel',
        declared: 'ClusterBuild.release_channel',
        excusedBy: undefined,
      },
    ]);
  });

  it('answers what the spec declares, as validated by every call above', () => {
    expect([...t.violations, ...slow.violations, ...failing.violations, ...ctl.violations]).toEqual([]);
  });
});
