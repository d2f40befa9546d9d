// `npm run serve` ends its Prism processes with it, also when its terminal closes (SIGHUP).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { root } from '@svc/oas/apis';

let child;

afterAll(() => {
  // serve runs in its own process group: whatever it left behind goes with the group.
  if (child?.pid) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // the group is already gone
    }
  }
});

/** Whether something accepts connections on 127.0.0.1:`port`. */
const listening = (port) =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    }).on('error', () => resolve(false));
  });

it('stops the mocks when it gets SIGHUP', async () => {
  if (!existsSync(join(root, 'packages', 'explorer', 'dist', 'index.html'))) {
    execFileSync(process.execPath, [join(root, 'packages', 'explorer', 'scripts', 'build.mjs')], { cwd: root, stdio: 'ignore' });
  }
  child = spawn(process.execPath, [join(root, 'scripts', 'serve.mjs'), '--port', '0', '--mock-port', '0'], { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  for (let waited = 0; !/Ctrl-C stops them/.test(output); waited += 200) {
    if (waited > 120_000 || child.exitCode !== null) throw new Error(`serve did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const ports = [...output.matchAll(/^mock\s+\S+\s+http:\/\/127\.0\.0\.1:(\d+)/gm)].map((m) => Number(m[1]));
  expect(ports).toHaveLength(3);
  for (const port of ports) expect(await listening(port)).toBe(true);

  child.kill('SIGHUP');
  await exited;
  const open = async () => (await Promise.all(ports.map(listening))).filter(Boolean).length;
  for (let i = 0; i < 50 && (await open()) > 0; i++) await new Promise((r) => setTimeout(r, 200));
  expect(await open()).toBe(0);
}, 180_000);
