// The stale-types gate (`npm run generate:check`, the client generator's --check) on a checkout of
// one small API: it passes on what it generated and fails on a bundle changed afterwards, in the
// sources and in the shipped declarations.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_LIMIT_MS } from './support/run.mjs';

const GENERATOR = fileURLToPath(new URL('../../packages/client/scripts/generate.mjs', import.meta.url));

/** Runs the generator with `args` on the checkout; resolves to its exit code and output. */
function generate(...args) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [GENERATOR, ...args], { timeout: COMMAND_LIMIT_MS }, (error, stdout, stderr) =>
      error?.killed
        ? reject(new Error(`generate ${args.join(' ')} did not end within ${COMMAND_LIMIT_MS / 1000} s:\n${stderr}`))
        : resolve({ code: error ? error.code : 0, stdout, stderr }),
    );
  });
}

const bundle = (paths) => ({
  openapi: '3.1.0',
  info: { title: 't', version: '1.0.0' },
  servers: [{ url: 'https://{host}:9440/api/t/v1', variables: { host: { default: 'localhost' } } }],
  paths,
});
const get = (operationId) => ({
  get: { operationId, responses: { 200: { description: 'ok', content: { 'application/json': { schema: {} } } } } },
});

// Each run loads openapi-typescript and TypeScript: seconds apiece on a busy 2-core machine.
describe('generate --check', () => {
  let dir;
  let options;
  const writeBundle = (doc) => writeFileSync(join(dir, 'dist', 't.json'), JSON.stringify(doc));

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'generate-check-'));
    mkdirSync(join(dir, 'dist'));
    mkdirSync(join(dir, 'types'));
    writeFileSync(join(dir, 'redocly.yaml'), 'apis:\n  t:\n    root: spec/t.yaml\n');
    writeBundle(bundle({ '/images': get('images_list') }));
    options = ['--root', dir, '--out', join(dir, 'generated'), '--types', join(dir, 'types')];
    const first = await generate(...options);
    expect(first.code, first.stderr).toBe(0);
    // paths relative to the checkout: the output carries no local path
    expect(first.stdout).toContain('generated generated/t.ts');
    expect(first.stdout).not.toContain(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('passes on the types it generated: a second generation is byte-identical', async () => {
    const { code, stderr } = await generate('--check', ...options);
    expect(stderr).not.toMatch(/stale|nondeterministic/);
    expect(code).toBe(0);
  });

  it('fails, naming the file, when the bundle changed and the types were not regenerated', async () => {
    const before = readFileSync(join(dir, 'dist', 't.json'), 'utf8');
    writeBundle(bundle({ '/images': get('images_list'), '/tasks': get('tasks_list') }));
    try {
      const { code, stderr } = await generate('--check', ...options);
      expect(code).toBe(1);
      expect(stderr).toMatch(/stale: .*generated[/\\]t\.ts differs from the bundles/);
      expect(stderr).toMatch(/stale: .*generated[/\\]operations\.ts differs/);
      expect(stderr).not.toContain(dir);
    } finally {
      writeFileSync(join(dir, 'dist', 't.json'), before);
    }
  });

  it('fails when the shipped declarations were built from another bundle', async () => {
    const generated = readFileSync(join(dir, 'generated', 't.ts'), 'utf8');
    // what tsc writes to dist/generated/t.d.ts, from an older bundle
    writeFileSync(
      join(dir, 'types', 't.d.ts'),
      generated.replace(/BundleSha256 = '[0-9a-f]+'/, `BundleSha256 = "${'0'.repeat(64)}"`),
    );
    try {
      const { code, stderr } = await generate('--check', ...options);
      expect(code).toBe(1);
      expect(stderr).toMatch(/t\.d\.ts was built from another dist\/t\.json \(sha256 0{64}\); run `npm run build`/);
      // prepack's fast form: the same verdict without generating
      const shipped = await generate('--shipped', ...options);
      expect(shipped.code).toBe(1);
      expect(shipped.stderr).toMatch(/t\.d\.ts was built from another dist\/t\.json/);
      writeFileSync(join(dir, 'types', 't.d.ts'), generated.replace(/'/g, '"'));
      expect((await generate('--check', ...options)).code).toBe(0);
    } finally {
      rmSync(join(dir, 'types', 't.d.ts'), { force: true });
    }
  });

  it('answers a bad option with one line naming it, the usage and exit code 2', async () => {
    const { code, stderr } = await generate('--chek');
    expect(code).toBe(2);
    expect(stderr.split('\n')[0]).toBe("generate: Unknown option '--chek'");
    expect(stderr).toMatch(/^Usage: npm run generate/m);
  });
});
