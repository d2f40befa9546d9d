// The one way an entity moves: by the row its table (transitions.js) has for the event in the
// state the entity is in, in one transaction with the task the row starts. Requests, task ends,
// start-up recovery and the upgrade of an older data dir all move entities through here.
import { BEFORE, rowOf } from './transitions.js';

/**
 * @typedef {object} Machine
 * @property {(entity: any, event: string, change?: (entity: any, row: import('./transitions.js').Row) => void,
 *   params?: any) => any} move  moves an entity (given, or read by its key) on `event`, in the open
 *   transaction or one of its own: the row's state (`BEFORE`: the state kept when the operation began), then
 *   `change`, the stamp, the row's task (with `params`); a row to `null` removes it. Returns the entity as
 *   stored (undefined when removed). Throws `notFound` or `refuse`'s error, changing nothing
 * @property {(fields: any, params?: any) => any} create  stores a new entity by the row of `create`, in one
 *   transaction with the row's task; returns it
 * @property {(task: any, event: string, change?: (entity: any) => void) => any} ending  a task's end on its
 *   entity, compare-and-set: only while the entity's running task is `task` and its table takes `event`;
 *   else throws `movedOn`'s error, changing nothing
 */

/**
 * The machine of one kind of entity.
 * @param {object} o
 * @param {import('./store.js').Store} o.store
 * @param {import('./transitions.js').Table} o.table
 * @param {{ start: (spec: { operation: string, entity: { kind: string, uuid: string, name?: string }, params?: any }) => { uuid: string } }} [o.tasks]
 *   starts the tasks of the rows that name one
 * @param {(key: string) => Error} o.notFound
 * @param {(entity: any, event: string) => Error} o.refuse  an event the table refuses in the entity's state
 * @param {(key: string, found: string, event: string) => Error} [o.movedOn]  a task end that no longer
 *   applies (`found`: the entity's state, or `gone`); default: `refuse`'s
 * @param {(entity: any) => string} [o.keyOf]  the entity's key in the store (default its `uuid`)
 * @param {(entity: any) => { kind: string, uuid: string, name?: string }} [o.refOf]  the entity as its tasks
 *   name it (default its kind, `uuid` and `name`)
 * @param {(task: any) => string} [o.keyOfTask]  the key of a task's entity (default `task.entity.uuid`)
 * @param {(key: string) => any} [o.initial]  the entity before it was ever stored (default: none)
 * @param {(entity: any) => void} [o.stamp]  marks a changed entity (its update time)
 * @param {(entity: any) => void} [o.moved]  called once the move has committed
 * @returns {Machine}
 */
export function createMachine({
  store,
  table,
  tasks,
  notFound,
  refuse,
  movedOn,
  keyOf = (e) => e.uuid,
  refOf = (e) => ({ kind: table.kind, uuid: e.uuid, name: e.name }),
  keyOfTask = (task) => task.entity.uuid,
  initial,
  stamp,
  moved,
}) {
  const field = table.field ?? 'state';
  /** The states a row returns from to the state before: entering one keeps the state it leaves. */
  const returning = new Set(table.rows.filter((r) => r.to === BEFORE).flatMap((r) => r.from));
  const read = (key) => store.get(table.kind, key) ?? initial?.(key);

  /** Applies `row` to `entity` and stores it (or removes it), in the open transaction. */
  function apply(entity, row, change, params) {
    const key = keyOf(entity);
    if (row.to === null) {
      store.remove(table.kind, key);
      return undefined;
    }
    if (row.to === BEFORE) {
      entity[field] = entity.before ?? Object.keys(table.states)[0];
      delete entity.before;
    } else if (table.states[row.to]) {
      if (returning.has(row.to)) entity.before = entity[field];
      entity[field] = row.to;
    }
    change?.(entity, row);
    stamp?.(entity);
    if (row.task && tasks) entity.taskUuid = tasks.start({ operation: row.task, entity: refOf(entity), params }).uuid;
    store.put(table.kind, key, entity);
    if (moved) store.afterCommit(() => moved(entity));
    return entity;
  }

  return {
    move(entityOrKey, event, change, params = {}) {
      return store.batch(() => {
        const entity = typeof entityOrKey === 'string' ? read(entityOrKey) : entityOrKey;
        if (!entity) throw notFound(/** @type {string} */ (entityOrKey));
        const row = rowOf(table, entity, event);
        if (!row) throw refuse(entity, event);
        return apply(entity, row, change, params);
      });
    },
    create(fields, params = {}) {
      return store.batch(() => {
        const row = rowOf(table, undefined, 'create');
        if (!row) throw refuse(fields, 'create');
        return apply({ ...fields }, row, undefined, params);
      });
    },
    ending(task, event, change) {
      return store.batch(() => {
        const key = keyOfTask(task);
        const entity = read(key);
        const row = entity && entity.taskUuid === task.uuid ? rowOf(table, entity, event) : undefined;
        if (!row) throw (movedOn ?? ((_k, _f, e) => refuse(entity, e)))(key, entity ? entity[field] : 'gone', event);
        return apply(entity, row, change, {});
      });
    },
  };
}
