// `npm run dev` for spec authors: watches spec/, and on save lints (Redocly, then Spectral) and
// re-bundles the API the file belongs to (all of them for spec/common), regenerates the client
// types, rebuilds the explorer, restarts that API's mock, and reloads the explorer page.
//   npm run dev -- [--port 8080]
// The explorer runs with its live-reload option: the page listens to server-sent events.
import { execFileSync } from 'node:child_process';
import { join, relative } from 'node:path';
import { startExplorer } from '@svc/explorer';
import { startMock } from '@svc/mock';
import { apis, root } from '@svc/oas/apis';
import { watch } from 'chokidar';
import { commandLine, port as portCheck } from './lib/args.mjs';
import { affectedApis, debounceCollect } from './lib/dev.mjs';
import { redoclyCli, redoclyEnv } from './lib/redocly.mjs';
import { onPortOrFree, startMocks, stopOnExit } from './lib/serve.mjs';

const specDir = join(root, 'spec');
const explorerDir = join(root, 'packages', 'explorer', 'dist');

const { values } = commandLine('dev', 'Usage: npm run dev -- [--port 8080]   (0: any free port)', {
  options: { port: { type: 'string', default: '8080', check: portCheck } },
});
const port = values.port;

/** Runs one step; prints its output only when it fails. Returns whether it passed. */
function step(label, args) {
  const started = Date.now();
  try {
    execFileSync(process.execPath, args, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
      env: redoclyEnv(),
      maxBuffer: 64 * 1024 * 1024,
    });
    console.log(`  ok   ${label} (${Date.now() - started} ms)`);
    return true;
  } catch (e) {
    console.log(`  FAIL ${label}\n${String(e.stdout ?? '')}${String(e.stderr ?? '')}`.trimEnd());
    return false;
  }
}

/** Lint, bundle and Spectral for each API, then types and explorer once. Returns whether all passed. */
function rebuild(names) {
  for (const name of names) {
    if (!step(`redocly lint ${name}`, [redoclyCli, 'lint', name, '--format', 'codeframe'])) return false;
    if (!step(`bundle ${name}`, [join(root, 'scripts', 'bundle.mjs'), name])) return false;
    if (!step(`spectral ${name}`, [join(root, 'scripts', 'lint-spectral.mjs'), name])) return false;
  }
  if (!step('generate client types', [join(root, 'packages', 'client', 'scripts', 'generate.mjs')])) return false;
  return step('build explorer', [join(root, 'packages', 'explorer', 'scripts', 'build.mjs')]);
}

const all = apis();
console.log('dev: first build of every API');
if (!rebuild(all.map((a) => a.name)))
  console.log('dev: the first build failed; fix the file and save, the watcher is on');

const mocks = new Map();
let explorer;
let watcher;
stopOnExit(() => [...(watcher ? [watcher] : []), ...(explorer ? [explorer] : []), ...mocks.values()]);
await startMocks(0, mocks);
const mockUrls = Object.fromEntries([...mocks].map(([n, m]) => [n, m.url]));
explorer = await onPortOrFree(
  (p) => startExplorer({ dir: explorerDir, port: p, mocks: mockUrls, liveReload: true }),
  port,
);

let busy = Promise.resolve();
const onChanges = debounceCollect((files) => {
  // Each rebuild waits for the one before; a failed one is reported and the next save still runs.
  busy = busy.then(() => rebuildAndReload(files)).catch((e) => console.log(`dev: rebuild failed: ${e.message}`));
}, 300);

/** Rebuilds the APIs the saved files belong to, restarts their mocks and reloads the page. */
async function rebuildAndReload(files) {
  const names = affectedApis(files, all, specDir);
  if (!names.length) return;
  console.log(`\ndev: ${[...new Set(files.map((f) => relative(root, f)))].join(', ')} changed -> ${names.join(', ')}`);
  if (!rebuild(names)) {
    console.log('dev: not reloaded; fix the finding above and save');
    return;
  }
  // Prism reads its document once: restart the changed APIs' mocks on the same ports.
  for (const name of names) {
    const old = mocks.get(name);
    await old.close();
    mocks.set(name, await startMock({ document: all.find((a) => a.name === name).bundle, port: old.port }));
  }
  explorer.reload(names.join(','));
  console.log(`dev: rebuilt ${names.join(', ')}; explorer reloaded`);
}

// chokidar, not fs.watch: Node 20's recursive fs.watch loses a file that an editor saves by
// writing a new file and renaming it over the old one (vim, sed -i, git checkout).
watcher = watch(specDir, { ignoreInitial: true, atomic: true }).on('all', (_event, file) => {
  if (/\.(ya?ml|json|md)$/.test(file)) onChanges(file);
});
await new Promise((resolve) => watcher.once('ready', resolve));

console.log(`\ndev: watching spec/ — explorer with live reload at ${explorer.url}`);
for (const [name, m] of mocks) console.log(`     mock ${name.padEnd(8)} ${m.url}`);
console.log('     Ctrl-C stops.');
