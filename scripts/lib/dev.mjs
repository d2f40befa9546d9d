// Pieces of `npm run dev`: which APIs a saved file affects, and the debounce of saves. The page's
// live reload is startExplorer's `liveReload` option.
import { relative, sep } from 'node:path';

/**
 * The APIs whose bundle a change of `files` can alter. A file in an API's own folder
 * (`spec/central/...`) affects that API; any other file under `spec/` (`spec/common/...`) may be
 * referenced by every API, so it affects all of them.
 * @param {string[]} files    absolute paths of changed files
 * @param {{ name: string, root: string }[]} apiList  from `@svc/oas/apis` (absolute roots)
 * @param {string} specDir    absolute path of `spec/`
 * @returns {string[]} API names, in the order of `apiList`
 */
export function affectedApis(files, apiList, specDir) {
  const folders = new Map(apiList.map((a) => [relative(specDir, a.root).split(sep)[0], a.name]));
  const hit = new Set();
  for (const file of files) {
    const rel = relative(specDir, file);
    if (rel.startsWith('..')) continue;
    const own = folders.get(rel.split(sep)[0]);
    if (own && rel.includes(sep)) hit.add(own);
    else for (const a of apiList) hit.add(a.name);
  }
  return apiList.map((a) => a.name).filter((n) => hit.has(n));
}

/**
 * Calls `fn` once `waitMs` after the last of a burst of calls, with every argument of the burst.
 * @template T
 * @param {(items: T[]) => void} fn
 * @param {number} waitMs
 * @returns {(item: T) => void}
 */
export function debounceCollect(fn, waitMs) {
  let items = [];
  let timer;
  return (item) => {
    items.push(item);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const batch = items;
      items = [];
      fn(batch);
    }, waitMs);
  };
}
