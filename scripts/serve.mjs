// Serves what `npm run build` made: the local svc (the simulator, HTTPS with its self-signed
// certificate, data in .simulator/), one Prism mock per bundled API and the API explorer in front
// of them, all on 127.0.0.1. Prints the URLs and runs until Ctrl-C. "Try it out" goes to the local
// svc by default. The simulator's password is $SVC_SIM_PASSWORD, else one is generated and printed. The explorer also
// forwards "Try it out" requests to real endpoints (no CORS needed); --ca adds CA certificates
// (PEM file) to trust for them beside Node's own.
//   npm run serve -- [--port 8080] [--mock-port 4010] [--sim-port 9440] [--ca corp-ca.pem]
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startExplorer } from '@svc/explorer';
import { startSimulator } from '@svc/simulator';
import { root } from '@svc/oas/apis';
import { onPortOrFree, portOption, startMocks } from './lib/serve.mjs';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.EXPLORER_PORT ?? '8080' },
    'mock-port': { type: 'string', default: process.env.MOCK_PORT ?? '4010' },
    'sim-port': { type: 'string', default: process.env.SIM_PORT ?? '9440' },
    ca: { type: 'string' },
  },
});

let ca;
if (values.ca !== undefined) {
  try {
    ca = readFileSync(values.ca, 'utf8');
  } catch (error) {
    console.error(`--ca must name a readable PEM file; ${values.ca}: ${error.message}`);
    process.exit(2);
  }
  if (!ca.includes('-----BEGIN CERTIFICATE-----')) {
    console.error(`--ca must name a PEM file with at least one certificate; ${values.ca} has none`);
    process.exit(2);
  }
}

const explorerPort = portOption('port', values.port);
const firstMockPort = portOption('mock-port', values['mock-port']);
const simPort = portOption('sim-port', values['sim-port']);
const explorerDir = join(root, 'packages', 'explorer', 'dist');
if (!existsSync(explorerDir)) {
  console.error('packages/explorer/dist is missing: run `npm run build` first');
  process.exit(2);
}

const generated = !process.env.SVC_SIM_PASSWORD;
const simPassword = process.env.SVC_SIM_PASSWORD || randomBytes(12).toString('base64url');
const simulator = await onPortOrFree((p) => startSimulator({ port: p, password: simPassword }), simPort);
const mocks = await startMocks(firstMockPort);
const mockUrls = Object.fromEntries([...mocks].map(([name, mock]) => [name, mock.url]));
const explorer = await onPortOrFree(
  (p) => startExplorer({ dir: explorerDir, port: p, mocks: mockUrls, ca, simulator: { url: simulator.url, ca: simulator.ca } }),
  explorerPort,
);
const running = [simulator, ...mocks.values(), explorer];

console.log('');
console.log(`local svc          ${simulator.url}   (user ${simulator.user}${generated ? `, password ${simPassword}; set SVC_SIM_PASSWORD to choose one` : ', password from SVC_SIM_PASSWORD'}; data in .simulator/)`);
for (const [name, url] of Object.entries(mockUrls)) console.log(`mock      ${name.padEnd(8)} ${url}   (Prism; any user and password)`);
console.log(`explorer           ${explorer.url.replace(/\/?$/, '/')}`);
console.log('\nReal endpoints: pick the https server in the explorer, set host and port; requests go through');
console.log('the explorer (tick "Self-signed certificate" for an endpoint with its own certificate).');
console.log('\nCtrl-C stops them.');

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await Promise.allSettled(running.map((r) => r.close()));
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
