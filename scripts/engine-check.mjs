// `.ci/run`'s check after `npm ci`: the lockfile must accept every supported Node line, so a
// package whose `engines` excludes the running one fails CI. npm only warns (EBADENGINE); this
// reads npm's saved output and fails naming each such package and the range it requires.
//   npm ci 2>&1 | tee npm-ci.log; node scripts/engine-check.mjs npm-ci.log
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { commandLine, usageExit } from '@svc/args';

/**
 * The packages npm warned about with EBADENGINE, from npm's output (npm 9 to 11 print one block
 * per package: `npm warn EBADENGINE Unsupported engine {`, `package: 'x@1.0.0',`, `required: {...}`).
 * @param {string} log npm's stdout and stderr
 * @returns {{ package: string, required: string }[]} one per block; `package` is `?` when npm's
 *   format changed and only the code is recognised, so an unknown format still fails
 */
export function badEngines(log) {
  const found = [];
  for (const block of log.split(/^(?=.*EBADENGINE Unsupported engine)/m).slice(1)) {
    const lines = block.split('\n').filter((l) => /EBADENGINE/.test(l));
    const text = lines.join('\n');
    found.push({
      package: /package:\s*'([^']+)'/.exec(text)?.[1] ?? '?',
      required: /required:\s*(\{[^}]*\})/.exec(text)?.[1].replace(/\s+/g, ' ') ?? '?',
    });
  }
  // EBADENGINE in another shape (a future npm): still a failure
  if (!found.length && /EBADENGINE/.test(log)) found.push({ package: '?', required: '?' });
  return found;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const USAGE = 'Usage: node scripts/engine-check.mjs <npm-ci.log>';
  const { positionals } = commandLine('engine-check', USAGE, { options: {}, allowPositionals: true });
  if (positionals.length !== 1) usageExit('engine-check', USAGE, `one "<npm-ci.log>" file; got ${positionals.length}`);
  let log;
  try {
    log = readFileSync(positionals[0], 'utf8');
  } catch (e) {
    usageExit('engine-check', USAGE, `"<npm-ci.log>" must be a readable file: ${e.code ?? e.message}`);
  }
  const bad = badEngines(log);
  if (bad.length) {
    console.error(`ci: npm printed EBADENGINE on ${process.version}: a dependency does not support this Node line`);
    for (const b of bad) console.error(`  ${b.package} requires ${b.required}`);
    process.exit(1);
  }
  console.log(`ci: no EBADENGINE on ${process.version}`);
}
