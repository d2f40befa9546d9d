// The lint gates of `npm test` can fail: the root package.json's `lint:biome` and `lint:redocly`
// commands, run as written on a throw-away folder holding the repository's configuration and a
// file that breaks a rule, exit non-zero and name the file.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { root } from '@svc/oas/apis';
import { afterAll, describe, expect, it } from 'vitest';
import { redoclyEnv } from '../lib/redocly.mjs';
import { runCommand } from './support/run.mjs';

const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;
const dirs = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A temp folder with these files of the repository copied in. */
function folderWith(...files) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-lint-gate-'));
  dirs.push(dir);
  for (const f of files) cpSync(join(root, f), join(dir, f), { recursive: true });
  return dir;
}

/**
 * Runs an npm script's command in `cwd` as `npm run <name> -- <args>` would (the root's
 * node_modules/.bin first on PATH).
 */
function runScript(name, cwd, env = process.env, args = []) {
  return runCommand('sh', ['-c', `${scripts[name]} "$@"`, 'sh', ...args], {
    cwd,
    env: { ...env, PATH: `${join(root, 'node_modules', '.bin')}${delimiter}${env.PATH}` },
  });
}

describe('npm run lint:biome', () => {
  it('fails on a formatting or lint error in scripts/ and in every package, not in generated code', async () => {
    const dir = folderWith('biome.jsonc', '.gitignore');
    const unformatted = 'const  a = {b:1}\nexport default a\n';
    const probes = [
      'scripts/gate-probe.mjs',
      ...readdirSync(join(root, 'packages')).map((p) => `packages/${p}/src/gate-probe.${p === 'client' ? 'ts' : 'js'}`),
    ];
    for (const probe of probes) {
      mkdirSync(join(dir, probe, '..'), { recursive: true });
      writeFileSync(join(dir, probe), unformatted);
    }
    mkdirSync(join(dir, 'packages/client/src/generated'), { recursive: true });
    writeFileSync(join(dir, 'packages/client/src/generated/gate-probe.ts'), unformatted);
    writeFileSync(join(dir, 'scripts/lint-probe.mjs'), 'let a = 1;\nif (a == 2) a = 3;\nexport default a;\n');

    const { code, out } = await runScript('lint:biome', dir);
    for (const probe of probes) expect(out).toContain(`${probe} format`);
    expect(out).toMatch(/scripts\/lint-probe\.mjs:2:\d+ lint\/suspicious\/noDoubleEquals/);
    expect(out).not.toContain('generated/gate-probe.ts');
    expect(code).toBe(1);
  });
});

it('lint:biome fails on warnings, not only on errors', () => {
  expect(scripts['lint:biome'].split(/\s+/)).toContain('--error-on-warnings');
});

describe('npm run lint:biome, a new warning', () => {
  it('fails on a warning in scripts/ and in every package, naming the file and the rule', async () => {
    const dir = folderWith('biome.jsonc', '.gitignore');
    // an unused parameter: a warning of the recommended preset that no exception turns off
    const probes = [
      'scripts/warning-probe.mjs',
      ...readdirSync(join(root, 'packages')).map(
        (p) => `packages/${p}/src/warning-probe.${p === 'client' ? 'ts' : 'js'}`,
      ),
    ];
    for (const probe of probes) {
      mkdirSync(join(dir, probe, '..'), { recursive: true });
      writeFileSync(join(dir, probe), 'export const first = (a, b) => a;\n');
    }

    const { code, out } = await runScript('lint:biome', dir, process.env);
    for (const probe of probes)
      expect(out).toMatch(
        new RegExp(`${probe.replace(/\./g, '\\.')}:1:\\d+ lint/correctness/noUnusedFunctionParameters`),
      );
    expect(code).toBe(1);
  });
});

describe('npm run lint:redocly', () => {
  it('fails on a finding and names its source file and line', async () => {
    const dir = folderWith('redocly.yaml', 'spec');
    const file = join(dir, 'spec/objects/openapi.yaml');
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^openapi: 3\.1\.0$/m);
    writeFileSync(file, text.replace(/^openapi: 3\.1\.0$/m, 'openapi: 3.1.0\nbogus: 1'));
    const line = text.split('\n').indexOf('openapi: 3.1.0') + 2;

    const { code, out } = await runScript('lint:redocly', dir, redoclyEnv(), ['objects']);
    expect(out).toMatch(new RegExp(`spec/objects/openapi\\.yaml:${line}:\\d+`));
    expect(out).toMatch(/bogus/);
    expect(code).not.toBe(0);
  });
});
