import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { resolveBase } from '../lib/git-base.mjs';
import { COMMAND_LIMIT_MS, runCommandSync } from './support/run.mjs';

const SCRIPT = fileURLToPath(new URL('../breaking.mjs', import.meta.url));
const dirs = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir() {
  const d = mkdtempSync(join(tmpdir(), 'breaking-test-'));
  dirs.push(d);
  return d;
}

const git = (cwd, ...args) =>
  execFileSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@example.test', '-c', 'init.defaultBranch=main', ...args],
    { cwd, encoding: 'utf8', stdio: 'pipe', timeout: COMMAND_LIMIT_MS },
  ).trim();

/** A one-API description whose image has the given status properties. */
function spec(statusProps, version = '1.0.0') {
  return {
    openapi: '3.1.0',
    info: { title: 'a', version, license: { name: 'MIT', identifier: 'MIT' } },
    servers: [{ url: 'https://pc.example.test:9440/api/a/v1' }],
    paths: {
      '/images/{uuid}': {
        get: {
          operationId: 'images_get',
          summary: 'Get an image',
          parameters: [{ name: 'uuid', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            200: {
              description: 'ok',
              content: { 'application/json': { schema: { type: 'object', properties: statusProps } } },
            },
          },
        },
      },
    },
  };
}

/** A repository with one commit on main, whose image has `state` and `size`. */
function repo() {
  const dir = tempDir();
  git(dir, 'init', '-q');
  writeFileSync(join(dir, 'redocly.yaml'), stringify({ apis: { a: { root: 'spec/a/openapi.yaml' } } }));
  mkdirSync(join(dir, 'spec', 'a'), { recursive: true });
  writeFileSync(
    join(dir, 'spec', 'a', 'openapi.yaml'),
    stringify(spec({ state: { type: 'string' }, size: { type: 'integer' } })),
  );
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'first');
  return dir;
}

const run = (dir, ...args) =>
  runCommandSync(process.execPath, [SCRIPT, '--repo', dir, ...args], { env: { ...process.env, BREAKING_BASE: '' } });

describe('resolveBase', () => {
  it('on the first commit: a printed skip, not a pass', () => {
    const r = resolveBase({ cwd: repo() });
    expect(r.skip).toBe(true);
    expect(r.why).toMatch(/first commit/);
  });

  it('on main itself: the parent HEAD~1', () => {
    const dir = repo();
    const first = git(dir, 'rev-parse', 'HEAD');
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'second');
    expect(resolveBase({ cwd: dir })).toMatchObject({ skip: false, commit: first, ref: 'HEAD~1' });
  });

  it('on a branch: the merge base with main', () => {
    const dir = repo();
    const first = git(dir, 'rev-parse', 'HEAD');
    git(dir, 'checkout', '-q', '-b', 'feature');
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'on feature');
    git(dir, 'checkout', '-q', 'main');
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'on main');
    git(dir, 'checkout', '-q', 'feature');
    expect(resolveBase({ cwd: dir })).toMatchObject({ skip: false, commit: first, ref: 'main' });
  });

  it('a shallow clone without the base is an error that says how to fetch it', () => {
    const dir = repo();
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'second');
    const clone = tempDir();
    git(clone, 'clone', '-q', '--depth', '1', `file://${dir}`, 'c');
    expect(() => resolveBase({ cwd: join(clone, 'c') })).toThrow(/shallow[\s\S]*--unshallow/);
  });

  it('a missing base ref or a directory outside git is an error', () => {
    expect(() => resolveBase({ cwd: repo(), ref: 'release/9' })).toThrow(/base ref "release\/9" does not exist/);
    expect(() => resolveBase({ cwd: tempDir() })).toThrow(/not a git repository/);
  });
});

describe('node scripts/breaking.mjs', () => {
  it('fails on a response field removed since the merge base, naming operation and field', () => {
    const dir = repo();
    git(dir, 'checkout', '-q', '-b', 'feature');
    writeFileSync(join(dir, 'spec', 'a', 'openapi.yaml'), stringify(spec({ state: { type: 'string' } })));
    git(dir, 'commit', '-q', '-am', 'drop size');
    const r = run(dir);
    expect(r.code, r.out).toBe(1);
    expect(r.out).toMatch(/comparing the working tree with merge base of HEAD and main/);
    expect(r.out).toMatch(
      /BREAKING response-field-removed {2}GET \/images\/\{uuid\} \(images_get\) {2}response 200 application\/json: size/,
    );
  });

  it('passes a breaking change that carries the major bump and a changeset saying what breaks', () => {
    const dir = repo();
    git(dir, 'checkout', '-q', '-b', 'feature');
    writeFileSync(join(dir, 'spec', 'a', 'openapi.yaml'), stringify(spec({ state: { type: 'string' } }, '2.0.0')));
    git(dir, 'commit', '-q', '-am', 'drop size');
    const failed = run(dir);
    expect(failed.code, failed.out).toBe(1);
    expect(failed.out).toMatch(/BREAKING without a changeset/);
    mkdirSync(join(dir, '.changeset'));
    writeFileSync(
      join(dir, '.changeset', 'drop-size.md'),
      '---\n"@svc/client": major\n---\n\na: `size` is no longer returned by GET /images/{uuid}.\n',
    );
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'changeset');
    const r = run(dir);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/expects a major bump of info\.version \(1\.0\.0 -> 2\.0\.0: major\)/);
    expect(r.out).toMatch(/released as 1\.0\.0 -> 2\.0\.0, described in \.changeset\/drop-size\.md/);
  });

  it('passes an additive change, uncommitted on main, and says what it compared', () => {
    const dir = repo();
    writeFileSync(
      join(dir, 'spec', 'a', 'openapi.yaml'),
      stringify(spec({ state: { type: 'string' }, size: { type: 'integer' }, owner: { type: 'string' } })),
    );
    const r = run(dir);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(
      /comparing the working tree with HEAD [0-9a-f]{12} \(the merge base with main; spec\/ has uncommitted changes\)/,
    );
    expect(r.out).toMatch(/a: 0 breaking change\(s\), 0 addition\(s\)/);
    expect(r.out).toMatch(/expects a patch bump of info\.version/);
  });

  it('prints the skip on the first commit and exits 2 with the reason outside git', () => {
    const skip = run(repo());
    expect(skip.code).toBe(0);
    expect(skip.out).toMatch(/SKIPPED, .*first commit/);
    const err = run(tempDir());
    expect(err.code).toBe(2);
    expect(err.out).toMatch(/not a git repository/);
  });

  it('--if-history turns a missing base into NOT CHECKED, yet still fails a breaking change', () => {
    const dir = repo();
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'second');
    const clone = tempDir();
    git(clone, 'clone', '-q', '--depth', '1', `file://${dir}`, 'c');
    const shallow = run(join(clone, 'c'), '--if-history');
    expect(shallow.code, shallow.out).toBe(0);
    expect(shallow.out).toMatch(/NOT CHECKED \(--if-history\): .*shallow/);
    expect(run(join(clone, 'c')).code).toBe(2);

    git(dir, 'checkout', '-q', '-b', 'feature');
    writeFileSync(join(dir, 'spec', 'a', 'openapi.yaml'), stringify(spec({ state: { type: 'string' } })));
    git(dir, 'commit', '-q', '-am', 'drop size');
    expect(run(dir, '--if-history').code).toBe(1);
  });
});
