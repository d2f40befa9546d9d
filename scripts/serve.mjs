// Serves what `npm run build` made: the local svc (the simulator, HTTPS with its self-signed
// certificate, data in .simulator/), one Prism mock per bundled API and the API explorer in front
// of them, all on 127.0.0.1. Prints the URLs and runs until Ctrl-C. "Try it out" goes to the local
// svc by default. The simulator's password is $SVC_PASSWORD (the name every sample of the explorer
// reads), else $SVC_SIM_PASSWORD (the simulator's own setting), else the one kept in .simulator/password (generated at
// the first start, mode 0600, so a tab authorized before a restart stays so), printed in an
// `export` line. The explorer also
// forwards "Try it out" requests to real endpoints (no CORS needed); --ca adds CA certificates
// (PEM file) to trust for them beside Node's own.
// The forwarder refuses this machine's other ports unless --allow-loopback.
// --build builds the explorer first (`npm start` uses it), while Prism starts in its own process.
//   npm run serve -- [--port 8080] [--mock-port 4010] [--sim-port 9440] [--data .simulator] [--ca corp-ca.pem] [--allow-loopback] [--build]
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { commandLine, port, usageExit } from '@svc/args';
import { root, shownPath } from '@svc/oas/apis';
import { credentialsLine, mockNote, onPortOrFree, startMocks, stopOnExit } from '@svc/serve';

const USAGE =
  'Usage: npm run serve -- [--port 8080] [--mock-port 4010] [--sim-port 9440] [--data <dir>] [--ca <PEM file>] [--allow-loopback] [--build]   (0: any free port)';
const { values } = commandLine('serve', USAGE, {
  options: {
    port: { type: 'string', default: process.env.EXPLORER_PORT || '8080', check: port },
    'mock-port': { type: 'string', default: process.env.MOCK_PORT || '4010', check: port },
    'sim-port': { type: 'string', default: process.env.SIM_PORT || '9440', check: port },
    data: { type: 'string' },
    ca: { type: 'string' },
    'allow-loopback': { type: 'boolean', default: false },
    build: { type: 'boolean', default: false },
  },
});

let ca;
if (values.ca !== undefined) {
  try {
    ca = readFileSync(values.ca, 'utf8');
  } catch (error) {
    usageExit('serve', USAGE, `--ca must name a readable PEM file (${error.code ?? 'unreadable'})`);
  }
  if (!ca.includes('-----BEGIN CERTIFICATE-----')) {
    usageExit('serve', USAGE, '--ca must name a PEM file with at least one certificate; the file has none');
  }
}

const explorerPort = values.port;
const firstMockPort = values['mock-port'];
const simPort = values['sim-port'];
const explorerDir = join(root, 'packages', 'explorer', 'dist');
if (!values.build && !existsSync(explorerDir)) {
  console.error('packages/explorer/dist is missing: run `npm run build` first, or serve with --build');
  process.exit(2);
}

// loaded once the options are checked: a bad one is answered at once
const [{ startExplorer }, { DEFAULT_DATA_DIR, keptPassword, startSimulator }] = await Promise.all([
  import('@svc/explorer'),
  import('@svc/simulator'),
]);
// SVC_PASSWORD first: the name the samples send; SVC_SIM_PASSWORD (the simulator's own setting) is read too
const chosenFrom = ['SVC_PASSWORD', 'SVC_SIM_PASSWORD'].find((name) => process.env[name]);
const chosen = chosenFrom && process.env[chosenFrom];
const dataDir = resolve(values.data ?? DEFAULT_DATA_DIR);
const shownData = shownPath(dataDir);
let kept;
try {
  kept = chosen ? undefined : keptPassword(dataDir);
} catch (error) {
  console.error(`serve: ${error.message}; set SVC_PASSWORD to choose one`);
  process.exit(1);
}
const generated = !chosen;
const simPassword = chosen || kept.password;
const mocks = new Map();
let simulator;
let explorer;
stopOnExit(() => {
  /** @type {Map<string, { close: () => unknown }>} what runs now, as the line at Ctrl-C names it */
  const now = new Map();
  if (simulator) now.set('local svc', simulator);
  for (const [name, mock] of mocks) now.set(`mock ${name}`, mock);
  if (explorer) now.set('explorer', explorer);
  return now;
});
// Prism loads in its own process meanwhile (some 2 CPU-s): the explorer's build and the local svc
// run beside it.
const mocksStarted = startMocks(firstMockPort, mocks);
mocksStarted.catch(() => {}); // awaited below; a failure is thrown there
if (values.build) {
  const { build } = await import('../packages/explorer/scripts/build.mjs');
  try {
    await build({ outDir: explorerDir });
  } catch (error) {
    console.error(`serve: ${error.message}`);
    process.exit(1);
  }
}
simulator = await onPortOrFree((p) => startSimulator({ port: p, password: simPassword, dataDir }), simPort);
await mocksStarted;
const mockUrls = Object.fromEntries([...mocks].map(([name, mock]) => [name, mock.url]));
const allowLoopback = values['allow-loopback'];
explorer = await onPortOrFree(
  (p) =>
    startExplorer({
      dir: explorerDir,
      port: p,
      mocks: mockUrls,
      ca,
      allowLoopback,
      simulator: { url: simulator.url, ca: simulator.ca },
    }),
  explorerPort,
);

console.log('');
console.log(
  `local svc          ${simulator.url}   (user ${simulator.user}${generated ? `; password ${kept.created ? 'generated and ' : ''}kept in ${shownData}/password: set SVC_PASSWORD to choose one` : `, password from ${chosenFrom}`}; data in ${shownData}/)`,
);
// Prism serves the paths without the servers' base path: say so, or a production URL gets 404.
for (const [name, url] of Object.entries(mockUrls))
  console.log(`mock      ${name.padEnd(8)} ${url}   (${mockNote(name)})`);
console.log(`explorer           ${explorer.url.replace(/\/?$/, '/')}`);
console.log('');
console.log('The code samples of the explorer read the credentials of the local svc from:');
console.log(credentialsLine(simulator.user, generated ? simPassword : null, chosenFrom));
console.log('\nReal endpoints: pick the https server in the explorer, set host and port; requests go through');
console.log('the explorer (tick "Self-signed certificate" for an endpoint with its own certificate).');
console.log('\nCtrl-C stops them.');
