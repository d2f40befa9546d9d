// What `npm publish` would upload: the contents of `npm pack` (dry run, so nothing is written).
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const pkgDir = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const manifest = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));

describe('npm pack of @svc/client', () => {
  let files: string[];
  beforeAll(async () => {
    expect(
      existsSync(join(pkgDir, 'dist/index.js')),
      'dist/ is missing: run `npm run build -w @svc/client` first',
    ).toBe(true);
    const { stdout } = await run(npm, ['pack', '--dry-run', '--json'], { cwd: pkgDir });
    files = (JSON.parse(stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
  });

  it('ships the ESM build with a declaration file for each module', () => {
    const js = files.filter((f) => f.startsWith('dist/') && f.endsWith('.js'));
    expect(js).toContain('dist/index.js');
    for (const f of js) expect(files, `${f} has no types`).toContain(f.replace(/\.js$/, '.d.ts'));
    expect(manifest.type).toBe('module');
    const root = manifest.exports['.'];
    expect(files).toContain(root.default.replace(/^\.\//, ''));
    expect(files).toContain(root.types.replace(/^\.\//, ''));
    expect(readFileSync(join(pkgDir, 'dist/index.js'), 'utf8')).toMatch(/^export /m);
  });

  it('ships the license, changelog and readme', () => {
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'CHANGELOG.md', 'README.md', 'package.json']));
    expect(existsSync(join(pkgDir, 'LICENSE')), 'postpack removes the copied LICENSE').toBe(false);
  });

  it('ships no tests, benchmarks, build scripts or files of other packages', () => {
    const allowed = /^(dist\/.+\.(js|js\.map|d\.ts)|src\/.+\.ts|LICENSE|CHANGELOG\.md|README\.md|package\.json)$/;
    expect(files.filter((f) => !allowed.test(f))).toEqual([]);
    expect(
      files.filter((f) => /(^|\/)(test|tests|__tests__|bench|scripts|node_modules)\/|\.test(-d)?\.|\.\.\//.test(f)),
    ).toEqual([]);
    // only this package's modules: each src/ file is one the build compiled into dist/
    for (const f of files.filter((p) => p.startsWith('src/')))
      expect(files).toContain(f.replace(/^src\//, 'dist/').replace(/\.ts$/, '.js'));
  });

  it('is publishable: public, with provenance, a license and its repository folder', () => {
    expect(manifest.private).toBeUndefined();
    expect(manifest.license).toBe('Apache-2.0');
    expect(manifest.publishConfig).toEqual({ access: 'public', provenance: true });
    expect(manifest.repository.directory).toBe('packages/client');
    expect(readFileSync(join(pkgDir, '../../LICENSE'), 'utf8')).toMatch(/Apache License\s+Version 2\.0/);
  });
});

describe('npm pack of @svc/client without a build', () => {
  it('fails, naming the missing build and the step that makes it', async () => {
    // the package as a fresh clone has it (no dist/, no src/generated/), with the installed packages
    const repo = mkdtempSync(join(tmpdir(), 'svc-client-unbuilt-'));
    try {
      const dir = join(repo, 'packages', 'client');
      mkdirSync(dir, { recursive: true });
      for (const f of ['package.json', 'README.md', 'CHANGELOG.md', 'scripts'])
        cpSync(join(pkgDir, f), join(dir, f), { recursive: true });
      cpSync(join(pkgDir, 'src'), join(dir, 'src'), { recursive: true, filter: (f) => !f.endsWith('generated') });
      cpSync(join(pkgDir, '../../LICENSE'), join(repo, 'LICENSE'));
      symlinkSync(join(pkgDir, '../../node_modules'), join(repo, 'node_modules'));
      const packed = await run(npm, ['pack', '--dry-run', '--json'], { cwd: dir }).then(
        (out) => ({ code: 0, stderr: '', stdout: out.stdout }),
        (e: { code: number; stderr: string; stdout: string }) => e,
      );
      expect(packed.code, packed.stdout).not.toBe(0);
      expect(packed.stderr).toMatch(
        /@svc\/client prepack: dist\/index\.js \(and \d+ more built file\(s\)\) is missing, so the package is not built: run `npm run build` at the repository root/,
      );
      expect(existsSync(join(dir, 'LICENSE')), 'nothing copied for a pack that failed').toBe(false);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
