// The Node check of `npm start` (scripts/supported-node.mjs) on the machine's own Node when it is
// older than `engines` (Debian's Node 20): with SVC_NODE_FETCH=0 one line and exit 1; without it,
// `npm start` runs on the current LTS fetched into .node/, reaches its URLs and the local svc answers.
// Where the machine has no such Node, each test says NOT RUN.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { root } from '@svc/oas/apis';
import { afterAll, describe, expect, it } from 'vitest';
import { ENGINES, LTS_LINE, unsupportedMachineNode } from '../lib/node-install.mjs';
import { copyRepository, dateManifestsInstalled } from '../lib/repo-copy.mjs';
import { runCommand } from './support/run.mjs';

/** The machine's own Node, when it is outside `engines` (the case the check exists for). */
const machine = unsupportedMachineNode();
const oldNode = machine?.node;
if (!oldNode) console.log(`supported-node test: NOT RUN: no Node outside ${ENGINES} on this machine`);
/** PATH with the old Node (and the npm beside it) first. */
const oldPath = oldNode && `${dirname(oldNode)}${delimiter}${process.env.PATH}`;

const groups = [];
const dirs = [];
afterAll(() => {
  for (const pid of groups) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // ended already
    }
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The lines a command printed, less npm's own banner (`> svc-api-descriptions@ start`, `> node ...`). */
const ownLines = (out) => out.split('\n').filter((line) => line.trim() && !line.startsWith('> '));

/** POST `path` to the local svc with basic auth, trusting its self-signed certificate as `curl -k` does. */
function post(url, password, path, body) {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, {
      method: 'POST',
      rejectUnauthorized: false,
      auth: `admin:${password}`,
      headers: { 'content-type': 'application/json' },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('npm start on a Node older than engines', () => {
  it.skipIf(!oldNode)('with SVC_NODE_FETCH=0: one line naming the version, the range and the fix; exit 1', async () => {
    const { code, out } = await runCommand('npm', ['start'], {
      cwd: root,
      env: { ...process.env, PATH: oldPath, SVC_NODE_FETCH: '0' },
    });
    expect(code, out).toBe(1);
    const version = machine?.version;
    expect(ownLines(out), out).toEqual([
      `node: Node ${version} is outside the supported range ${ENGINES}: install Node ${LTS_LINE} (nvm install ${LTS_LINE}), or unset SVC_NODE_FETCH to have it fetched into .node/`,
    ]);
  });

  it.skipIf(!oldNode)(
    'runs on the LTS it fetches into .node/, reaches its URLs, and the local svc answers',
    async () => {
      // A copy of the checkout, so that its bundles, explorer build and data are its own while the
      // other tests read this checkout's; its .node/ is this checkout's (fetched once, gitignored).
      const copy = mkdtempSync(join(tmpdir(), 'svc-start-old-node-'));
      dirs.push(copy);
      copyRepository(copy);
      mkdirSync(join(root, '.node'), { recursive: true });
      symlinkSync(join(root, '.node'), join(copy, '.node'));
      dateManifestsInstalled(copy); // `npm start` installs nothing there

      const child = spawn('npm', ['start', '--', '--port', '0', '--mock-port', '0', '--sim-port', '0'], {
        cwd: copy,
        env: { ...process.env, PATH: oldPath, SVC_PASSWORD: '', SVC_SIM_PASSWORD: '' },
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      groups.push(child.pid);
      let out = '';
      child.stdout.on('data', (c) => (out += c));
      child.stderr.on('data', (c) => (out += c));
      await new Promise((resolve, reject) => {
        child.stdout.on('data', () => /Ctrl-C stops them/.test(out) && resolve(undefined));
        child.on('exit', (code) => reject(new Error(`npm start ended (${code}) before its URLs:\n${out}`)));
      });
      expect(out).toMatch(/^node: Node v\d+\.\S+ is outside the supported range .*: (fetching|running on) Node/m);
      expect(out).not.toMatch(/EBADENGINE|ERR_UNKNOWN_BUILTIN_MODULE|start: npm install/);
      const url = /^local svc\s+(https:\/\/127\.0\.0\.1:\d+)/m.exec(out)?.[1];
      const password = /^export SVC_USER=admin SVC_PASSWORD=(\S+)$/m.exec(out)?.[1];
      expect(url && password, out).toBeTruthy();
      expect(await post(url, password, '/api/svc/v3/images/list', { kind: 'image' })).toBe(200);
      process.kill(-(/** @type {number} */ (child.pid)), 'SIGTERM');
    },
  );
});
