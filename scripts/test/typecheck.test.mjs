// `npm test`'s type check can fail: in a copy of the repository, a type error is added to one file
// of each project that the root's `npm run typecheck` builds (`tsc -b` over `scripts/` and every
// package), and the one run must exit non-zero naming each file and line. A project that stopped
// checking its files (an `exclude`, `checkJs` off, a folder left out of `include`) or that the
// command no longer names fails here.
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from '@svc/oas/apis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyRepository } from '../lib/repo-copy.mjs';
import { runCommand } from './support/run.mjs';

/** [project folder, a file that project must check]. */
const PROJECTS = [
  ['scripts', 'scripts/dev.mjs'],
  ['scripts', 'scripts/lib/dev.mjs'],
  ['scripts', 'scripts/pretest.mjs'],
  ['packages/args', 'packages/args/src/index.js'],
  ['packages/client', 'packages/client/src/paging.ts'],
  ['packages/contract-tests', 'packages/contract-tests/test/contract.ts'],
  ['packages/explorer', 'packages/explorer/src/server.js'],
  ['packages/explorer', 'packages/explorer/scripts/build.mjs'],
  ['packages/mock', 'packages/mock/src/index.js'],
  ['packages/oas', 'packages/oas/src/ref.js'],
  ['packages/serve', 'packages/serve/src/index.js'],
  ['packages/simulator', 'packages/simulator/src/cli.js'],
  ['packages/spectral-rules', 'packages/spectral-rules/functions/uuidProperty.js'],
];

let copy;
/** The line of each file's added error, 1-based. */
const errorLine = new Map();

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'svc-typecheck-'));
  copyRepository(copy);
  for (const [, file] of PROJECTS) {
    const path = join(copy, file);
    const text = readFileSync(path, 'utf8');
    // a string where a number is declared: TS2322 on the declaration's line
    const error = file.endsWith('.ts')
      ? 'export const typecheckCanFail: number = "not a number";\n'
      : '/** @type {number} */\nexport const typecheckCanFail = "not a number";\n';
    appendFileSync(path, `${text.endsWith('\n') ? '' : '\n'}${error}`);
    const lines = readFileSync(path, 'utf8').split('\n');
    errorLine.set(file, lines.findIndex((l) => l.startsWith('export const typecheckCanFail')) + 1);
  }
});

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe('typecheck', () => {
  it('names scripts/ and every package with a tsconfig.json', () => {
    const command = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.typecheck.split(/\s+/);
    const packages = readdirSync(join(root, 'packages'))
      .filter((name) => existsSync(join(root, 'packages', name, 'tsconfig.json')))
      .map((name) => `packages/${name}`);
    expect(command.slice(0, 3)).toEqual(['node', 'node_modules/typescript-native/bin/tsc', '-b']);
    const projects = command.slice(3).filter((arg) => !arg.startsWith('-'));
    expect(projects.sort()).toEqual(['scripts', ...packages].sort());
    expect(new Set(PROJECTS.map(([project]) => project))).toEqual(new Set(projects));
  });

  // tsc -b of every project: 144 s in `npm test` beside a CPU hog at load 20
  it('fails on a type error in any project, naming each file and line', { timeout: 660_000 }, async () => {
    const { code, out } = await runCommand('npm', ['run', '--silent', 'typecheck'], { cwd: copy, limitMs: 600_000 });
    expect(code, out).not.toBe(0);
    for (const [, file] of PROJECTS) {
      // tsc -b names files relative to the working folder: `packages/simulator/src/cli.js(212,14): error TS2322`
      expect(out, `${file} is not type-checked`).toContain(`${file}(${errorLine.get(file)},`);
      expect(out).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\(\\d+,\\d+\\): error TS2322`));
    }
  });
});
