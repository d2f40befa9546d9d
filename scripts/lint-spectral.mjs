// Runs Spectral (.spectral.yaml) on every bundle and reports each finding at its source YAML
// file and line, then the bundle location. Exits 1 on any finding: the gate is zero findings.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { relative } from 'node:path';
import { apis, root } from '@svc/oas/apis';
import { selectedApis } from './lib/args.mjs';
import { sourceLocation } from './lib/source-map.mjs';

const require = createRequire(import.meta.url);
const spectral = require.resolve('@stoplight/spectral-cli/dist/index.js');
const SEVERITY = ['error', 'warning', 'info', 'hint'];
// npm run lint:spectral -- [<api>...]   (default: every API)
const USAGE = 'Usage: npm run lint:spectral -- [<api>...]';
const selected = selectedApis('lint:spectral', USAGE, apis());
let findings = 0;

for (const api of selected) {
  if (!existsSync(api.bundle)) {
    console.error(`${relative(root, api.bundle)} is missing: run \`npm run bundle\` first`);
    process.exit(2);
  }
  let out;
  try {
    out = execFileSync(
      process.execPath,
      [
        spectral,
        'lint',
        api.bundle,
        '--ruleset',
        '.spectral.yaml',
        '--format',
        'json',
        '--quiet',
        '--fail-severity',
        'hint',
      ],
      {
        cwd: root,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      },
    );
  } catch (error) {
    // Spectral exits 1 when it finds something; anything else is a crash.
    if (error.status !== 1 || !error.stdout) throw error;
    out = error.stdout;
  }
  const results = JSON.parse(out.slice(out.indexOf('[')));
  for (const r of results) {
    const src = sourceLocation(api.root, r.path);
    const bundleAt = `${relative(root, api.bundle)}:${r.range.start.line + 1}`;
    console.log(
      `${relative(root, src.file)}:${src.line}:${src.col} ${SEVERITY[r.severity]} ${r.code} ${r.message}` +
        `\n    at ${r.path.join(' > ')} (${bundleAt}${src.exact ? '' : ', nearest source parent'})`,
    );
  }
  findings += results.length;
  console.log(`spectral ${api.name}: ${results.length} finding(s)`);
}
process.exit(findings ? 1 : 0);
