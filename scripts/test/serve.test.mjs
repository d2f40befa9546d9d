// `npm run serve` ends its Prism processes with it, also when its terminal closes (SIGHUP) or it
// dies of an uncaught error; the local svc's generated password is kept in its data dir.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from '@svc/oas/apis';
import { credentialsLine } from '@svc/serve';
import { afterAll, expect, it } from 'vitest';
import { COMMAND_LIMIT_MS, GrowingText } from './support/run.mjs';

const groups = [];
const dirs = [];

afterAll(() => {
  // Each child runs in its own process group: whatever it left behind goes with the group.
  for (const pid of groups) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // the group is already gone
    }
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Whether process `pid` still runs (a zombie that nobody reaped has ended). */
function running(pid) {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Whether something accepts connections on 127.0.0.1:`port`. */
const listening = (port) =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    }).on('error', () => resolve(false));
  });

/**
 * Starts `npm run serve` on free ports with its data in `dataDir` and resolves with the child, its
 * output so far and its process-exit promise once it has printed its URLs.
 */
async function serve(dataDir) {
  const child = spawn(
    process.execPath,
    [join(root, 'scripts', 'serve.mjs'), '--port', '0', '--mock-port', '0', '--sim-port', '0', '--data', dataDir],
    {
      cwd: root,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, SVC_PASSWORD: '', SVC_SIM_PASSWORD: '' },
    },
  );
  groups.push(child.pid);
  const text = new GrowingText();
  child.stdout.on('data', (c) => text.append(c));
  child.stderr.on('data', (c) => text.append(c));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.once('exit', (code, signal) => text.end(`serve exited with ${signal ?? `code ${code}`}`));
  // four Prism mocks and the simulator (13 s at load 10 with three mocks)
  await text.until(/Ctrl-C stops them/, { what: 'serve\'s start ("Ctrl-C stops them")', limitMs: 240_000 });
  const output = text.text;
  return { child, output, exited, text };
}

it("prints where each mock's paths start, keeps its password across a restart, and stops the mocks on SIGHUP", async () => {
  if (!existsSync(join(root, 'packages', 'explorer', 'dist', 'index.html'))) {
    execFileSync(process.execPath, [join(root, 'packages', 'explorer', 'scripts', 'build.mjs')], {
      cwd: root,
      stdio: 'ignore',
      timeout: COMMAND_LIMIT_MS,
    });
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-serve-'));
  dirs.push(dataDir);
  const { child, output, exited, text } = await serve(dataDir);
  const ports = [...output.matchAll(/^mock\s+\S+\s+http:\/\/127\.0\.0\.1:(\d+)/gm)].map((m) => Number(m[1]));
  expect(ports).toHaveLength(4); // central, element, objects, control
  // The credentials line the explorer's samples read (none was set: generated and kept).
  const password = /^export SVC_USER=admin SVC_PASSWORD=([A-Za-z0-9_-]{16})$/m.exec(output)?.[1];
  expect(password, output).toBeTruthy();
  expect(output).toMatch(/password generated and kept in svc-serve-\w+\/password/);
  expect(output).not.toContain(dataDir); // the folder's name only, never the local path
  expect(statSync(join(dataDir, 'password')).mode & 0o777).toBe(0o600);
  for (const port of ports) expect(await listening(port)).toBe(true);
  // The mock line says where its paths start, and it is so: /images/list, not /api/svc/v3/images/list.
  const [, centralMock, basePath] = /^mock\s+central\s+(\S+)\s+\(Prism: paths without (\S+);/m.exec(output) ?? [];
  expect(basePath, output).toBe('/api/svc/v3');
  const list = (path) =>
    fetch(`${centralMock}${path}`, {
      method: 'POST',
      headers: { authorization: `Basic ${btoa('any:one')}`, 'content-type': 'application/json' },
      body: '{"kind":"image"}',
    }).then((res) => res.status);
  expect(await list('/images/list')).toBe(200);
  expect(await list(`${basePath}/images/list`)).toBe(404);

  child.kill('SIGHUP');
  // one line naming what stopped, after the closes ended
  await text.until(/^stopped: local svc, mock central, mock element, mock objects, mock control, explorer$/m, {
    what: 'the line naming what stopped',
    limitMs: 60_000,
  });
  expect(await exited).toBe(0);
  const open = async () => (await Promise.all(ports.map(listening))).filter(Boolean).length;
  for (let i = 0; i < 50 && (await open()) > 0; i++) await new Promise((r) => setTimeout(r, 200));
  expect(await open(), 'mocks still listening 10 s after serve ended').toBe(0);

  // Started again on the same data: the same password, so a tab authorized before still is.
  const again = await serve(dataDir);
  expect(again.output).toMatch(/password kept in svc-serve-\w+\/password/);
  expect(again.output).toContain(`export SVC_USER=admin SVC_PASSWORD=${password}\n`);
  again.child.kill('SIGHUP');
  await again.exited;
});

it('stops them when it dies of an uncaught error', async () => {
  const script = `
    import { spawn } from 'node:child_process';
    import { stopOnExit } from '@svc/serve';
    const sleeper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    stopOnExit(() => new Map([['sleeper', { close: () => sleeper.kill('SIGTERM') }]]));
    console.log(sleeper.pid);
    setTimeout(() => { throw new Error('boom'); }, 200);
  `;
  const crashing = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  groups.push(crashing.pid);
  let output = '';
  crashing.stdout.on('data', (c) => (output += c));
  crashing.stderr.on('data', (c) => (output += c));
  const code = await new Promise((resolve) => crashing.once('close', resolve));
  expect(output).toMatch(/boom/);
  expect(code).not.toBe(0);
  const pid = Number(/^(\d+)$/m.exec(output)?.[1]);
  expect(pid).toBeGreaterThan(0);
  for (let i = 0; i < 50 && running(pid); i++) await new Promise((r) => setTimeout(r, 100));
  expect(running(pid)).toBe(false);
});

it('names where a password chosen in SVC_SIM_PASSWORD is, in the line the samples read, never its value', () => {
  expect(credentialsLine('admin', 'gen-erated_1')).toBe('export SVC_USER=admin SVC_PASSWORD=gen-erated_1');
  expect(credentialsLine('admin', null)).toBe('export SVC_USER=admin   # SVC_PASSWORD is set already');
  const line = credentialsLine('admin', null, 'SVC_SIM_PASSWORD');
  expect(line).toBe('export SVC_USER=admin SVC_PASSWORD="$SVC_SIM_PASSWORD"');
  // pasted into a shell that has the simulator's setting, it gives the samples the same password
  const shell = execFileSync('bash', ['-c', `${line}; printf %s "$SVC_PASSWORD"`], {
    env: { PATH: process.env.PATH, SVC_SIM_PASSWORD: "it's s3cret" },
    encoding: 'utf8',
  });
  expect(shell).toBe("it's s3cret");
});
