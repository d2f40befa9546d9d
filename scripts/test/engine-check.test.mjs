// `.ci/run`'s EBADENGINE check (scripts/engine-check.mjs) on what npm really prints: a local
// package whose `engines` excludes the running Node, installed by `npm ci` offline.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { badEngines } from '../engine-check.mjs';
import { runCommand } from './support/run.mjs';

const script = fileURLToPath(new URL('../engine-check.mjs', import.meta.url));
const dirs = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const run = (command, args, cwd) => runCommand(command, args, { cwd });

/** `npm ci`'s output in a project depending on a local package `dep` whose engines.node is `range`. */
async function npmCiLog(range) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-engine-check-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'dep'));
  mkdirSync(join(dir, 'app'));
  writeFileSync(
    join(dir, 'dep', 'package.json'),
    JSON.stringify({ name: 'dep', version: '1.0.0', engines: { node: range } }),
  );
  writeFileSync(
    join(dir, 'app', 'package.json'),
    JSON.stringify({ name: 'app', version: '1.0.0', dependencies: { dep: 'file:../dep' } }),
  );
  const flags = ['--offline', '--no-audit', '--no-fund'];
  const install = await run('npm', ['install', ...flags], join(dir, 'app')); // writes the lockfile npm ci needs
  expect(install.code, install.out).toBe(0);
  const ci = await run('npm', ['ci', ...flags], join(dir, 'app'));
  expect(ci.code, ci.out).toBe(0); // npm only warns: the check is what fails
  const log = join(dir, 'npm-ci.log');
  writeFileSync(log, ci.out);
  return { log, text: ci.out };
}

describe('engine-check', () => {
  it('fails naming the package and its range when npm ci printed EBADENGINE', async () => {
    const { log, text } = await npmCiLog('>=99');
    expect(text).toMatch(/EBADENGINE/);
    const { code, out } = await run(process.execPath, [script, log]);
    expect(code, out).toBe(1);
    expect(out).toMatch(/EBADENGINE on v\d+/);
    expect(out).toContain("dep@1.0.0 requires { node: '>=99' }");
  });

  it('passes when every engine accepts this Node', async () => {
    const { log, text } = await npmCiLog(`>=${process.versions.node.split('.')[0]}`);
    expect(text).not.toMatch(/EBADENGINE/);
    const { code, out } = await run(process.execPath, [script, log]);
    expect(code, out).toBe(0);
  });

  it('fails on EBADENGINE in a shape it does not know', () => {
    expect(badEngines('npm WARN EBADENGINE dep@1 wants node 99\n')).toEqual([{ package: '?', required: '?' }]);
    expect(badEngines('added 3 packages\n')).toEqual([]);
  });
});
