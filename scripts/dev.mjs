// `npm run dev` for spec authors: watches spec/ and, on save, rebuilds only the APIs the saved
// files belong to (all of them for spec/common), as early as each step can (scripts/lib/dev.mjs
// rebuildApis): bundle, then the explorer rebuilt and the page reloaded while the client types,
// Spectral, Redocly's lint and the mock's reload run beside it; findings are printed when they
// arrive. The bundle and the explorer build run in this process; the types and the linters in
// threads, so that this process's event loop, the explorer server's, answers the reloaded page.
//   npm run dev -- [--port 8080]
// The explorer runs with its live-reload option: the page listens to server-sent events.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { commandLine, port as portCheck } from '@svc/args';
import { startExplorer } from '@svc/explorer';
import { apis, root, shownPath } from '@svc/oas/apis';
import { mockNote, onPortOrFree, startMocks, stopOnExit } from '@svc/serve';
import { watch } from 'chokidar';
import { affectedApis, debounceCollect, oneRunAtATime, rebuildApis } from './lib/dev.mjs';
import { startLintThread } from './lib/lint-worker.mjs';
import { bundleApi, redoclyConfig } from './lib/redocly.mjs';
import { startTypesWorker } from './lib/types-worker.mjs';

const specDir = join(root, 'spec');
const explorerDir = join(root, 'packages', 'explorer', 'dist');
const generateScript = join(root, 'packages', 'client', 'scripts', 'generate.mjs');

const { values } = commandLine('dev', 'Usage: npm run dev -- [--port 8080]   (0: any free port)', {
  options: { port: { type: 'string', default: '8080', check: portCheck } },
});
const port = values.port;

const all = apis();
const types = startTypesWorker(generateScript);
// Redocly's config and the Spectral ruleset load in the thread meanwhile the first bundles are written.
const linters = startLintThread();
const config = await redoclyConfig();
const { build: buildExplorer } = await import(
  pathToFileURL(join(root, 'packages', 'explorer', 'scripts', 'build.mjs')).href
);
const mocks = new Map();
let explorer;
let watcher;
/** What each API's sources give the page to show (a bundle that failed, lint errors): none when clean. */
/** @type {Map<string, import('@svc/explorer').DevProblem[]>} */
const problems = new Map();
const showProblems = () => explorer?.problems([...problems.values()].flat());

/** @type {import('./lib/dev.mjs').RebuildSteps} */
const steps = {
  bundle: (api) => bundleApi(api, config),
  lint: (api) => linters.redocly(api),
  explorer: () => buildExplorer({ outDir: explorerDir }),
  reload: (names) => {
    explorerBuilt(true);
    explorer?.reload(names.join(','));
  },
  spectral: (api) => linters.spectral(api),
  // The changed APIs' types are generated on the other core while this one rebuilds the page.
  types: (names) => types.generate(names),
  // Prism reads its document once per start: a reload starts the API's mock anew on the same port,
  // in the running Prism process.
  mock: (api) => mocks.get(api.name).reload(),
  // the open pages say what the last save broke, until a save fixes it
  report: (name, list) => {
    problems.set(name, list);
    showProblems();
  },
};

console.log('dev: first build of every API');
// The servers start once the explorer is built; the types and the linters go on meanwhile.
let explorerBuilt;
const built = new Promise((resolve) => (explorerBuilt = resolve));
// (no mock to reload: startMocks below starts them on the new bundles)
const first = rebuildApis(all, { ...steps, mock: async () => {} }, console.log).then((r) => {
  if (!r.reloaded) console.log('dev: the first build failed; fix the file and save, the watcher is on');
  explorerBuilt(false);
});
await built;

stopOnExit(() => {
  /** @type {Map<string, { close: () => unknown }>} what runs now, as the line at Ctrl-C names it */
  const now = new Map();
  now.set('types thread', types);
  now.set('lint thread', linters);
  if (watcher) now.set('watcher', watcher);
  if (explorer) now.set('explorer', explorer);
  for (const [name, mock] of mocks) now.set(`mock ${name}`, mock);
  return now;
});
await startMocks(0, mocks);
const mockUrls = Object.fromEntries([...mocks].map(([n, m]) => [n, m.url]));
explorer = await onPortOrFree(
  (p) => startExplorer({ dir: explorerDir, port: p, mocks: mockUrls, liveReload: true }),
  port,
);
showProblems(); // those of the first build, reported before the explorer listened

// Each rebuild waits for the one before (the first build's included), the saves meanwhile go in
// one rebuild; a failed one is reported and the next save still runs.
const onChanges = debounceCollect(
  oneRunAtATime(rebuildAndReload, (e) => console.log(`dev: rebuild failed: ${e.message}`), first),
  100,
);

/** Rebuilds the APIs the saved files belong to; the page reloads as soon as their bundles exist. */
async function rebuildAndReload(saves) {
  const files = saves.map((s) => s.file);
  const names = affectedApis(files, all, specDir);
  if (!names.length) return;
  console.log(`\ndev: ${[...new Set(files.map((f) => shownPath(f)))].join(', ')} changed -> ${names.join(', ')}`);
  const chosen = all.filter((a) => names.includes(a.name));
  await rebuildApis(chosen, steps, console.log, saves[0].at);
}

// chokidar, not fs.watch: Node 20's recursive fs.watch loses a file that an editor saves by
// writing a new file and renaming it over the old one (vim, sed -i, git checkout).
watcher = watch(specDir, { ignoreInitial: true, atomic: true }).on('all', (_event, file) => {
  if (/\.(ya?ml|json|md)$/.test(file)) onChanges({ file, at: performance.now() });
});
await new Promise((resolve) => watcher.once('ready', () => resolve(undefined)));

console.log(`\ndev: watching spec/ — explorer with live reload at ${explorer.url}`);
for (const [name, m] of mocks) console.log(`     mock ${name.padEnd(8)} ${m.url}   (${mockNote(name)})`);
console.log('     Ctrl-C stops.');
