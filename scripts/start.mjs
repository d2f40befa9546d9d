// `npm start` (after the Node check, scripts/supported-node.mjs): installs what serving needs, bundles
// the descriptions, then serves (scripts/serve.mjs --build: the explorer built while Prism starts;
// the local svc, the mocks, the explorer), then reports the lint gate (Redocly and Spectral, in
// another process) as it finishes.
// Arguments go to serve (`npm start -- --port 9000`). The local svc's password: $SVC_PASSWORD (the
// name of the `export SVC_USER=admin SVC_PASSWORD=...` line it prints, which the samples read),
// else $SVC_SIM_PASSWORD, else the one kept in .simulator/password. Ctrl-C stops every server and
// says which in one line (`stopped: local svc, mock central, ..., explorer`); the lint ends with it.
// What it installs: nothing when node_modules is current; on a fresh clone only the root's
// `dependencies` and the workspaces' (`npm install --omit=dev`: no test, type or build tooling,
// which `npm test` and `npm install` add); a full install is kept full.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installArgs } from './lib/install-args.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

const args = installArgs(root);
if (args) {
  console.log(`start: npm ${args.join(' ')}`);
  if (spawnSync('npm', args, { cwd: root, stdio: 'inherit' }).status !== 0) {
    console.error('start: `npm install` failed (see above)');
    process.exit(1);
  }
}

// Loaded once installed: a fresh clone has none of these before.
const { apis } = await import('@svc/oas/apis');
const { bundleApi, redoclyConfig } = await import('./lib/redocly.mjs');
const config = await redoclyConfig();
try {
  await Promise.all(apis().map((api) => bundleApi(api, config)));
} catch (e) {
  console.error(e.message);
  process.exit(1);
}
// The servers, with the start's arguments (serve.mjs reads process.argv as its own), building the
// explorer while Prism starts.
process.argv.push('--build');
await import('./serve.mjs');

// The lint gate in its own process: the servers go on answering while it runs.
const lint = spawn(process.execPath, [join(root, 'scripts', 'lint-all.mjs')], { cwd: root, stdio: 'inherit' });
lint.on('error', (e) => console.error(`start: the lint did not run (${e.message})`));
process.on('exit', () => lint.kill());
