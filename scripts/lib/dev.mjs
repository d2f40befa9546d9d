// Pieces of `npm run dev`: which APIs a saved file affects, the debounce of saves and the order of
// a rebuild's steps. The page's live reload is startExplorer's `liveReload` option.
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

/**
 * Runs `run` on batches, one run at a time: what arrives while a run is under way waits for it and
 * then goes in one run (saves made during a rebuild make one rebuild after it, not one each).
 * @template T
 * @param {(items: T[]) => Promise<void>} run
 * @param {(error: any) => void} onError  a run that rejected; the next batch still runs
 * @param {Promise<unknown>} [first] what the first run waits for (the first build)
 * @returns {(items: T[]) => void} adds items
 */
export function oneRunAtATime(run, onError, first) {
  let queued = [];
  let draining = false;
  return (items) => {
    queued.push(...items);
    if (draining) return;
    draining = true;
    (async () => {
      await Promise.resolve(first).catch(() => {});
      while (queued.length) {
        const batch = queued;
        queued = [];
        await run(batch).catch(onError);
      }
      draining = false;
    })();
  };
}

/**
 * The steps of one rebuild, injected so that the order can be tested without Redocly or a browser.
 * @typedef {object} RebuildSteps
 * @property {(api: any) => Promise<void>} bundle     writes the API's bundles; throws when the
 *   sources do not bundle, with `problems` (one line each, at the source file and line) or a message
 * @property {(api: any) => Promise<{ severity: string, text: string }[]>} lint  Redocly's findings
 * @property {() => Promise<void>} explorer           rebuilds the explorer from every bundle
 * @property {(names: string[]) => void} reload       tells the open pages to reload
 * @property {(api: any) => Promise<string[]>} spectral  Spectral's findings on the bundle, one text each
 * @property {(names: string[]) => Promise<void>} types  regenerates the client's types of these APIs
 * @property {(api: any) => Promise<void>} mock       reloads the API's mock from the new bundle
 * @property {(apiName: string, problems: import('@svc/explorer').DevProblem[]) => void} [report]
 *   what the open pages show of an API's sources: the lines of a bundle that failed (`stage:
 *   'bundle'`, the page keeps the last good build), else the linters' errors (`'lint'`); `[]`
 *   once the API bundles and lints clean
 */

/**
 * A bundle's or a linter's line (`spec/<file>:line:col <severity> <rule> <message>`, Spectral's
 * followed by a second line) as the page shows it.
 * @param {string} text
 * @param {'bundle' | 'lint'} stage
 * @returns {import('@svc/explorer').DevProblem}
 */
export function problemOf(text, stage) {
  const [first] = String(text).split('\n');
  const m = /^(\S+?):(\d+):(\d+) (?:error|warn|warning|info|hint) (.*)$/.exec(first);
  if (!m) return { file: '', message: first, stage };
  return { file: m[1], line: Number(m[2]), column: Number(m[3]), message: m[4], stage };
}

/**
 * Rebuilds `apiList` for `npm run dev`, as early as each step can: the bundles first; as soon as
 * they exist, the explorer is rebuilt and the page reloaded while the client types are generated
 * beside it; then the mocks reload, Redocly's lint and Spectral run. The types and the linters run
 * in threads (scripts/lib/types-worker.mjs, lint-worker.mjs), so the explorer server answers the
 * reloaded page meanwhile. Findings are logged when they arrive. A bundle that fails stops the
 * rebuild: one line per problem (a save mid-edit that is not YAML: one line at its file and line),
 * no reload, the page keeps the last good build.
 * @param {{ name: string }[]} apiList the APIs whose files changed
 * @param {RebuildSteps} steps
 * @param {(line: string) => void} log
 * @param {number} [since] `performance.now()` of the save, for the "reloaded N ms after the save" line
 * @returns {Promise<{ reloaded: boolean, findings: number, failed: number }>} once every step has
 *   ended; `findings` counts Redocly's and Spectral's, `failed` the steps that threw
 */
export async function rebuildApis(apiList, steps, log, since = performance.now()) {
  let findings = 0;
  let failed = 0;
  /** Runs one step, logs `ok` with its time or `FAIL` with its message; resolves to [ok, value]. */
  const timed = async (label, fn) => {
    const started = performance.now();
    try {
      const value = await fn();
      log(`  ok   ${label} (${Math.round(performance.now() - started)} ms)`);
      return [true, value];
    } catch (e) {
      failed++;
      log(`  FAIL ${label}\n${e?.message ?? e}`);
      return [false];
    }
  };
  /** Each API's errors for the page (report): a linter's error findings, each as a problem. */
  /** @type {Map<string, import('@svc/explorer').DevProblem[]>} */
  const lintErrors = new Map(apiList.map((api) => [api.name, []]));
  /** Runs a linter; its findings are logged under FAIL (an error) or `findings` (warnings only). */
  const linted = async (label, apiName, fn) => {
    const started = performance.now();
    try {
      const found = await fn();
      const took = `(${Math.round(performance.now() - started)} ms)`;
      if (!found.length) log(`  ok   ${label} ${took}`);
      else {
        findings += found.length;
        const isError = (f) => (typeof f === 'string' ? / error /.test(f.split('\n')[0]) : f.severity === 'error');
        const errors = found.some((f) => typeof f === 'string' || f.severity === 'error');
        log(`  ${errors ? 'FAIL' : 'warn'} ${label} ${took}: ${found.length} finding(s)`);
        for (const f of found) log(`    ${typeof f === 'string' ? f.replace(/\n/g, '\n    ') : f.text}`);
        lintErrors
          .get(apiName)
          ?.push(...found.filter(isError).map((f) => problemOf(typeof f === 'string' ? f : f.text, 'lint')));
      }
    } catch (e) {
      failed++;
      log(`  FAIL ${label}\n${e?.message ?? e}`);
    }
  };

  // a bundle's problems, one line each, or none when it was written
  const refused = await Promise.all(
    apiList.map(async (api) => {
      const started = performance.now();
      try {
        await steps.bundle(api);
        log(`  ok   bundle ${api.name} (${Math.round(performance.now() - started)} ms)`);
        return [];
      } catch (e) {
        return (e?.problems ?? [e?.message ?? String(e)]).map((problem) => `  FAIL bundle ${api.name}: ${problem}`);
      }
    }),
  );
  if (refused.some((lines) => lines.length)) {
    for (const line of refused.flat()) log(line);
    apiList.forEach((api, i) => {
      const prefix = `  FAIL bundle ${api.name}: `;
      if (refused[i].length)
        steps.report?.(
          api.name,
          refused[i].map((l) => problemOf(l.slice(prefix.length), 'bundle')),
        );
    });
    log('dev: not reloaded: the page keeps the last good build');
    return { reloaded: false, findings, failed: refused.filter((lines) => lines.length).length };
  }
  const names = apiList.map((a) => a.name);
  let reloaded = false;
  // The types first (a thread: the other core), then the page; the linters follow the reload, in
  // a thread of their own.
  const types = timed('generate client types', () => steps.types(names));
  const [built] = await timed('build explorer', steps.explorer);
  if (built) {
    steps.reload(names);
    reloaded = true;
    log(`dev: explorer reloaded (${names.join(', ')}), ${Math.round(performance.now() - since)} ms after the save`);
  }
  await Promise.all([
    types,
    ...apiList.map((api) => timed(`reload mock ${api.name}`, () => steps.mock(api))),
    ...apiList.map((api) => linted(`redocly lint ${api.name}`, api.name, () => steps.lint(api))),
    ...apiList.map((api) => linted(`spectral ${api.name}`, api.name, () => steps.spectral(api))),
  ]);
  // the page shows this build (or, when the explorer did not build, the last good one) and its errors
  for (const api of apiList) steps.report?.(api.name, lintErrors.get(api.name) ?? []);
  log(
    `dev: rebuilt ${names.join(', ')}${findings ? `: ${findings} finding(s), fix them and save` : ', no findings'}` +
      (failed ? `; ${failed} step(s) failed` : ''),
  );
  return { reloaded, findings, failed };
}
