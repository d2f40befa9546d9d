// The package as a consumer gets it: `npm pack`, install the tarball into a temporary project,
// compile a strict TypeScript example with the repository's compiler and run it against a local server.

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startServer, type TestServer } from './support/server.js';

const exec = promisify(execFile);

/**
 * Runs one step of the consumer's path with its own time limit, stdin closed (a command that asks
 * a question fails rather than waits), and an error that names the step, so a hang on some Node
 * line says where it is instead of the test timing out.
 */
async function step(name: string, limitMs: number, file: string, args: string[], cwd: string) {
  const started = Date.now();
  const pending = exec(file, args, { cwd, timeout: limitMs, killSignal: 'SIGKILL', maxBuffer: 16 << 20 });
  pending.child.stdin?.end();
  try {
    return await pending;
  } catch (e) {
    const { killed, stdout = '', stderr = '' } = e as { killed?: boolean; stdout?: string; stderr?: string };
    const what = killed ? `did not finish within ${limitMs} ms` : `failed after ${Date.now() - started} ms`;
    throw new Error(
      `consumer step "${name}" ${what} on Node ${process.version}:\n${stdout.slice(-4000)}${stderr.slice(-4000)}`,
    );
  }
}
const pkg = fileURLToPath(new URL('..', import.meta.url));
const tsc = fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const TASK = '7f3c2a1e-5b4d-4e8f-9a6c-1d2b3e4f5a60';
const IMAGE = 'c2d4b1f5-8a3e-4c6b-9f1d-2e7a5b3c9d10';

const example = `
import { createCentralClient, isApiError, unwrap, type CentralSchemas } from '@svc/client';

const central = createCentralClient({ baseUrl: process.argv[2]!, username: 'admin', password: 'consumer-secret', retry: false });

const names: string[] = [];
for await (const image of central.paginate('/images/list', { kind: 'image' }, { pageSize: 2 })) names.push(image.spec?.name ?? '?');

const task: CentralSchemas['Task'] = await central.waitForTask('${TASK}', { intervalMs: 1 });

let missing = '';
try {
  await unwrap(central.GET('/images/{uuid}', { params: { path: { uuid: '${IMAGE}' } } }));
} catch (error) {
  if (isApiError(error, 404)) missing = error.reason ?? 'no reason';
  else throw error;
}

// @ts-expect-error image_type is DISK_IMAGE or ISO_IMAGE
void (() => central.POST('/images', { body: { metadata: { kind: 'image' }, spec: { name: 'x', resources: { image_type: 'CD' } } } }));

console.log(JSON.stringify({ names, task: task.status, missing, client: String(central) }));
`;

const readme = [...readFileSync(join(pkg, 'README.md'), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);

describe('consumer: packed, installed, compiled under strict, run', () => {
  let dir: string;
  let server: TestServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-client-consumer-'));
    server = await startServer((req, res) => {
      if (req.url === '/api/svc/v3/images/list') {
        const { offset, length } = JSON.parse(req.body.toString());
        const all = ['alpha', 'beta', 'gamma'].map((name, i) => ({
          metadata: { kind: 'image', uuid: `00000000-0000-4000-8000-00000000000${i}` },
          spec: { name, resources: {} },
        }));
        return json(res, 200, {
          api_version: '3.1',
          metadata: { total_matches: 3 },
          entities: all.slice(offset, offset + length),
        });
      }
      if (req.url === `/api/svc/v3/tasks/${TASK}`) return json(res, 200, { uuid: TASK, status: 'SUCCEEDED' });
      json(res, 404, {
        api_version: '3.1',
        code: 404,
        message_list: [{ message: 'not found', reason: 'ENTITY_NOT_FOUND' }],
        state: 'ERROR',
      });
    });
  });
  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  // Each step has its own limit (see `step`), all inside the test's: the whole test took 125 s in
  // `npm test` beside a CPU hog at load 20; tsc alone over 240 s at load 60; the install waits
  // out npm's fetch retries.
  it('works from the tarball', { timeout: 900_000 }, async () => {
    expect(readme.length).toBeGreaterThanOrEqual(3);
    expect(existsSync(join(pkg, 'dist/index.js')), 'dist/ is missing: run `npm run build -w @svc/client` first').toBe(
      true,
    );
    const packed = await step('npm pack', 240_000, npm, ['pack', '--json', '--pack-destination', dir], pkg);
    const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    const files = info!.files.map((f) => f.path);
    expect(files).toContain('dist/index.js');
    expect(files).toContain('dist/index.d.ts');
    expect(files).toContain('dist/generated/central.d.ts');
    expect(files).toContain('dist/generated/operations.js');

    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await step(
      'npm install of the tarball',
      300_000,
      npm,
      [
        'install',
        join(dir, info!.filename),
        '@types/node@^22',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        '--no-package-lock',
        // npm waits 5 minutes on a stalled registry request by default, past this step's limit: seen
        // in CI on Node 26. The cache `npm ci` filled answers first; a stalled fetch is retried.
        '--prefer-offline',
        '--fetch-timeout=30000',
        '--fetch-retries=4',
      ],
      dir,
    );
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noUncheckedIndexedAccess: true,
          skipLibCheck: false,
          lib: ['ES2022', 'DOM', 'DOM.Iterable'],
          types: ['node'],
        },
        files: ['example.ts', ...readme.map((_, i) => `readme-${i + 1}.ts`)],
      }),
    );
    writeFileSync(join(dir, 'example.ts'), example);
    // The README's examples compile too (they are not run: they need a real cluster).
    for (const [i, code] of readme.entries()) writeFileSync(join(dir, `readme-${i + 1}.ts`), `${code}\nexport {};\n`);
    await step('tsc', 400_000, process.execPath, [tsc, '-p', dir], dir);
    const out = await step(
      'the compiled example',
      120_000,
      process.execPath,
      [join(dir, 'example.js'), `${server.origin}/api/svc/v3`],
      dir,
    );
    expect(JSON.parse(out.stdout)).toEqual({
      names: ['alpha', 'beta', 'gamma'],
      task: 'SUCCEEDED',
      missing: 'ENTITY_NOT_FOUND',
      client: `CentralClient <${server.origin}/api/svc/v3>`,
    });
  });
});
