// The in-process bundle (Redocly's Node API) writes the bytes `redocly bundle` writes, and refuses
// a document it cannot resolve, naming the file.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apis } from '@svc/oas/apis';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleApi, lintApi, redocly, redoclyConfig } from '../lib/redocly.mjs';

const dir = mkdtempSync(join(tmpdir(), 'svc-redocly-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bundleApi', () => {
  it('writes the same YAML and JSON as `redocly bundle`', async () => {
    const api = apis().find((a) => a.name === 'objects');
    const cliYaml = join(dir, 'cli.yaml');
    const cliJson = join(dir, 'cli.json');
    redocly(['bundle', 'objects', '--output', cliYaml], { stdio: 'ignore' });
    redocly(['bundle', 'objects', '--output', cliJson], { stdio: 'ignore' });
    const ours = {
      .../** @type {import('@svc/oas/apis').ApiEntry} */ (api),
      bundle: join(dir, 'ours.yaml'),
      bundleJson: join(dir, 'ours.json'),
    };
    await bundleApi(ours, await redoclyConfig());
    expect(readFileSync(ours.bundle, 'utf8')).toBe(readFileSync(cliYaml, 'utf8'));
    expect(readFileSync(ours.bundleJson, 'utf8')).toBe(readFileSync(cliJson, 'utf8'));
  });

  it('refuses an unresolved $ref, naming the file, and writes nothing', async () => {
    const rootFile = join(dir, 'broken.yaml');
    writeFileSync(
      rootFile,
      'openapi: 3.1.0\ninfo: { title: t, version: "1" }\npaths:\n  /x:\n    $ref: ./missing.yaml\n',
    );
    const api = { name: 'broken', root: rootFile, bundle: join(dir, 'b.yaml'), bundleJson: join(dir, 'b.json') };
    await expect(bundleApi(api, await redoclyConfig())).rejects.toThrow(/broken\.yaml:5:\d+ error .*missing\.yaml/);
    expect(() => readFileSync(api.bundle)).toThrow(/ENOENT/);
  });

  it('names the file and line of a save that is not YAML, in one line, for the root and a referenced file', async () => {
    const config = await redoclyConfig();
    const cases = [
      // the root does not parse: Redocly throws
      {
        root: 'openapi: 3.1.0\ninfo:\n\ttitle: t\n',
        want: /^root\.yaml:3:1 error yaml tab characters must not be used in indentation$/,
      },
      // a referenced file does not parse: Redocly reports it and the $ref it breaks
      {
        root: 'openapi: 3.1.0\ninfo: { title: t, version: "1" }\npaths:\n  /x:\n    $ref: ./item.yaml\n',
        item: 'get:\n  summary: x\n  description: y\n  responses:\n  \t bad: [\n',
        want: /^item\.yaml:5:3 error yaml tab characters must not be used in indentation$/,
      },
    ];
    for (const c of cases) {
      const at = mkdtempSync(join(dir, 'yaml-'));
      writeFileSync(join(at, 'root.yaml'), c.root);
      if (c.item) writeFileSync(join(at, 'item.yaml'), c.item);
      const api = {
        name: 'y',
        root: join(at, 'root.yaml'),
        bundle: join(at, 'b.yaml'),
        bundleJson: join(at, 'b.json'),
      };
      const error = await bundleApi(api, config).catch((e) => e);
      expect(error.problems).toEqual([expect.stringMatching(c.want)]);
      expect(error.message).not.toContain(at); // no local path
      expect(() => readFileSync(api.bundle)).toThrow(/ENOENT/);
    }
  });
});

describe('lintApi', () => {
  it('reports a finding at its source file and line', async () => {
    const rootFile = join(dir, 'lint.yaml');
    writeFileSync(rootFile, 'openapi: 3.1.0\nbogus: 1\ninfo: { title: t, version: "1" }\npaths: {}\n');
    const found = await lintApi({ name: 'lint', root: rootFile }, await redoclyConfig());
    expect(found.map((p) => p.text)).toContainEqual(expect.stringMatching(/lint\.yaml:2:1 error struct .*bogus/));
  });
});
