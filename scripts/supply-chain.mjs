// `npm run supply-chain`: (1) the lockfile holds no version below the fix of the advisories that
// package.json's `overrides` address (scripts/lib/supply-chain.mjs lists them); (2) `npm audit`
// where the registry answers it, failing on high or critical advisories. A registry that refuses
// the audit (some mirrors answer 405) is reported as NOT CHECKED with the reason, not as a pass.
//   npm run supply-chain -- [--audit-level high] [--no-audit]
// Exit 0: passed (or audit NOT CHECKED); 1: a version below a fix or an advisory at the level; 2: bad arguments.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandLine, UsageError } from '@svc/args';
import { auditVerdict, belowFloor, FLOORS } from './lib/supply-chain.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const LEVELS = ['low', 'moderate', 'high', 'critical'];
const { values } = commandLine(
  'supply-chain',
  'Usage: npm run supply-chain -- [--audit-level low|moderate|high|critical] [--no-audit]',
  {
    options: {
      'audit-level': {
        type: 'string',
        default: 'high',
        check: (v, name) => {
          if (!LEVELS.includes(v)) throw new UsageError(`--${name} must be one of ${LEVELS.join(', ')}; got "${v}"`);
          return v;
        },
      },
      'no-audit': { type: 'boolean', default: false },
    },
  },
);

let failed = false;
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
const low = belowFloor(lock);
for (const f of FLOORS)
  if (!low.some((l) => l.advisory === f.advisory))
    console.log(
      `supply-chain: ok   ${f.name} >= ${f.fixed} everywhere in package-lock.json (${f.advisory.split(' ')[0]})`,
    );
for (const l of low)
  console.log(
    `supply-chain: FAIL ${l.path}@${l.version} is below ${l.fixed}, the fix of ${l.advisory}: see "overrides" in package.json`,
  );
failed ||= low.length > 0;

if (values['no-audit']) {
  console.log('supply-chain: npm audit NOT CHECKED (--no-audit)');
} else {
  const run = spawnSync('npm', ['audit', '--json', '--audit-level', values['audit-level']], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 120_000,
  });
  const verdict = auditVerdict(
    { stdout: run.stdout ?? '', stderr: run.stderr ?? String(run.error ?? ''), status: run.status },
    values['audit-level'],
  );
  if (!verdict.checked) {
    console.log(`supply-chain: npm audit NOT CHECKED: ${verdict.reason}`);
  } else {
    const counts = LEVELS.map((s) => `${verdict.counts[s] ?? 0} ${s}`).join(', ');
    console.log(
      `supply-chain: npm audit ${verdict.ok ? 'ok' : 'FAIL'}: ${counts} (fails at ${values['audit-level']} or above)`,
    );
    failed ||= !verdict.ok;
  }
}
process.exitCode = failed ? 1 : 0;
