// The Spectral gate of `npm test` (`npm run lint:spectral`) can fail: on a copy of the repository
// whose objects API breaks a house rule, it exits 1 and names the finding at its source YAML line.
// So can the lint report of `npm start` (scripts/lint-all.mjs, Redocly and Spectral in one process).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyRepository } from '../lib/repo-copy.mjs';
import { runCommand } from './support/run.mjs';

const copy = mkdtempSync(join(tmpdir(), 'svc-lint-spectral-'));
const source = join('spec', 'objects', 'paths', 'groups.yaml');

/** Runs `node scripts/<script> <args>` in the copy. */
const run = (script, args) => runCommand(process.execPath, [join(copy, 'scripts', script), ...args], { cwd: copy });

let line;
beforeAll(async () => {
  copyRepository(copy);
  // an operationId outside the grammar <resource>_<verb>[_qualifier] (rule svc-operation-id-grammar)
  const text = readFileSync(join(copy, source), 'utf8');
  line = text.split('\n').findIndex((l) => /operationId: groups_list\b/.test(l)) + 1;
  expect(line).toBeGreaterThan(0);
  writeFileSync(join(copy, source), text.replace('operationId: groups_list', 'operationId: listGroups'));
  const bundled = await run('bundle.mjs', []);
  expect(bundled.code, bundled.out).toBe(0);
});

afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe('npm run lint:spectral', () => {
  it('exits 1 on a finding and reports it at its source YAML file and line', async () => {
    const { code, out } = await run('lint-spectral.mjs', ['objects']);
    expect(out).toMatch(
      new RegExp(`^${source.replace(/[.@{}]/g, '\\$&')}:${line}:\\d+ error svc-operation-id-grammar `, 'm'),
    );
    expect(out).toMatch(/spectral objects: [1-9]\d* finding\(s\)/);
    expect(code).toBe(1);
  });
});

describe('the lint report of npm start (scripts/lint-all.mjs)', () => {
  it('exits 1 on a finding, names it at its source line and says FAIL in its last line', async () => {
    const { code, out } = await run('lint-all.mjs', []);
    expect(out).toMatch(
      new RegExp(`^${source.replace(/[.@{}]/g, '\\$&')}:${line}:\\d+ error svc-operation-id-grammar `, 'm'),
    );
    expect(out.trimEnd().split('\n').at(-1)).toMatch(
      /^lint: FAIL, \d+ Redocly and [1-9]\d* Spectral finding\(s\) in 4 APIs/,
    );
    expect(code).toBe(1);
  });
});
