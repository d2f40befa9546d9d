// The lint gate in one process, as `npm start` reports it once it serves: Redocly's rules on the
// sources and Spectral's on the bundles, in-process (Redocly's Node API, as `npm run dev` does;
// `npm run lint` runs the same rules through turbo and Redocly's CLI). Prints each finding, then one
// line; exit 1 on any finding (the gate is zero findings).
//   node scripts/lint-all.mjs
import { apis } from '@svc/oas/apis';
import { lintApi, redoclyConfig } from './lib/redocly.mjs';
import { formatFinding, spectralLinter } from './lib/spectral.mjs';

const started = performance.now();
const list = apis();
const [config, spectral] = await Promise.all([redoclyConfig(), spectralLinter()]);
let redocly = 0;
let spectralFindings = 0;
for (const api of list) {
  for (const problem of await lintApi(api, config)) {
    console.log(problem.text);
    redocly += 1;
  }
  for (const finding of await spectral(api.bundle)) {
    console.log(formatFinding(api, finding));
    spectralFindings += 1;
  }
}
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  `lint: ${redocly + spectralFindings ? 'FAIL' : 'ok'}, ${redocly} Redocly and ${spectralFindings} Spectral finding(s) in ${list.length} APIs (${seconds} s)`,
);
process.exitCode = redocly + spectralFindings ? 1 : 0;
