// Bundles every API of redocly.yaml into dist/<api>.yaml and dist/<api>.json with `redocly bundle`.
import { apis, root } from '@svc/oas/apis';
import { redocly } from './lib/redocly.mjs';

const only = process.argv.slice(2);

for (const api of apis()) {
  if (only.length && !only.includes(api.name)) continue;
  for (const output of [api.bundle, api.bundleJson]) {
    redocly(['bundle', api.name, '--output', output]);
    console.log(`bundled ${api.name} -> ${output.slice(root.length + 1)}`);
  }
}
