// Bundles every API of redocly.yaml into dist/<api>.yaml and dist/<api>.json with `redocly bundle`.
import { apis, root } from '@svc/oas/apis';
import { commandLine, knownNames, usageExit } from './lib/args.mjs';
import { redocly } from './lib/redocly.mjs';

// npm run bundle -- [<api>...]   (default: every API)
const USAGE = 'Usage: npm run bundle -- [<api>...]';
const only = commandLine('bundle', USAGE, { options: {}, allowPositionals: true }).positionals;
try {
  knownNames(
    only,
    apis().map((a) => a.name),
    'API of redocly.yaml',
  );
} catch (e) {
  usageExit('bundle', USAGE, e.message);
}

for (const api of apis()) {
  if (only.length && !only.includes(api.name)) continue;
  for (const output of [api.bundle, api.bundleJson]) {
    redocly(['bundle', api.name, '--output', output]);
    console.log(`bundled ${api.name} -> ${output.slice(root.length + 1)}`);
  }
}
