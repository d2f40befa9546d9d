// Ctrl-C on `npm start` (issue 61): every server stops, one line says which, nothing is left
// running or listening, and npm reports no failure. Run in a copy of the checkout (its bundles,
// explorer build and data its own, the installed packages linked), as a terminal sends Ctrl-C: a
// SIGINT to the whole foreground process group.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { copyRepository, dateManifestsInstalled } from '../lib/repo-copy.mjs';
import { GrowingText } from './support/run.mjs';

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

/** Whether something accepts connections on 127.0.0.1:`port`. */
const listening = (port) =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    }).on('error', () => resolve(false));
  });

/** Whether any process of group `pgid` still runs. */
function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

it('Ctrl-C stops every server, says which in one line, leaves nothing running; npm reports no error', async () => {
  const copy = mkdtempSync(join(tmpdir(), 'svc-start-ctrl-c-'));
  dirs.push(copy);
  copyRepository(copy);
  dateManifestsInstalled(copy); // `npm start` installs nothing there

  const child = spawn('npm', ['start', '--', '--port', '0', '--mock-port', '0', '--sim-port', '0'], {
    cwd: copy,
    env: { ...process.env, SVC_PASSWORD: '', SVC_SIM_PASSWORD: '' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pgid = /** @type {number} */ (child.pid);
  groups.push(pgid);
  const text = new GrowingText();
  child.stdout.on('data', (c) => text.append(c));
  child.stderr.on('data', (c) => text.append(c));
  const closed = new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  child.once('close', (code, signal) => text.end(`npm start ended (${signal ?? code})`));
  await text.until(/Ctrl-C stops them/, { what: 'the URLs of npm start', limitMs: 240_000 });
  const ports = [...text.text.matchAll(/^(?:local svc|mock\s+\S+|explorer)\s+https?:\/\/127\.0\.0\.1:(\d+)/gm)].map(
    (m) => Number(m[1]),
  );
  expect(ports, text.text).toHaveLength(6); // the local svc, four mocks (central, element, objects, control), the explorer

  process.kill(-pgid, 'SIGINT');
  // npm ends as its script's shell does: dash, having seen the SIGINT, raises it again after its
  // child ended (exit 0); a shell that does not (bash) ends with code 0
  expect([JSON.stringify({ code: 0, signal: null }), JSON.stringify({ code: null, signal: 'SIGINT' })]).toContain(
    JSON.stringify(await closed),
  );
  const after = text.text.slice(text.text.indexOf('Ctrl-C stops them'));
  expect(after).toMatch(/^stopped: local svc, mock central, mock element, mock objects, mock control, explorer$/m);
  expect(after).not.toMatch(/npm error|Error|ELIFECYCLE/);
  for (let i = 0; i < 50 && groupAlive(pgid); i++) await new Promise((r) => setTimeout(r, 100));
  expect(groupAlive(pgid), 'a process of npm start outlived it').toBe(false);
  for (const port of ports) expect(await listening(port), `port ${port} still listening`).toBe(false);
});
