// Runs Spectral (.spectral.yaml) on every bundle and reports each finding at its source YAML
// file and line, then the bundle location. Exits 1 on any finding: the gate is zero findings.
// Spectral runs in-process (scripts/lib/spectral.mjs): one ruleset load for every API.
import { existsSync } from 'node:fs';
import { selectedApis } from '@svc/args';
import { apis, shownPath } from '@svc/oas/apis';
import { formatFinding, spectralLinter } from './lib/spectral.mjs';

// npm run lint:spectral -- [<api>...]   (default: every API)
const USAGE = 'Usage: npm run lint:spectral -- [<api>...]';
const chosen = selectedApis('lint:spectral', USAGE, apis());
for (const api of chosen) {
  if (!existsSync(api.bundle)) {
    console.error(`${shownPath(api.bundle)} is missing: run \`npm run bundle\` first`);
    process.exit(2);
  }
}
const lint = await spectralLinter();
let findings = 0;
for (const api of chosen) {
  const results = await lint(api.bundle);
  for (const r of results) console.log(formatFinding(api, r));
  findings += results.length;
  console.log(`spectral ${api.name}: ${results.length} finding(s)`);
}
process.exit(findings ? 1 : 0);
