// Bundles every API of redocly.yaml into dist/<api>.yaml and dist/<api>.json with `redocly bundle`.
import { apis, root } from '@svc/oas/apis';
import { selectedApis } from './lib/args.mjs';
import { redocly } from './lib/redocly.mjs';

// npm run bundle -- [<api>...]   (default: every API)
const USAGE = 'Usage: npm run bundle -- [<api>...]';
const selected = selectedApis('bundle', USAGE, apis());

for (const api of selected) {
  for (const output of [api.bundle, api.bundleJson]) {
    redocly(['bundle', api.name, '--output', output]);
    console.log(`bundled ${api.name} -> ${output.slice(root.length + 1)}`);
  }
}
