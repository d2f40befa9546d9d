// Bundles every API of redocly.yaml into dist/<api>.yaml and dist/<api>.json with `redocly bundle`.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { apis, root } from './lib/apis.mjs';

const require = createRequire(import.meta.url);
const redocly = require.resolve('@redocly/cli/bin/cli.js');
const only = process.argv.slice(2);

for (const api of apis()) {
  if (only.length && !only.includes(api.name)) continue;
  for (const output of [api.bundle, api.bundleJson]) {
    execFileSync(process.execPath, [redocly, 'bundle', api.name, '--output', output], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_TELEMETRY: 'off' },
    });
    console.log(`bundled ${api.name} -> ${output.slice(root.length + 1)}`);
  }
}
