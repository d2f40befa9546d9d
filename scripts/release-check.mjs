// `npm run release:check`: fails when a published package (the client) or spec/ changed since the
// merge base without a changeset (.changeset/*.md) naming it. scripts/lib/release.mjs has the rules.
//   npm run release:check -- [--base <ref>] [--repo <dir>] [--if-history]
// --base, --repo, --if-history: as for `npm run breaking` (the same merge base).
// Exit 0: every change carries a changeset; 1: some do not; 2: bad arguments or no history.
import { root as thisRoot } from '@svc/oas/apis';
import { baseFromCommandLine } from './lib/git-base.mjs';
import {
  addedChangesets,
  changedFiles,
  missingChangesets,
  pendingChangesets,
  publishablePackages,
  versionAt,
} from './lib/release.mjs';

const USAGE = 'Usage: npm run release:check -- [--base <ref>] [--repo <dir>] [--if-history]';

function main() {
  const found = baseFromCommandLine('release:check', USAGE, thisRoot);
  if ('exit' in found) return found.exit;
  const { repo, base } = found;
  const files = changedFiles(repo, base.commit);
  const packages = publishablePackages(repo);
  const released = new Set(
    packages.filter((p) => versionAt(repo, base.commit, p.dir) !== p.version).map((p) => p.name),
  );
  // On a branch, the change must add its own changeset. On main itself (CI after a merge: the base
  // is HEAD~1) every pending changeset counts, as in changesets' release model: the next release
  // covers all changes since the last one, described by the changesets not yet consumed.
  const onMain = base.ref === 'HEAD~1' || base.ref === 'HEAD';
  const changesets = onMain ? pendingChangesets(repo) : addedChangesets(repo, files);
  console.log(
    `release:check: ${files.length} file(s) changed since ${base.why}; ${changesets.length} changeset(s) ${onMain ? 'pending (on main)' : 'added'}`,
  );
  for (const name of released) console.log(`  ${name}: version changed (a release), no changeset needed`);
  const problems = missingChangesets({ files, packages, changesets, released });
  for (const p of problems) console.log(`  MISSING ${p.unit}: ${p.problem}`);
  if (problems.length) {
    console.log(
      'release:check: add a changeset: `npx changeset` (or write .changeset/<name>.md: front matter `"@svc/client": patch|minor|major`, then what changed for users)',
    );
    return 1;
  }
  console.log('release:check: every change carries a changeset');
  return 0;
}

try {
  process.exitCode = main();
} catch (e) {
  console.error(`release:check: ${e.message}`);
  process.exitCode = 2;
}
