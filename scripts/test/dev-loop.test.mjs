// End to end: `node scripts/dev.mjs` on a copy of the repository, saving spec files the way
// editors do (a new file renamed over the old one), and checking what the author sees: a reload
// after a good save, a reload and the findings after a save that lints badly, none after one that
// does not bundle, and the rebuilt spec served to the explorer and by the mock.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVENTS_PATH } from '@svc/explorer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyRepository } from '../lib/repo-copy.mjs';

const copy = mkdtempSync(join(tmpdir(), 'svc-dev-loop-'));
const objectsRoot = join(copy, 'spec', 'objects', 'openapi.yaml');
let child;
let output = '';
let front;
let events = '';
let reader;

/** Saves like an editor: writes a sibling file, then renames it over the target. */
function save(file, text) {
  writeFileSync(`${file}.tmp-save`, text);
  renameSync(`${file}.tmp-save`, file);
}

// Every wait is on an event (output, a reload, the child's exit); the limit only ends a hang, far
// above what a busy 2-core machine takes (a first build took 100 s at load 15, over 600 s at load 60).
const HANG = 1_800_000;

/**
 * GET on a connection of its own: a pooled one, idle while a rebuild ran, can be closed by the
 * server just as the next request goes out (ECONNRESET, seen at load 25), and fetch does not retry.
 */
const get = (path) => fetch(new URL(path, front), { headers: { connection: 'close' } });

/** Resolves when `read()` contains `pattern`; rejects when dev exits, or with what was seen after `ms`. */
async function until(read, pattern, ms) {
  const started = Date.now();
  while (!pattern.test(read())) {
    if (child?.exitCode !== null && child?.exitCode !== undefined)
      throw new Error(`dev exited with code ${child.exitCode} while waiting for ${pattern}:\n${output}`);
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${pattern}; saw:\n${read()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  copyRepository(copy);
  child = spawn(process.execPath, [join(copy, 'scripts', 'dev.mjs'), '--port', '0'], {
    cwd: copy,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  await until(() => output, /live reload at (http:\S+)/, HANG);
  front = /** @type {RegExpExecArray} */ (/live reload at (http:\S+)/.exec(output))[1];

  const res = await fetch(new URL(EVENTS_PATH, front));
  reader = /** @type {ReadableStream<Uint8Array>} */ (res.body).getReader();
  const decoder = new TextDecoder();
  (async () => {
    for (let r = await reader.read(); !r.done; r = await reader.read()) events += decoder.decode(r.value);
  })().catch(() => {});
  await until(() => events, /connected/, HANG);
}, 2 * HANG);

afterAll(async () => {
  await reader?.cancel().catch(() => {});
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(copy, { recursive: true, force: true });
});

describe('npm run dev', () => {
  it('serves the explorer page with the live-reload script', async () => {
    expect(await (await get('')).text()).toContain(`new EventSource("${EVENTS_PATH}")`);
  });

  it(
    'rebuilds the saved API, serves the new spec and reloads the page; findings and broken saves are reported',
    async () => {
      const original = readFileSync(objectsRoot, 'utf8');
      expect(original).toMatch(/^ {2}title: .+$/m);
      const security = /^security:\n {2}- basicAuth: \[\]$/m;
      expect(original).toMatch(security);
      const mock = /** @type {RegExpExecArray} */ (/mock objects +(http:\S+)/.exec(output))[1];
      const groups = () => fetch(`${mock}/groups`, { method: 'POST', body: '{}' }).then((r) => r.status);
      expect(await groups()).toBe(401);

      // A new title, and no credentials asked for: the mock must answer from the saved spec.
      save(objectsRoot, original.replace(/^( {2}title: .+)$/m, '$1 (edited)').replace(security, 'security: []'));
      await until(() => events, /event: reload\ndata: "objects"/, HANG);
      expect(output).toMatch(/spec\/objects\/openapi\.yaml changed -> objects/);
      const served = await (await get('specs/objects.json')).json();
      expect(served.info.title).toMatch(/\(edited\)$/);

      // The page reloads before the rebuild ends (types, linters, the mock): wait for its end.
      await until(() => output, /dev: rebuilt objects/, HANG);
      expect(output).toMatch(/ok {3}reload mock objects/);
      expect(await groups()).not.toBe(401);

      // The same file again, with a lint finding: the page reloads, the finding is printed.
      let seen = events.length;
      let before = output.length;
      save(objectsRoot, original.replace(/^openapi: 3\.1\.0$/m, 'openapi: 3.1.0\nbogus: 1'));
      await until(() => output.slice(before), /dev: rebuilt objects/, HANG);
      expect(output.slice(before)).toMatch(
        /FAIL redocly lint objects[^\n]*\n.*openapi\.yaml:\d+:\d+ error struct .*bogus/,
      );
      expect(events.slice(seen)).toMatch(/event: reload/);
      const lastGood = await (await get('specs/objects.json')).text();

      // A save that does not bundle (a $ref to a missing file): reported, not reloaded.
      seen = events.length;
      before = output.length;
      save(objectsRoot, original.replace(/^paths:$/m, 'paths:\n  /missing:\n    $ref: ./paths/missing.yaml'));
      await until(() => output.slice(before), /not reloaded: the page keeps the last good build/, HANG);
      expect(output.slice(before)).toMatch(
        /FAIL bundle objects: spec\/objects\/openapi\.yaml:\d+:\d+ error .*'spec\/objects\/paths\/missing\.yaml'/,
      );
      expect(events.slice(seen)).not.toMatch(/event: reload/);

      // A save mid-edit that is not YAML: one line at its file and line, and the last good page
      // and spec still served.
      before = output.length;
      save(objectsRoot, original.replace(/^info:$/m, 'info:\n\ttitle: half typed'));
      await until(() => output.slice(before), /not reloaded: the page keeps the last good build/, HANG);
      const broken = output
        .slice(before)
        .split('\n')
        .filter((l) => /FAIL/.test(l));
      const infoLine = original.split('\n').indexOf('info:') + 2;
      expect(broken).toEqual([
        `  FAIL bundle objects: spec/objects/openapi.yaml:${infoLine}:1 error yaml tab characters must not be used in indentation`,
      ]);
      expect(events.slice(seen)).not.toMatch(/event: reload/);
      expect((await get('')).status).toBe(200);
      expect(await (await get('specs/objects.json')).text()).toBe(lastGood);

      save(objectsRoot, original);
      await until(() => events.slice(seen), /event: reload\ndata: "objects"/, HANG);
      const restored = await (await get('specs/objects.json')).json();
      expect(restored.info.title).not.toMatch(/\(edited\)$/);
    },
    5 * HANG,
  );
});
