// The README as written (issue 61). "Run your automation against a local svc": its shell blocks run
// against `npm run simulator` started as the README starts it (on a free port instead of 9440, its
// data in a temporary folder), the first `curl` example creates from the local svc's own sample,
// and its client example runs. "Use the client": a consumer project as `npm init -y` makes it
// (CommonJS) fails its first `tsc` as the README says, then compiles with the README's steps and
// `tsconfig.json`, the client installed offline from its packed tarball.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@svc/mock';
import { root } from '@svc/oas/apis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GrowingText, runCommand } from './support/run.mjs';

const readme = readFileSync(join(root, 'README.md'), 'utf8');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

/** The text of the README's `## <title>` section. */
function section(title) {
  const start = readme.indexOf(`\n## ${title}\n`);
  expect(start, `README section "## ${title}"`).toBeGreaterThan(0);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** The code blocks of `text` in `lang`, in order. */
const blocks = (text, lang) =>
  [...text.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]);

const local = section('Run your automation against a local svc');
const [startBlock = '', firstExample = '', internetExample = ''] = blocks(local, 'sh');
const [clientExample = ''] = blocks(local, 'ts');
/** The variables of the block's `export` line, as a shell sets them. */
const exported = Object.fromEntries(
  [...(/^export (.+)$/m.exec(startBlock)?.[1] ?? '').matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1], m[2]]),
);

const dir = mkdtempSync(join(tmpdir(), 'svc-readme-'));
const groups = [];
let port;
let env;

/** Runs `script` with bash (errexit, pipefail) in `cwd`, with the README's variables. */
const bash = (script, cwd = dir) =>
  runCommand('bash', ['-e', '-o', 'pipefail', '-c', script], { cwd, env, limitMs: 120_000 });

beforeAll(async () => {
  port = await freePort();
  // the password of the README's export line only: none kept, none from the caller's shell
  env = { ...process.env, SVC_PASSWORD: '', SVC_SIM_PASSWORD: '', ...exported, SVC_SIM_DATA: join(dir, '.simulator') };
  const child = spawn('bash', ['-c', startBlock.replaceAll('9440', String(port))], {
    cwd: root,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  groups.push(child.pid);
  const text = new GrowingText();
  child.stdout.on('data', (c) => text.append(c));
  child.stderr.on('data', (c) => text.append(c));
  await text.until(new RegExp(`^local svc\\s+https://127\\.0\\.0\\.1:${port}\\s`, 'm'), {
    what: "the README's `npm run simulator` listening",
    limitMs: 120_000,
  });
});

afterAll(() => {
  // the README's `&` leaves the simulator in the group of the shell that started it
  for (const pid of groups) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // ended already
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('README: run your automation against a local svc', () => {
  it('names one pair of credential variables, the ones npm start prints', () => {
    expect(exported).toEqual({ SVC_USER: 'admin', SVC_PASSWORD: 's3cret' });
    expect(startBlock).toMatch(/^npm run simulator -- --port 9440 .*&$/m);
    for (const example of [firstExample, internetExample])
      expect(example.match(/-u "\$SVC_USER:\$SVC_PASSWORD"/g)?.length).toBe(
        example.match(/^\s*(TASK=\$\()?curl/gm)?.length,
      );
    expect(clientExample).toMatch(/username: process\.env\.SVC_USER!,\n\s+password: process\.env\.SVC_PASSWORD!,/);
    expect(local).not.toMatch(/\$SVC_SIM_PASSWORD|process\.env\.SVC_SIM_PASSWORD/);
  });

  it("creates from the local svc's own sample first, the internet URL second", () => {
    expect(firstExample).toContain('"source_uri":"https://127.0.0.1:9440/samples/cirros.img"');
    expect(firstExample).not.toMatch(/cirros-cloud\.net/);
    expect(internetExample).toContain('https://download.cirros-cloud.net/');
  });

  it('runs the first example as written: the task succeeds, the list shows the image', async () => {
    const run = await bash(`${firstExample.replaceAll('9440', String(port))}\necho "TASK=$TASK"`);
    expect(run.code, run.out).toBe(0);
    const [status, ...names] = run.out.trim().split('\n');
    expect(['QUEUED', 'RUNNING', 'SUCCEEDED'], run.out).toContain(status);
    expect(names, run.out).toContain('cirros');
    const task = /^TASK=(\S+)$/m.exec(run.out)?.[1];
    expect(task, run.out).toMatch(/^[0-9a-f-]{36}$/);
    // the README's task line again, as a user repeats it, until the task ends
    const follow = firstExample.split('\n').find((line) => line.includes('/tasks/$TASK'));
    expect(follow).toBeDefined();
    let last = status;
    for (let i = 0; i < 240 && ['QUEUED', 'RUNNING'].includes(last); i++) {
      const again = await bash(`TASK=${task}\n${follow?.replaceAll('9440', String(port))}`);
      last = again.out.trim();
      if (['QUEUED', 'RUNNING'].includes(last)) await new Promise((r) => setTimeout(r, 250));
    }
    expect(last).toBe('SUCCEEDED');
  });
});

describe('README: use the client (ESM only), from the packed tarball, offline', () => {
  it('a CommonJS project fails tsc as the README says; its steps and tsconfig compile; the local svc example runs', async () => {
    const use = section('Use the client');
    expect(use).toMatch(/ESM only/);
    const [steps = ''] = blocks(use, 'sh');
    const [tsconfig = ''] = blocks(use, 'json');
    const [example = ''] = blocks(use, 'ts');
    expect(steps.trim().split('\n')).toEqual([
      'npm pkg set type=module',
      'npm install @svc/client',
      'npm install --save-dev typescript @types/node@22',
    ]);

    // the client packed from a copy (its prepack writes beside the manifest; the checkout stays as it is)
    const copy = join(dir, 'repo');
    const pkg = join(copy, 'packages', 'client');
    mkdirSync(pkg, { recursive: true });
    for (const f of ['package.json', 'README.md', 'CHANGELOG.md', 'scripts', 'src', 'dist'])
      cpSync(join(root, 'packages', 'client', f), join(pkg, f), { recursive: true });
    cpSync(join(root, 'LICENSE'), join(copy, 'LICENSE'));
    symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
    const packed = await runCommand('npm', ['pack', '--pack-destination', dir], { cwd: pkg });
    expect(packed.code, packed.out).toBe(0);
    const tarball = readdirSync(dir).find((f) => /^svc-client-.+\.tgz$/.test(f));
    expect(tarball, packed.out).toBeDefined();

    // a consumer as `npm init -y` and `tsc --init` make it: CommonJS
    const project = join(dir, 'consumer');
    mkdirSync(project);
    const npm = (args) => runCommand('npm', args, { cwd: project, env });
    expect((await npm(['init', '-y'])).code).toBe(0);
    const installed = await npm([
      'install',
      join(dir, /** @type {string} */ (tarball)),
      '@types/node@22',
      '--offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
    ]);
    expect(installed.code, installed.out).toBe(0);
    expect((await runCommand(process.execPath, [tsc, '--init'], { cwd: project })).code).toBe(0);
    writeFileSync(join(project, 'index.ts'), example);
    writeFileSync(join(project, 'local-svc.ts'), clientExample.replaceAll('9440', String(port)));
    const first = await runCommand(process.execPath, [tsc, '-p', project], { cwd: project });
    expect(first.code, first.out).not.toBe(0);
    expect(first.out).toMatch(/index\.ts.*error TS1295:/);
    expect(first.out).toMatch(/index\.ts.*error TS1309:/);

    // the README's steps: a module, its tsconfig.json
    const typed = await bash(steps.split('\n')[0], project);
    expect(typed.code, typed.out).toBe(0);
    writeFileSync(join(project, 'tsconfig.json'), tsconfig);
    const second = await runCommand(process.execPath, [tsc, '-p', project], { cwd: project });
    expect(second.code, second.out).toBe(0);

    // the local svc's client example, run where the README runs it: beside .simulator/ and ./local.iso
    writeFileSync(join(dir, 'local.iso'), Buffer.alloc(64 * 1024, 7));
    const ran = await runCommand(process.execPath, [join(project, 'local-svc.js')], { cwd: dir, env });
    expect(ran.code, ran.out).toBe(0);
    const names = await bash(
      `curl -sk -u "$SVC_USER:$SVC_PASSWORD" -H 'Content-Type: application/json' -d '{"kind":"image","length":100}' https://127.0.0.1:${port}/api/svc/v3/images/list | jq -r '.entities[].spec.name'`,
    );
    expect(names.out.split('\n')).toContain('local.iso');
  });
});
