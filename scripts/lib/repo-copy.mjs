// A throw-away copy of the repository for tests and benches that run a script on its own files
// (`npm run dev` edits spec/): the working tree's files, or those of a git commit, with this
// checkout's installed packages linked in.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, realpathSync, statSync, symlinkSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { root } from '@svc/oas/apis';

/**
 * Fills the empty folder `dest` with the repository's files and links `node_modules` in: every
 * installed package by link, the workspace packages (`@svc/*`) to the copy's own `packages/`, so
 * that the copy's scripts find the copy's root, and each package's nested `node_modules`.
 * @param {string} dest an empty folder
 * @param {{ ref?: string }} [options] `ref`: a commit to copy (`git archive`); by default the
 *   working tree's files that git tracks or would track
 * @throws {Error} when git fails (an unknown ref)
 */
export function copyRepository(dest, { ref } = {}) {
  if (ref) {
    const tar = execFileSync('git', ['archive', '--format=tar', ref], { cwd: root, maxBuffer: 512 * 1024 * 1024 });
    execFileSync('tar', ['-x', '-C', dest], { input: tar });
  } else {
    const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    })
      .split('\0')
      .filter(Boolean);
    for (const file of files) {
      if (!existsSync(join(root, file))) continue; // deleted in the working tree
      mkdirSync(dirname(join(dest, file)), { recursive: true });
      cpSync(join(root, file), join(dest, file));
    }
  }
  mkdirSync(join(dest, 'node_modules', '@svc'), { recursive: true });
  for (const entry of readdirSync(join(root, 'node_modules'))) {
    if (entry !== '@svc') symlinkSync(join(root, 'node_modules', entry), join(dest, 'node_modules', entry));
  }
  for (const name of readdirSync(join(root, 'node_modules', '@svc'))) {
    symlinkSync(
      realpathSync(join(root, 'node_modules', '@svc', name)).replace(root, dest),
      join(dest, 'node_modules', '@svc', name),
    );
  }
  // npm nests a version there that the root does not hold
  for (const name of readdirSync(join(root, 'packages'))) {
    const own = join(root, 'packages', name, 'node_modules');
    if (existsSync(own) && existsSync(join(dest, 'packages', name)))
      symlinkSync(own, join(dest, 'packages', name, 'node_modules'));
  }
}

/**
 * Dates the copy's manifests (package.json, package-lock.json, each workspace's package.json) one
 * second before this checkout's last install, so that `npm start` in the copy installs nothing:
 * its node_modules are this checkout's, by link, and an install there would write through them.
 * A second, not the same instant: file times round, and a manifest a fraction newer means install.
 * @param {string} dest a folder filled by {@link copyRepository}
 */
export function dateManifestsInstalled(dest) {
  const installed = (statSync(join(root, 'node_modules', '.package-lock.json')).mtimeMs - 1000) / 1000;
  for (const file of [
    'package.json',
    'package-lock.json',
    ...readdirSync(join(dest, 'packages')).map((p) => join('packages', p, 'package.json')),
  ])
    if (existsSync(join(dest, file))) utimesSync(join(dest, file), installed, installed);
}
