// Serves what `npm run build` made: one Prism mock per bundled API and the API explorer in
// front of them, all on 127.0.0.1. Prints both URLs and runs until Ctrl-C. The explorer also
// forwards "Try it out" requests to real endpoints (no CORS needed); --ca adds CA certificates
// (PEM file) to trust for them beside Node's own.
//   npm run serve -- [--port 8080] [--mock-port 4010] [--ca corp-ca.pem]
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startExplorer } from '@svc/explorer';
import { root } from '@svc/oas/apis';
import { commandLine, port, usageExit } from './lib/args.mjs';
import { onPortOrFree, startMocks } from './lib/serve.mjs';

const USAGE = 'Usage: npm run serve -- [--port 8080] [--mock-port 4010] [--ca <PEM file>]   (0: any free port)';
const { values } = commandLine('serve', USAGE, {
  options: {
    port: { type: 'string', default: process.env.EXPLORER_PORT || '8080', check: port },
    'mock-port': { type: 'string', default: process.env.MOCK_PORT || '4010', check: port },
    ca: { type: 'string' },
  },
});

let ca;
if (values.ca !== undefined) {
  try {
    ca = readFileSync(values.ca, 'utf8');
  } catch (error) {
    usageExit('serve', USAGE, `--ca must name a readable PEM file; ${values.ca}: ${error.message}`);
  }
  if (!ca.includes('-----BEGIN CERTIFICATE-----')) {
    usageExit('serve', USAGE, `--ca must name a PEM file with at least one certificate; ${values.ca} has none`);
  }
}

const explorerPort = values.port;
const firstMockPort = values['mock-port'];
const explorerDir = join(root, 'packages', 'explorer', 'dist');
if (!existsSync(explorerDir)) {
  console.error('packages/explorer/dist is missing: run `npm run build` first');
  process.exit(2);
}

const mocks = await startMocks(firstMockPort);
const mockUrls = Object.fromEntries([...mocks].map(([name, mock]) => [name, mock.url]));
const explorer = await onPortOrFree((p) => startExplorer({ dir: explorerDir, port: p, mocks: mockUrls, ca }), explorerPort);
const running = [...mocks.values(), explorer];

console.log('');
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
