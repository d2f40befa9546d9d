// `npm run breaking`: bundles every API of the working tree and of the merge base (git), and fails
// when a change would break clients in the field (scripts/lib/breaking.mjs lists the rules).
//
//   node scripts/breaking.mjs [--base <ref>] [--repo <dir>]
//
// --base (or BREAKING_BASE): the branch to compare with, default origin/main, else main.
// --repo: the repository to check (default: this one).
// --if-history: when the clone cannot give a base (shallow, no such branch), print NOT CHECKED and
//   exit 0 instead of 2. For CI machines whose checkout depth we do not control; breaking changes
//   found still exit 1.
// Exit 0: nothing breaks (or a printed skip on the first commit); 1: breaking changes; 2: error.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apis, root as thisRoot } from '@svc/oas/apis';
import { verdict } from './lib/breaking.mjs';
import { baseFromCommandLine } from './lib/git-base.mjs';
import { bundleApi, redoclyConfig } from './lib/redocly.mjs';
import { addedChangesets, changedFiles, SPEC_PACKAGE } from './lib/release.mjs';

const USAGE = 'Usage: npm run breaking -- [--base <ref>] [--repo <dir>] [--if-history]';

/** The APIs named in `<dir>/redocly.yaml`, bundled in-process (the files go to `out`). */
async function bundleAll(dir, out) {
  const docs = new Map();
  const config = await redoclyConfig(dir);
  for (const api of apis(dir)) {
    const files = { bundle: join(out, `${api.name}.yaml`), bundleJson: join(out, `${api.name}.json`) };
    docs.set(api.name, await bundleApi({ ...api, ...files }, config));
  }
  return docs;
}

async function main() {
  const found = baseFromCommandLine('breaking', USAGE, thisRoot);
  if ('exit' in found) return found.exit;
  const { repo, base } = found;
  console.log(`breaking: comparing the working tree with ${base.why}`);

  const tmp = mkdtempSync(join(tmpdir(), 'svc-breaking-'));
  try {
    const src = join(tmp, 'base');
    mkdirSync(src);
    // git archive of the base commit's descriptions, unpacked with tar: no checkout is touched.
    const tar = execFileSync('git', ['archive', '--format=tar', base.commit, '--', 'redocly.yaml', 'spec'], {
      cwd: repo,
      maxBuffer: 256 * 1024 * 1024,
    });
    execFileSync('tar', ['-x', '-C', src], { input: tar });
    mkdirSync(join(tmp, 'before'));
    mkdirSync(join(tmp, 'after'));
    const before = await bundleAll(src, join(tmp, 'before'));
    const after = await bundleAll(repo, join(tmp, 'after'));

    // The changesets this change adds: a breaking change is allowed with a major bump of the
    // API's info.version and a changeset that names the client as major and says what breaks.
    const changesets = addedChangesets(repo, changedFiles(repo, base.commit));
    let failures = 0;
    for (const [name, old] of before) {
      const now = after.get(name);
      if (!now) {
        console.log(`${name}: BREAKING the API was removed from redocly.yaml`);
        failures += 1;
        continue;
      }
      const v = verdict(name, old, now, changesets);
      for (const line of v.lines) console.log(line);
      if (!v.ok) failures += 1;
    }
    for (const name of after.keys()) if (!before.has(name)) console.log(`${name}: new API, nothing to compare`);
    if (failures) {
      console.log(
        `breaking: ${failures} API(s) fail. A change that breaks clients needs a major bump of the API's info.version and a changeset ("${SPEC_PACKAGE}": major) that names the API and says what breaks; or keep the old shape.`,
      );
      return 1;
    }
    return 0;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

try {
  process.exitCode = await main();
} catch (e) {
  const detail = e.stderr?.toString().trim();
  console.error(e.message.startsWith('breaking:') ? e.message : `breaking: ${e.message}${detail ? `\n${detail}` : ''}`);
  process.exitCode = 2;
}
