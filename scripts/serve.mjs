// Serves what `npm run build` made: one Prism mock per bundled API and the API explorer in
// front of them, all on 127.0.0.1. Prints both URLs and runs until Ctrl-C. The explorer also
// forwards "Try it out" requests to real endpoints (no CORS needed); --ca adds CA certificates
// (PEM file) to trust for them beside Node's own.
//   npm run serve -- [--port 8080] [--mock-port 4010] [--ca corp-ca.pem]
import { parseArgs } from 'node:util';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMock } from '@svc/mock';
import { startExplorer } from '@svc/explorer';
import { apis, root } from './lib/apis.mjs';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.EXPLORER_PORT ?? '8080' },
    'mock-port': { type: 'string', default: process.env.MOCK_PORT ?? '4010' },
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

/** A port number from an option, or exit with a message naming the option. */
function portOption(name, value) {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--${name} must be a port number from 0 to 65535; got "${value}"`);
    process.exit(2);
  }
  return port;
}

const explorerPort = portOption('port', values.port);
const firstMockPort = portOption('mock-port', values['mock-port']);
const explorerDir = join(root, 'packages', 'explorer', 'dist');
if (!existsSync(explorerDir)) {
  console.error('packages/explorer/dist is missing: run `npm run build` first');
  process.exit(2);
}

/** Starts on the wanted port, or on a free one when it is taken. */
async function onPortOrFree(start, port) {
  try {
    return await start(port);
  } catch (error) {
    if (port === 0) throw error;
    console.warn(`port ${port} is not free (${error.message.split('\n')[0]}); using a free port`);
    return start(0);
  }
}

const mocks = {};
const running = [];
let n = 0;
for (const api of apis()) {
  const port = firstMockPort === 0 ? 0 : firstMockPort + n++;
  const mock = await onPortOrFree((p) => startMock({ document: api.bundle, port: p || undefined }), port);
  running.push(mock);
  mocks[api.name] = mock.url;
}
const explorer = await onPortOrFree((p) => startExplorer({ dir: explorerDir, port: p, mocks, ca }), explorerPort);
running.push(explorer);

console.log('');
for (const [name, url] of Object.entries(mocks)) console.log(`mock      ${name.padEnd(8)} ${url}   (Prism; any user and password)`);
console.log(`explorer           ${explorer.url.replace(/\/?$/, "/")}`);
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
