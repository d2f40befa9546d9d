// Bundles every API of redocly.yaml into dist/<api>.yaml and dist/<api>.json, in-process with
// Redocly's Node API (the bytes `redocly bundle` writes; scripts/lib/redocly.mjs).

import { selectedApis } from '@svc/args';
import { apis, root } from '@svc/oas/apis';
import { bundleApi, redoclyConfig } from './lib/redocly.mjs';

// npm run bundle -- [<api>...]   (default: every API)
const USAGE = 'Usage: npm run bundle -- [<api>...]';
const selected = selectedApis('bundle', USAGE, apis());

const config = await redoclyConfig();
for (const api of selected) {
  try {
    await bundleApi(api, config);
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
  for (const output of [api.bundle, api.bundleJson])
    console.log(`bundled ${api.name} -> ${output.slice(root.length + 1)}`);
}
