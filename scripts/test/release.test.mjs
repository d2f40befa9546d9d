import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bumpOf, expectedBump, missingChangesets } from '../lib/release.mjs';
import { COMMAND_LIMIT_MS, runCommandSync } from './support/run.mjs';

const client = { name: '@svc/client', dir: 'packages/client', version: '0.1.0' };
const cs = (releases, summary = 'What changed.') => ({
  file: '.changeset/x.md',
  summary,
  releases: Object.entries(releases).map(([name, type]) => ({ name, type })),
});

describe('missingChangesets', () => {
  it.each([
    ['nothing changed', [], [], []],
    ['a client source file, no changeset', ['packages/client/src/clients.ts'], [], ['@svc/client']],
    ['a client source file with a changeset', ['packages/client/src/clients.ts'], [cs({ '@svc/client': 'patch' })], []],
    [
      'a "none" release does not cover it',
      ['packages/client/package.json'],
      [cs({ '@svc/client': 'none' })],
      ['@svc/client'],
    ],
    [
      'client tests, their config, benchmarks and changelog ship nothing',
      [
        'packages/client/test/a.test.ts',
        'packages/client/vitest.config.ts',
        'packages/client/bench/b.mjs',
        'packages/client/CHANGELOG.md',
      ],
      [],
      [],
    ],
    ['a private package', ['packages/mock/src/index.js'], [], []],
    ['spec/, no changeset', ['spec/central/paths/images.yaml'], [], ['spec/']],
    ['redocly.yaml counts as spec', ['redocly.yaml'], [], ['spec/']],
    ['spec/ with a client changeset', ['spec/central/paths/images.yaml'], [cs({ '@svc/client': 'minor' })], []],
    ['scripts and docs need none', ['scripts/serve.mjs', 'docs/pipeline.md', 'README.md'], [], []],
    ['a changeset naming an unknown package', [], [cs({ '@svc/nope': 'patch' })], ['.changeset/x.md']],
    ['a changeset without a summary', [], [cs({ '@svc/client': 'patch' }, '  ')], ['.changeset/x.md']],
  ])('%s', (_title, files, changesets, units) => {
    expect(missingChangesets({ files, packages: [client], changesets }).map((p) => p.unit)).toEqual(units);
  });

  it('a release (version changed) needs no changeset', () => {
    const files = ['packages/client/package.json', 'packages/client/CHANGELOG.md', 'spec/central/openapi.yaml'];
    expect(
      missingChangesets({ files, packages: [client], changesets: [], released: new Set(['@svc/client']) }),
    ).toEqual([]);
  });
});

describe('bumpOf and expectedBump', () => {
  it.each([
    ['3.1.0', '4.0.0', 'major'],
    ['3.1.0', '3.2.0', 'minor'],
    ['3.1.0', '3.1.1', 'patch'],
    ['3.1.0', '3.1.0', 'none'],
    ['3.1.0', '3.0.9', 'lower'],
    ['0.9.0', '1.0.0-rc.1', 'major'],
  ])('%s -> %s is %s', (a, b, kind) => expect(bumpOf(a, b)).toBe(kind));

  it.each(['2.0', 'v3.1.0', '3.1', '03.1.0', ''])('refuses "%s" as not semver', (v) => {
    expect(() => bumpOf(v, '3.1.0')).toThrow(/not semver/);
  });

  it.each([
    [{ breaking: 2, additions: 5 }, 'major'],
    [{ breaking: 0, additions: 1 }, 'minor'],
    [{ breaking: 0, additions: 0 }, 'patch'],
  ])('%j needs %s', (change, kind) => expect(expectedBump(change)).toBe(kind));
});

describe('npm run release:check', () => {
  const SCRIPT = fileURLToPath(new URL('../release-check.mjs', import.meta.url));
  const dirs = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const git = (cwd, ...args) =>
    execFileSync(
      'git',
      ['-c', 'user.name=t', '-c', 'user.email=t@example.test', '-c', 'init.defaultBranch=main', ...args],
      { cwd, stdio: 'pipe', timeout: COMMAND_LIMIT_MS },
    );
  const write = (dir, file, text) => {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  };
  /** A repository with main and a branch `feature` checked out. */
  function repo() {
    const dir = mkdtempSync(join(tmpdir(), 'release-check-'));
    dirs.push(dir);
    git(dir, 'init', '-q');
    write(dir, 'packages/client/package.json', JSON.stringify({ name: '@svc/client', version: '0.1.0' }));
    write(dir, 'packages/client/src/index.ts', 'export {};\n');
    write(dir, 'spec/a/openapi.yaml', 'openapi: 3.1.0\n');
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'first');
    git(dir, 'checkout', '-q', '-b', 'feature');
    return dir;
  }
  const run = (dir, ...args) =>
    runCommandSync(process.execPath, [SCRIPT, '--repo', dir, ...args], { env: { ...process.env, BREAKING_BASE: '' } });

  it('fails on a committed client change without a changeset, passes once one is added', () => {
    const dir = repo();
    write(dir, 'packages/client/src/index.ts', 'export const x = 1;\n');
    git(dir, 'commit', '-qam', 'change');
    let r = run(dir);
    expect(r.code, r.out).toBe(1);
    expect(r.out).toMatch(/MISSING @svc\/client: changed \(packages\/client\/src\/index\.ts\)/);
    write(dir, '.changeset/brave-cats.md', '---\n"@svc/client": minor\n---\n\nAdds x.\n');
    r = run(dir); // untracked changesets count, so an author can check before committing
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/1 changeset\(s\) added/);
  });

  it('on main, a pending changeset covers the merge; without one the merge fails', () => {
    const dir = repo();
    git(dir, 'checkout', '-q', 'main');
    write(dir, 'packages/client/src/index.ts', 'export const a = 1;\n');
    git(dir, 'commit', '-qam', 'merge without a changeset');
    let r = run(dir);
    expect(r.code, r.out).toBe(1);
    expect(r.out).toMatch(/0 changeset\(s\) pending \(on main\)/);
    write(dir, '.changeset/earlier.md', '---\n"@svc/client": patch\n---\n\nFixes a.\n');
    git(dir, 'add', '.');
    git(dir, 'commit', '-qm', 'an earlier merge with a changeset');
    write(dir, 'packages/client/src/index.ts', 'export const a = 2;\n');
    git(dir, 'commit', '-qam', 'a later merge without one');
    r = run(dir);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/1 changeset\(s\) pending \(on main\)/);
  });

  it('fails on a spec change without a changeset naming the client', () => {
    const dir = repo();
    write(dir, 'spec/a/openapi.yaml', 'openapi: 3.1.0\ninfo: {}\n');
    const r = run(dir);
    expect(r.code, r.out).toBe(1);
    expect(r.out).toMatch(/MISSING spec\/: .*names @svc\/client/);
  });

  it('passes a release commit (version bumped, changesets consumed)', () => {
    const dir = repo();
    write(dir, 'packages/client/package.json', JSON.stringify({ name: '@svc/client', version: '0.2.0' }));
    write(dir, 'packages/client/CHANGELOG.md', '# @svc/client\n\n## 0.2.0\n');
    write(dir, 'packages/client/src/index.ts', 'export const y = 2;\n');
    git(dir, 'add', '.');
    git(dir, 'commit', '-qm', 'release');
    const r = run(dir);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/@svc\/client: version changed/);
  });

  it('names a changeset that does not parse', () => {
    const dir = repo();
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'on feature');
    write(dir, '.changeset/bad.md', '---\n@svc/client minor\n---\n\nx\n');
    const r = run(dir);
    expect(r.code, r.out).toBe(2);
    expect(r.out).toMatch(/\.changeset\/bad\.md is not a changeset/);
  });

  it('without history: exit 2, or NOT CHECKED with --if-history', () => {
    const dir = repo();
    expect(run(dir, '--base', 'nope')).toMatchObject({ code: 2 });
    const r = run(dir, '--base', 'nope', '--if-history');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/NOT CHECKED/);
  });
});
