// The jobs of the image tasks (tasks.js `define`): what each does (a fetch of `source_uri`, a
// check that an upload's bytes are there) and its effect on the image at its end, through the
// image's machine (compare-and-set: only from the state the task left it in).
import { TaskError } from './tasks.js';
import { hasData } from './transitions.js';

/**
 * @param {object} o
 * @param {import('./store.js').Store} o.store
 * @param {ReturnType<typeof import('./files.js').createFiles>} o.files
 * @param {import('./machine.js').Machine} o.machine  the images'
 * @param {ReturnType<typeof import('./topology.js').createTopology>} o.topology
 * @param {number} o.sourceLimitBytes
 * @param {number} o.sourceTimeoutMs
 * @param {(url: URL) => string | undefined} [o.trust]
 * @param {() => any} o.defaultContainer  the storage container an image goes to when none is named
 * @returns {Record<string, import('./tasks.js').Job>}
 */
export function imageJobs({
  store,
  files,
  machine,
  topology,
  sourceLimitBytes,
  sourceTimeoutMs,
  trust,
  defaultContainer,
}) {
  return {
    create_image: {
      async run(task, signal, progress) {
        const image = store.get('image', task.entity.uuid);
        if (!image?.sourceUri || image.state !== 'CREATING' || image.taskUuid !== task.uuid) return;
        // idempotent: a file in place is this task's own fetch, renamed before a stop
        if (files.size(image.uuid) !== undefined) return;
        await files.fetchSource(image.uuid, image.sourceUri, {
          limit: sourceLimitBytes,
          timeoutMs: sourceTimeoutMs,
          insecure: image.insecureSource,
          signal,
          progress,
          trust,
        });
      },
      succeed(task) {
        machine.ending(task, 'create_image succeeded', (i) => {
          if (i.sourceUri) {
            i.sizeBytes = files.size(i.uuid) ?? 0;
            i.containerUuid ??= defaultContainer()?.uuid;
          }
          i.clusterUuid ??= defaultContainer()?.clusterUuid;
        });
      },
      fail(task, error) {
        machine.ending(task, 'create_image failed', (i) => {
          i.error = error.message;
          // fetched bytes not kept: the image shows no size
          if (i.sourceUri && !hasData(i)) store.afterCommit(() => files.remove(i.uuid));
        });
      },
    },
    update_image: {
      succeed: (task) => machine.ending(task, 'update_image ended'),
      fail: (task) => machine.ending(task, 'update_image ended'),
    },
    delete_image: {
      succeed(task) {
        const { uuid } = task.entity;
        machine.ending(task, 'delete_image succeeded');
        // the bytes go after the commit; a stop before leaves a file this record accounts for
        store.put('unlink', uuid, { uuid });
        store.afterCommit(() => {
          files.remove(uuid);
          try {
            store.remove('unlink', uuid);
          } catch {
            // a full disk: the record stays, for the next start to clear
          }
        });
      },
      fail: (task) => machine.ending(task, 'delete_image failed'),
    },
    upload_image: {
      async run(task) {
        if (files.size(task.entity.uuid) === undefined)
          throw new TaskError('DATA_LOST', 'the uploaded data of the image is gone; upload again');
      },
      succeed(task) {
        machine.ending(task, 'upload_image succeeded', (i) => {
          i.sizeBytes = files.size(i.uuid) ?? 0;
          i.containerUuid = task.params.containerUuid;
          i.clusterUuid ??= topology.container(task.params.containerUuid)?.clusterUuid;
        });
      },
      fail(task) {
        machine.ending(task, 'upload_image failed');
        store.afterCommit(() => files.remove(task.entity.uuid));
      },
    },
  };
}
