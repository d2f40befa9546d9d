// `npm run simulator` as a user runs it: a child process, driven by a production-style client
// (plain fetch with host, port, credentials and an unverified certificate, as `curl -k` does),
// killed with SIGKILL and started again on the same data dir.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@svc/mock';
import { Agent, fetch } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../src/cli.js', import.meta.url));
const PASSWORD = 'cli-test-password';
const dataDir = mkdtempSync(join(tmpdir(), 'svc-sim-cli-'));
const children = new Set();
const insecure = new Agent({ connect: { rejectUnauthorized: false } });

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await insecure.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Runs the CLI; resolves with the child and its printed URL once it listens, or its exit code and output. */
function run(args, env = {}) {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, SVC_SIM_PASSWORD: '', SVC_PASSWORD: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the simulator did not start in time:\n${out}`)), 600_000);
    const onData = (chunk) => {
      out += chunk;
      const match = /local svc\s+(\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1], out: () => out });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('close', (code) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code, out: () => out });
    });
  });
}

const killed = (child) =>
  new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGKILL');
  });

describe('npm run simulator', () => {
  it('refuses bad arguments with one line naming the option, the usage and exit code 2', async () => {
    for (const [args, message] of [
      [['--port', 'http'], /--port must be a port number from 0 to 65535; got "http"/],
      [['--task-seconds=-1'], /--task-seconds must be a number >= 0/],
      [['--faults', '503=2'], /--faults: 503 is a rate between 0 and 1/],
      [['--cert', 'x.pem'], /--cert and --key go together/],
      [['--colour'], /Unknown option '--colour'/],
      [['--snapshot', 'no-such-snapshot.tar'], /--snapshot must name a readable file \(ENOENT\)/],
      [['--snapshot', tmpdir()], /--snapshot must name a readable file \(not a regular file\)/],
    ]) {
      const { code, out } = await run(args);
      expect(code).toBe(2);
      expect(out()).toMatch(message);
      expect(out()).toMatch(/^Usage: svc-simulator/m);
    }
  });

  it('takes --snapshot from SVC_SIM_SNAPSHOT too, and names the variable when its file does not read', async () => {
    const { code, out } = await run([], { SVC_SIM_SNAPSHOT: 'no-such-snapshot.tar' });
    expect(code).toBe(2);
    expect(out()).toMatch(/SVC_SIM_SNAPSHOT: --snapshot must name a readable file \(ENOENT\)/);
  });

  it('serves a production-style client, keeps everything across SIGKILL, and resumes a running task', async () => {
    const port = await freePort();
    const args = [
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--data',
      dataDir,
      '--user',
      'admin',
      '--task-seconds',
      '0.2',
    ];
    const first = await run(args, { SVC_SIM_PASSWORD: PASSWORD });
    expect(first.url).toBe(`https://127.0.0.1:${port}`);
    expect(first.out()).not.toContain(PASSWORD);
    const headers = { authorization: `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}` };
    const api = async (method, path, body, type = 'application/json') => {
      const res = await fetch(`https://127.0.0.1:${port}/api/svc/v3${path}`, {
        method,
        headers: { ...headers, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': type }) },
        body: body === undefined || type !== 'application/json' ? body : JSON.stringify(body),
        dispatcher: insecure,
        duplex: 'half',
      });
      const text = await res.text();
      return {
        status: res.status,
        body: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text,
      };
    };
    const pollTask = async (uuid) => {
      for (let i = 0; i < 300; i++) {
        const { body } = await api('GET', `/tasks/${uuid}`);
        if (body.status === 'SUCCEEDED') return body;
        if (body.status === 'FAILED') throw new Error(body.error_detail);
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('task did not end');
    };

    // create, poll until SUCCEEDED, upload a local file, delete, poll until 404
    const created = await api('POST', '/images', {
      api_version: '3.1.0',
      metadata: { kind: 'image' },
      spec: { name: 'prod-style', resources: { image_type: 'DISK_IMAGE', architecture: 'X86_64' } },
    });
    expect(created.status).toBe(202);
    const uuid = created.body.metadata.uuid;
    await pollTask(created.body.status.execution_context.task_uuid);
    const file = join(dataDir, '..', `svc-sim-upload-${process.pid}.img`);
    writeFileSync(file, randomBytes(64 * 1024));
    const { openAsBlob } = await import('node:fs');
    expect((await api('PUT', `/images/${uuid}/file`, await openAsBlob(file), 'application/octet-stream')).status).toBe(
      200,
    );
    rmSync(file);
    const kept = await api('POST', '/images', {
      api_version: '3.1.0',
      metadata: { kind: 'image' },
      spec: { name: 'kept', resources: { image_type: 'ISO_IMAGE' } },
    });
    await pollTask(kept.body.status.execution_context.task_uuid);
    const deleted = await api('DELETE', `/images/${uuid}`);
    expect(deleted.body.status.state).toBe('DELETE_PENDING');
    let status = 0;
    for (let i = 0; i < 3000 && status !== 404; i++) {
      status = (await api('GET', `/images/${uuid}`)).status;
      if (status !== 404) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(404);
    await killed(first.child);

    // a task left running by a SIGKILL
    const slow = await run([...args.slice(0, -1), '60'], { SVC_SIM_PASSWORD: PASSWORD });
    const pending = await api('POST', '/images', {
      api_version: '3.1.0',
      metadata: { kind: 'image' },
      spec: { name: 'interrupted', resources: { image_type: 'DISK_IMAGE' } },
    });
    const pendingTask = pending.body.status.execution_context.task_uuid;
    // readiness, not time: a queued task starts on a timer, late on a busy machine
    await expect
      .poll(async () => (await api('GET', `/tasks/${pendingTask}`)).body.status, { timeout: 60_000 })
      .toBe('RUNNING');
    await killed(slow.child);

    const again = await run(args, { SVC_SIM_PASSWORD: PASSWORD });
    const keptNow = await api('GET', `/images/${kept.body.metadata.uuid}`);
    expect(keptNow.body.status.state).toBe('COMPLETE');
    expect((await api('GET', `/images/${uuid}`)).status).toBe(404);
    const resumed = await pollTask(pendingTask);
    expect(resumed.progress_message).toMatch(/resumed after a restart/);
    expect((await api('GET', `/images/${pending.body.metadata.uuid}`)).body.status.state).toBe('COMPLETE');
    await killed(again.child);
  });

  it('prints a generated password, kept in the data dir for the next start, when none is given', async () => {
    const port = await freePort();
    const started = await run(['--port', String(port), '--data', dataDir, '--http']);
    expect(started.url).toBe(`http://127.0.0.1:${port}`);
    const password = /password (\S+) \(generated/.exec(started.out())?.[1];
    expect(password).toBeTruthy();
    const res = await fetch(`${started.url}/api/svc/v3/clusters/list`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`,
        'content-type': 'application/json',
      },
      body: '{}',
    });
    expect(res.status).toBe(200);
    await killed(started.child);

    // kept in the data dir (0600, its name relative to the working directory): the same at the next start
    expect(statSync(join(dataDir, 'password')).mode & 0o777).toBe(0o600);
    expect(started.out()).not.toContain(dataDir);
    const again = await run(['--port', String(port), '--data', dataDir, '--http']);
    expect(again.out()).toMatch(new RegExp(`password ${password} \\(kept in \\S+/password;`));
    await killed(again.child);
  });

  it('takes $SVC_PASSWORD, the name npm start prints and the samples send; $SVC_SIM_PASSWORD wins', async () => {
    const port = await freePort();
    const args = ['--port', String(port), '--data', dataDir, '--http'];
    const status = (url, password) =>
      fetch(`${url}/api/svc/v3/clusters/list`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`,
          'content-type': 'application/json',
        },
        body: '{}',
      }).then((res) => res.status);
    const sent = await run(args, { SVC_PASSWORD: 'from-svc-password' });
    expect(sent.out()).not.toMatch(/password \S+ \((generated, )?kept/);
    expect(sent.out()).not.toContain('from-svc-password');
    expect(await status(sent.url, 'from-svc-password')).toBe(200);
    await killed(sent.child);
    const both = await run(args, { SVC_PASSWORD: 'from-svc-password', SVC_SIM_PASSWORD: PASSWORD });
    expect(await status(both.url, PASSWORD)).toBe(200);
    expect(await status(both.url, 'from-svc-password')).toBe(401);
    await killed(both.child);
  });

  it('--help says where the password comes from, both names explained', async () => {
    const { code, out } = await run(['--help']);
    expect(code).toBe(0);
    expect(out()).toMatch(
      /Password: --password, else \$SVC_SIM_PASSWORD \(named like the other SVC_SIM_\* settings\), else \$SVC_PASSWORD \(the name\s+npm start prints/,
    );
  });
});
