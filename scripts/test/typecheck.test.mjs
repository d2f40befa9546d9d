// `npm test`'s type checks can fail: in a copy of the repository, a type error is added to one file
// of each project that `typecheck` runs (the root's `npm run typecheck` and each package's), and
// each must exit non-zero naming that file and line. A project that stopped checking its files
// (an `exclude`, `checkJs` off, a folder left out of `include`) fails here.
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { copyRepository } from '../lib/repo-copy.mjs';
import { runCommand } from './support/run.mjs';

/** [folder of the package.json whose `typecheck` runs, a file that project must check]. */
const PROJECTS = [
  ['.', 'scripts/dev.mjs'],
  ['.', 'scripts/lib/dev.mjs'],
  ['.', 'scripts/pretest.mjs'],
  ['packages/args', 'packages/args/src/index.js'],
  ['packages/client', 'packages/client/src/paging.ts'],
  ['packages/contract-tests', 'packages/contract-tests/test/contract.ts'],
  ['packages/explorer', 'packages/explorer/src/server.js'],
  ['packages/explorer', 'packages/explorer/scripts/build.mjs'],
  ['packages/mock', 'packages/mock/src/index.js'],
  ['packages/oas', 'packages/oas/src/ref.js'],
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

/** Runs `npm run typecheck` in `dir` of the copy. */
const typecheck = (dir) => runCommand('npm', ['run', '--silent', 'typecheck'], { cwd: join(copy, dir) });

describe('typecheck fails on a type error', () => {
  /** @type {Map<string, string[][]>} */
  const byProject = new Map();
  for (const p of PROJECTS) byProject.set(p[0], [...(byProject.get(p[0]) ?? []), p]);
  it.concurrent.for([...byProject])('%s', async ([dir, cases], { expect }) => {
    const { code, out } = await typecheck(dir);
    expect(code, out).not.toBe(0);
    for (const [, file] of cases) {
      // tsc names files relative to the project's folder: `src/cli.js(212,14): error TS2322`
      const shown = dir === '.' ? file : file.slice(dir.length + 1);
      expect(out, `${file} is not type-checked`).toContain(`${shown}(${errorLine.get(file)},`);
      expect(out).toMatch(new RegExp(`${shown.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\(\\d+,\\d+\\): error TS2322`));
    }
  });
});
