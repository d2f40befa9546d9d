// .ci/run calls scripts/node.mjs with the machine's Node before `npm ci`: the script and what it
// loads at start must run with no node_modules anywhere (a fresh clone).
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCommand } from './support/run.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const clone = mkdtempSync(join(tmpdir(), 'bootstrap-'));
afterAll(() => rmSync(clone, { recursive: true, force: true }));

describe('scripts/node.mjs before npm ci', () => {
  it('answers its own usage error (exit 2), not a missing package', async () => {
    // The files a fresh clone has, without node_modules: the scripts and the workspace sources.
    for (const dir of ['scripts', 'packages/args/src']) {
      cpSync(join(root, dir), join(clone, dir), {
        recursive: true,
        filter: (src) => !src.includes('node_modules'),
      });
    }
    cpSync(join(root, 'package.json'), join(clone, 'package.json'));
    const { code, out } = await runCommand(process.execPath, [join(clone, 'scripts', 'node.mjs'), 'x'], {
      cwd: clone,
    });
    expect(out).not.toMatch(/ERR_MODULE_NOT_FOUND|Cannot find package/);
    expect(code, out).toBe(2);
    expect(out).toMatch(/^node: "x" is not a Node line/m);
  });
});
