// What the local svc's state view says, as functions without page state (tested in Node:
// test/page.test.js): counts, a task's title, where a violation is, a state's kind, which tasks
// run, which requests of the journal changed something and which are the page's own. ES module.

/** A task's states before its end. */
const UNFINISHED = new Set(['QUEUED', 'RUNNING']);

/** `n` and the noun, plural when not 1: `1 image`, `3 images`, `2 object stores`. */
export const count = (n, noun) => n + ' ' + noun + (n === 1 ? '' : 's');

/**
 * The view's line of counts (the health's), with the tasks that run where the view has read them.
 * @param {{ health?: { entities?: Record<string, number> }, tasks?: { items: any[] } }} state the view's (local-svc-state.js StateNow)
 * @returns {string}
 */
export function summaryLine(state) {
  const e = state.health?.entities;
  if (!e) return '';
  const parts = [count(e.image ?? 0, 'image'), count(e.task ?? 0, 'task'), count(e.object_store ?? 0, 'object store')];
  const running = unfinishedTasks(state.tasks).length;
  if (running) parts[1] += ' (' + running + ' running)';
  return parts.join(' · ');
}

/** A task's title: what it does (`create_image_intentful`: "create image") and its entity's name. */
export function taskTitle(task) {
  const what = String(task.operation_type ?? 'task')
    .replace(/_intentful$/, '')
    .replace(/_/g, ' ');
  const entity = task.entity_reference_list?.[0];
  const name = entity?.name ?? (entity?.uuid ? entity.kind + ' ' + String(entity.uuid).slice(0, 8) : '');
  return name ? what + ' "' + name + '"' : what;
}

/**
 * Where a violation is: the field of the body as a dotted path (`spec.resources.image_type`), a
 * parameter or header by name, or the part as a whole.
 * @param {{ in: string, path: string }} violation
 * @returns {string}
 */
export function violationField(violation) {
  const steps = String(violation.path ?? '')
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (!steps.length) return 'the ' + violation.in + ' as a whole';
  if (violation.in === 'body')
    return steps
      .map((s) => (/^\d+$/.test(s) ? '[' + s + ']' : s))
      .join('.')
      .replace(/\.\[/g, '[');
  return steps.join('/');
}

/** A byte count as people read it (`12.6 MiB`). */
export function bytes(n) {
  if (!Number.isFinite(n)) return '';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return (unit ? value.toFixed(1) : String(value)) + ' ' + units[unit];
}

/** The state word's kind, for its colour: done well, under way, failed, or neither. */
export function stateKind(state) {
  const s = String(state ?? '').toUpperCase();
  if (/^(COMPLETE|SUCCEEDED|ACTIVE|ENABLED)$/.test(s)) return 'ok';
  if (/^(PENDING|QUEUED|RUNNING|DELETE_PENDING|DEPLOYING|UPLOADING)$/.test(s) || s.endsWith('_PENDING')) return 'run';
  if (/^(ERROR|FAILED)$/.test(s) || s.endsWith('_FAILED')) return 'bad';
  return 'other';
}

/** The UUIDs of the tasks that have not ended, of the tasks listed. */
export function unfinishedTasks(tasks) {
  return (tasks?.items ?? []).filter((t) => UNFINISHED.has(t.status)).map((t) => t.uuid);
}

/** Whether a journal entry changed something: a 2xx to a method that writes, not a list, a poll or a query. */
export function isWrite(entry) {
  return (
    entry.method !== 'GET' &&
    entry.method !== 'HEAD' &&
    entry.status >= 200 &&
    entry.status < 300 &&
    !/\/(list|poll|groups)$/.test(entry.path)
  );
}

/**
 * The entries of the request journal that are the page's own requests: each of them matches at
 * most one entry, of its method and path, that arrived while it was under way.
 * @param {{ id: number, time: string, method: string, path: string }[]} entries the journal's (any order)
 * @param {{ method: string, path: string, from: number, to: number }[]} reads the page's own
 *   (local-fetch.js): method upper case, path as the journal writes it, sent and answered (ms)
 * @param {number} [slack] how far apart the two clocks' times of one request may be (ms)
 * @returns {Set<number>} their `id`s
 */
export function ownEntryIds(entries, reads, slack = 25) {
  const found = new Set();
  const used = new Set();
  for (const entry of entries) {
    const at = Date.parse(entry.time);
    const read = reads.find(
      (r) =>
        !used.has(r) &&
        r.method === entry.method &&
        r.path === entry.path &&
        at >= r.from - slack &&
        at <= r.to + slack,
    );
    if (!read) continue;
    used.add(read);
    found.add(entry.id);
  }
  return found;
}
