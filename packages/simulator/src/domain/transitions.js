// The transition tables: per entity kind, its states, the requests and task ends that move it,
// and where each fact comes from. They are data: the domain moves an entity only through `move`
// (which reads them), and docs/service.md shows them as `renderTables` writes them (a test keeps
// the two equal). Source keys are those of docs/service.md's source table; `simulator` marks a
// gap the sources leave that the local svc fills its own way.

/**
 * @typedef {object} Row
 * @property {string[]} from  the states it is taken from (`[]`: the entity is created by it)
 * @property {string} event  what the code names the trigger: a request (`update`) or the end of a
 *   task (`update_image succeeded`)
 * @property {string} on  the trigger in words, for the docs
 * @property {string | null} to  the state it leads to; `null`: the entity is gone; `BEFORE`: the
 *   state it was in before the operation began (kept in the entity's `before`)
 * @property {string} [task]  the task the transition starts, in the same transaction
 * @property {(entity: any) => boolean} [when]  a further condition on the entity
 * @property {string} [whenText]  that condition in words, for the docs
 * @property {string} source
 */

/**
 * @typedef {object} Table
 * @property {string} kind  the entity kind (`image`)
 * @property {string} [field]  the entity's field that holds its state (default `state`)
 * @property {string} title  the heading in docs/service.md
 * @property {Record<string, { shown: string, means: string }>} states  each state, what the APIs
 *   show of it (v3 `status.state`) and what it means
 * @property {Row[]} rows
 * @property {string} [note]  a paragraph under the table
 */

/** `to` of a row that returns the entity to the state it had before the operation began. */
export const BEFORE = '(the state before)';

/** An image has its bytes. */
export const hasData = (i) => i.sizeBytes !== null && i.sizeBytes !== undefined;
/**
 * The bytes of an image may be written now: it has none, nobody writes them, it is not made from
 * a source (fetched, being fetched, or failed), and it is not an ERROR image being updated.
 */
const takesBytes = (i) => !hasData(i) && !i.writer && !i.sourceUri && i.before !== 'ERROR';

/** @type {Table} */
export const IMAGE = {
  kind: 'image',
  title: 'Image (one store under central v3, element v0.8 and v2.0)',
  states: {
    CREATING: { shown: 'PENDING', means: 'its create task runs (and fetches `source_uri`, when given)' },
    UPDATING: { shown: 'PENDING', means: 'its update task runs' },
    STAGING: { shown: 'PENDING', means: 'a two-phase upload task puts its bytes in a storage container' },
    COMPLETE: { shown: 'COMPLETE', means: 'usable; element `ACTIVE` once it has bytes, `INACTIVE` before' },
    ERROR: { shown: 'ERROR', means: 'its create task failed; the reason is in `status.message_list`' },
    DELETING: { shown: 'DELETE_PENDING', means: 'its delete task runs; the element-level API shows it gone' },
  },
  rows: [
    {
      from: [],
      event: 'create',
      on: 'create (v3 `POST /images`, v0.8/v2.0 `POST /images`)',
      to: 'CREATING',
      task: 'create_image',
      source: '[S3 `ntnx_images.py`, S2, S7, S8]',
    },
    {
      from: ['CREATING'],
      event: 'create_image succeeded',
      on: 'create_image succeeded',
      to: 'COMPLETE',
      source: '[S9, S3]; `size_bytes` and `retrieval_uri_list` once it has bytes',
    },
    {
      from: ['CREATING'],
      event: 'create_image failed',
      on: 'create_image failed',
      to: 'ERROR',
      source: '[S1 `message_list`]; simulator',
    },
    {
      from: ['COMPLETE', 'ERROR'],
      event: 'update',
      on: 'update (v3 `PUT /images/{uuid}` with the current `spec_version`, v2.0 `PUT`)',
      when: (i) => !i.writer,
      whenText: 'no upload is writing its bytes',
      to: 'UPDATING',
      task: 'update_image',
      source:
        '[S1, S2]; a stale `spec_version` answers 409, and an upload in progress refuses it as it does a delete: simulator (no public source shows production there)',
    },
    { from: ['UPDATING'], event: 'update_image ended', on: 'update_image ended', to: BEFORE, source: 'simulator' },
    {
      from: ['COMPLETE', 'ERROR'],
      event: 'delete',
      on: 'delete',
      when: (i) => !i.writer,
      whenText: 'no upload is writing its bytes',
      to: 'DELETING',
      task: 'delete_image',
      source: '[S2 `prism_service_test.go`]',
    },
    { from: ['DELETING'], event: 'delete_image succeeded', on: 'delete_image succeeded', to: null, source: '[S2]' },
    { from: ['DELETING'], event: 'delete_image failed', on: 'delete_image failed', to: BEFORE, source: 'simulator' },
    {
      from: ['CREATING', 'UPDATING', 'COMPLETE'],
      event: 'upload',
      on: 'upload (v3 `PUT /images/{uuid}/file`) begins',
      when: takesBytes,
      whenText: 'it has no bytes, no other writer, no `source_uri` and was not in `ERROR`',
      to: 'the same state, holding the writer slot',
      source: '[S3 `images.py`]; the one writer: simulator',
    },
    {
      from: ['CREATING', 'UPDATING', 'COMPLETE'],
      event: 'uploaded',
      on: 'upload (v3): all its bytes received, their checksum as declared',
      when: (i) => i.writer === 'upload',
      whenText: 'the upload holds the writer slot',
      to: 'the same state, with its bytes; the slot given back',
      source: '[S3 `images.py`]; simulator',
    },
    {
      from: ['CREATING', 'UPDATING', 'COMPLETE'],
      event: 'upload cut',
      on: 'an upload (v3 or v0.8) ends before all its bytes arrive, or a start finds one a stop cut',
      when: (i) => Boolean(i.writer),
      whenText: 'an upload holds the writer slot',
      to: 'the same state, without the bytes; the slot given back',
      source: 'simulator',
    },
    {
      from: ['COMPLETE'],
      event: 'stage',
      on: 'two-phase upload (v0.8 `PUT /images/{uuid}/upload`) begins',
      when: takesBytes,
      whenText: 'it has no bytes, no other writer and no `source_uri`',
      to: 'the same state, holding the writer slot',
      source: '[S8 `images_create`, S7]; simulator',
    },
    {
      from: ['COMPLETE'],
      event: 'staged',
      on: 'two-phase upload: all bytes received',
      to: 'STAGING',
      task: 'upload_image',
      source: '[S8]; the answer `{taskUuid, task_uuid}`: [S16]',
    },
    {
      from: ['STAGING'],
      event: 'upload_image succeeded',
      on: 'upload_image succeeded',
      to: 'COMPLETE',
      source: '[S8]; element `ACTIVE`, the container `usage_stats` grown',
    },
    {
      from: ['STAGING'],
      event: 'upload_image failed',
      on: 'upload_image failed',
      to: 'COMPLETE',
      source: 'simulator; the bytes are dropped',
    },
  ],
  note:
    'Any request the table does not list for the state the image is in is refused: v3 answers 409 ' +
    '`CONCURRENT_REQUESTS_NOT_ALLOWED` naming what runs, the element-level API 400 [S1 `message_resource`]; ' +
    "the wording is the simulator's. An upload whose bytes did not all arrive (a cut connection, " +
    'a restart) leaves the image as it was. A task whose entity has moved to a state its end does ' +
    'not expect ends `FAILED` and changes nothing (simulator).',
};

/** An abort of the task was asked and answered (kept in the task, so that it survives a restart). */
const abortAsked = (t) => t.requested === 'ABORTED';

/** @type {Table} */
export const TASK = {
  kind: 'task',
  field: 'status',
  title: 'Tasks',
  states: {
    QUEUED: { shown: 'QUEUED', means: 'accepted, not started (or interrupted by a restart, to run again)' },
    RUNNING: { shown: 'RUNNING', means: '`percentage_complete` rising with its work or time' },
    SUCCEEDED: { shown: 'SUCCEEDED', means: 'done; its effect is in the entity' },
    FAILED: {
      shown: 'FAILED',
      means: 'ended with `error_code` and `error_detail`; the entity unchanged or in its error state',
    },
    ABORTED: { shown: 'ABORTED', means: 'stopped by `POST /tasks/{uuid}/abort`; the entity as a failure leaves it' },
  },
  rows: [
    {
      from: [],
      event: 'create',
      on: 'an accepted create, update, delete, upload or certificate replacement',
      to: 'QUEUED',
      source: '[S1 enum, S3]; in the same transaction as the entity (simulator)',
    },
    {
      from: ['QUEUED'],
      event: 'started',
      on: 'started',
      to: 'RUNNING',
      source: '[S1, S3]; the timing: `--task-seconds` (simulator)',
    },
    {
      from: ['RUNNING'],
      event: 'succeeded',
      on: 'its work is done',
      when: (t) => !abortAsked(t),
      whenText: 'no abort was asked',
      to: 'SUCCEEDED',
      source: '[S2, S3]; in the same transaction as its effect on the entity (simulator)',
    },
    {
      from: ['QUEUED', 'RUNNING'],
      event: 'failed',
      on: 'its work fails (an unreachable source, a full disk)',
      when: (t) => !abortAsked(t),
      whenText: 'no abort was asked',
      to: 'FAILED',
      source: '[S3 `tasks.py`]; the codes: simulator',
    },
    {
      from: ['QUEUED', 'RUNNING'],
      event: 'abort',
      on: '`POST /tasks/{uuid}/abort`, answered 200',
      to: 'the same state, the abort kept (`requested_status: ABORTED`)',
      source: '[S1 `requested_status`]; kept with the task, so a restart cannot undo it: simulator',
    },
    {
      from: ['QUEUED', 'RUNNING'],
      event: 'aborted',
      on: 'its work stops, or ends, or the simulator restarts',
      when: abortAsked,
      whenText: 'an abort was asked',
      to: 'ABORTED',
      source: '[S1]; in the same transaction as the failure it leaves on the entity (simulator)',
    },
    {
      from: ['QUEUED', 'RUNNING'],
      event: 'restart',
      on: 'the simulator restarts',
      to: 'QUEUED',
      source: 'simulator: it runs again (its work is idempotent), `percentage_complete` kept from a stop',
    },
  ],
};

/** A state of an object store that a failed operation leaves. */
const failedStore = ['DEPLOYMENT_ERROR', 'DELETION_ERROR', 'CERT_ERROR'];

/** @type {Table} */
export const OBJECT_STORE = {
  kind: 'objectstore',
  title: 'Object store',
  states: {
    PENDING: { shown: 'PENDING', means: 'its deployment task runs (`percent_complete` rising)' },
    COMPLETE: { shown: 'COMPLETE', means: 'deployed, one bucket' },
    REPLACING_CERT: { shown: 'REPLACING_CERT', means: 'its certificate replacement task runs' },
    DELETING_INPUT: { shown: 'DELETING_INPUT', means: 'its delete task runs' },
    DEPLOYMENT_ERROR: { shown: 'DEPLOYMENT_ERROR', means: 'the deployment failed' },
    CERT_ERROR: { shown: 'CERT_ERROR', means: 'the certificate replacement failed' },
    DELETION_ERROR: { shown: 'DELETION_ERROR', means: 'the deletion failed' },
  },
  rows: [
    {
      from: [],
      event: 'create',
      on: 'create (`POST /objectstores`, a name not taken)',
      to: 'PENDING',
      task: 'create_objectstore',
      source: '[S6 `objectstore_monitor.py`, S11]',
    },
    {
      from: ['PENDING'],
      event: 'create_objectstore succeeded',
      on: 'create_objectstore succeeded',
      to: 'COMPLETE',
      source: '[S6]',
    },
    {
      from: ['PENDING'],
      event: 'create_objectstore failed',
      on: 'create_objectstore failed',
      to: 'DEPLOYMENT_ERROR',
      source: '[S6] a state containing `ERROR`; the name: simulator',
    },
    {
      from: ['COMPLETE'],
      event: 'regenerate_cert',
      on: '`POST /objectstores/{uuid}/regenerate_self_signed_cert`',
      to: 'REPLACING_CERT',
      task: 'regenerate_cert',
      source: '[S6 state list]; simulator',
    },
    {
      from: ['REPLACING_CERT'],
      event: 'regenerate_cert succeeded',
      on: 'regenerate_cert succeeded',
      to: 'COMPLETE',
      source: 'simulator',
    },
    {
      from: ['REPLACING_CERT'],
      event: 'regenerate_cert failed',
      on: 'regenerate_cert failed',
      to: 'CERT_ERROR',
      source: 'simulator',
    },
    {
      from: ['COMPLETE', ...failedStore],
      event: 'delete',
      on: '`DELETE /objectstores/{uuid}`',
      to: 'DELETING_INPUT',
      task: 'delete_objectstore',
      source: '[S6]; simulator',
    },
    {
      from: ['DELETING_INPUT'],
      event: 'delete_objectstore succeeded',
      on: 'delete_objectstore succeeded',
      to: null,
      source: '[S6]',
    },
    {
      from: ['DELETING_INPUT'],
      event: 'delete_objectstore failed',
      on: 'delete_objectstore failed',
      to: 'DELETION_ERROR',
      source: 'simulator',
    },
  ],
  note: 'Any other request in a state answers 409 `CONCURRENT_REQUESTS_NOT_ALLOWED` naming the state (simulator).',
};

/** @type {Table} */
export const SERVICE = {
  kind: 'service',
  title: 'Object store service',
  states: {
    DISABLED: { shown: 'DISABLED', means: 'never enabled, or its enablement failed' },
    ENABLING: { shown: 'ENABLING', means: 'its enablement task runs' },
    ENABLED: { shown: 'ENABLED', means: 'object stores may be created' },
  },
  rows: [
    {
      from: ['DISABLED'],
      event: 'enable',
      on: '`POST /services/oss`',
      to: 'ENABLING',
      task: 'enable_service',
      source: '[S10 `objects_enable`]',
    },
    {
      from: ['ENABLING', 'ENABLED'],
      event: 'enable again',
      on: '`POST /services/oss` again',
      to: 'the same state',
      source: 'simulator: answers the task already started',
    },
    {
      from: ['ENABLING'],
      event: 'enable_service succeeded',
      on: 'enable_service succeeded',
      to: 'ENABLED',
      source: '[S10]',
    },
    {
      from: ['ENABLING'],
      event: 'enable_service failed',
      on: 'enable_service failed',
      to: 'DISABLED',
      source: 'simulator',
    },
  ],
};

/** Every table, in the order docs/service.md shows them. */
export const TABLES = [TASK, IMAGE, OBJECT_STORE, SERVICE];

/**
 * The row of `table` that takes `entity` (undefined: being created) on `on`, or undefined when
 * the table refuses it.
 * @param {Table} table
 * @param {any} entity
 * @param {string} on  the row's `event`
 * @returns {Row | undefined}
 */
export function rowOf(table, entity, on) {
  return table.rows.find(
    (r) =>
      r.event === on &&
      (entity === undefined ? r.from.length === 0 : r.from.includes(entity[table.field ?? 'state'])) &&
      (!r.when || entity === undefined || r.when(entity)),
  );
}

/**
 * What a table shows of a state (v3 `status.state`).
 * @param {Table} table
 * @param {string} state
 * @returns {string}
 */
export const shown = (table, state) => table.states[state]?.shown ?? state;

/**
 * The tables as the Markdown docs/service.md carries between its `transitions` markers.
 * @param {Table[]} [tables]
 * @returns {string}
 */
export function renderTables(tables = TABLES) {
  const cell = (text) => String(text).replaceAll('|', '\\|');
  const stateName = (table, s) =>
    table.states[s].shown === s ? `\`${s}\`` : `\`${s}\` (\`${table.states[s].shown}\`)`;
  return tables
    .map((table) => {
      const states = Object.keys(table.states)
        .map((s) => `${stateName(table, s)}: ${table.states[s].means}`)
        .join('; ');
      const rows = table.rows.map((r) => {
        const from = r.from.length ? r.from.map((s) => `\`${s}\``).join(', ') : '(none)';
        const on = r.whenText ? `${r.on}, when ${r.whenText}` : r.on;
        const to = r.to === null ? '(gone)' : table.states[r.to] ? `\`${r.to}\`` : r.to;
        return `| ${from} | ${cell(on)} | ${to} | ${r.task ? `\`${r.task}\`` : ''} | ${cell(r.source)} |`;
      });
      return [
        `### ${table.title}`,
        '',
        `States (as the APIs show them): ${states}.`,
        '',
        '| from | event | to | task started | source |',
        '|---|---|---|---|---|',
        ...rows,
        ...(table.note ? ['', table.note] : []),
      ].join('\n');
    })
    .join('\n\n');
}

/** The markers in docs/service.md between which `renderTables` goes. */
const START = /<!-- transitions:start[^>]*-->\n/;
const END = '<!-- transitions:end -->';

/**
 * `text` (docs/service.md) with the tables written between its markers.
 * @param {string} text
 * @returns {string}
 * @throws {Error} when the markers are missing
 */
export function withTables(text) {
  const start = START.exec(text);
  const end = text.indexOf(END);
  if (!start || end < start.index) throw new Error('docs/service.md has no transitions markers');
  const from = start.index + start[0].length;
  return `${text.slice(0, from)}\n${renderTables()}\n\n${text.slice(end)}`;
}
