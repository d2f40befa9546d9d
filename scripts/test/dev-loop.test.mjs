// End to end: `node scripts/dev.mjs` on a copy of the repository, saving spec files the way
// editors do (a new file renamed over the old one), and checking what the author sees: a reload
// after a good save, a reload and the findings after a save that lints badly, none after one that
// does not bundle or is not YAML (one line at its file and line, the last good page still served),
// and the rebuilt spec served to the explorer and by the mock.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVENTS_PATH } from '@svc/explorer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyRepository } from '../lib/repo-copy.mjs';
import { GrowingText } from './support/run.mjs';

const copy = mkdtempSync(join(tmpdir(), 'svc-dev-loop-'));
const objectsRoot = join(copy, 'spec', 'objects', 'openapi.yaml');
let child;
const output = new GrowingText();
const events = new GrowingText();
let front;
let reader;

/** Saves like an editor: writes a sibling file, then renames it over the target. */
function save(file, text) {
  writeFileSync(`${file}.tmp-save`, text);
  renameSync(`${file}.tmp-save`, file);
}

// Each wait is on an event (output, a reload), limited by what it waits for needs on a busy
// 2-core machine: the first build of every API (its page served: 100 s at load 15), a save's
// reload (5 s at load 15) and its whole rebuild with the linters (15 s at load 15; the whole test
// took 88 s in `npm test` beside a CPU hog at load 20), each about 5 times that.
const FIRST_BUILD_MS = 500_000;
const RELOAD_MS = 60_000;
const REBUILD_MS = 150_000;

/**
 * GET on a connection of its own: a pooled one, idle while a rebuild ran, can be closed by the
 * server just as the next request goes out (ECONNRESET, seen at load 25), and fetch does not retry.
 */
const get = (path) => fetch(new URL(path, front), { headers: { connection: 'close' } });

beforeAll(async () => {
  copyRepository(copy);
  child = spawn(process.execPath, [join(copy, 'scripts', 'dev.mjs'), '--port', '0'], {
    cwd: copy,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (c) => output.append(c));
  child.stderr.on('data', (c) => output.append(c));
  child.once('exit', (code, signal) => output.end(`dev exited with ${signal ?? `code ${code}`}`));
  [, front] = await output.until(/live reload at (http:\S+)/, {
    what: 'the first build (npm run dev printing "live reload at")',
    limitMs: FIRST_BUILD_MS,
  });

  const res = await fetch(new URL(EVENTS_PATH, front));
  reader = /** @type {ReadableStream<Uint8Array>} */ (res.body).getReader();
  const decoder = new TextDecoder();
  (async () => {
    for (let r = await reader.read(); !r.done; r = await reader.read()) events.append(decoder.decode(r.value));
  })()
    .catch(() => {})
    .finally(() => events.end('the event stream closed'));
  await events.until(/connected/, { what: "the event stream's first comment", limitMs: RELOAD_MS });
}, FIRST_BUILD_MS + RELOAD_MS);

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
      const mock = /** @type {RegExpExecArray} */ (/mock objects +(http:\S+)/.exec(output.text))[1];
      const groups = () => fetch(`${mock}/groups`, { method: 'POST', body: '{}' }).then((r) => r.status);
      expect(await groups()).toBe(401);
      // the first build's linters go on after the servers start: the saves below start from its end
      await output.until(/^dev: rebuilt central, element, objects/m, {
        what: "the first build's linters",
        limitMs: REBUILD_MS,
      });

      // A new title, and no credentials asked for: the mock must answer from the saved spec.
      let before = output.text.length;
      let seen = events.text.length;
      save(objectsRoot, original.replace(/^( {2}title: .+)$/m, '$1 (edited)').replace(security, 'security: []'));
      await events.until(/event: reload\ndata: "objects"/, {
        what: 'the reload event after a good save',
        limitMs: RELOAD_MS,
        from: seen,
      });
      expect(output.text.slice(before)).toMatch(/spec\/objects\/openapi\.yaml changed -> objects/);
      const served = await (await get('specs/objects.json')).json();
      expect(served.info.title).toMatch(/\(edited\)$/);

      // The page reloads before the rebuild ends (types, linters, the mock): wait for its end.
      await output.until(/dev: rebuilt objects/, { what: 'the end of the rebuild', limitMs: REBUILD_MS, from: before });
      expect(output.text.slice(before)).toMatch(/ok {3}reload mock objects/);
      expect(await groups()).not.toBe(401);

      // The same file again, with a lint finding: the page reloads, the finding is printed.
      seen = events.text.length;
      before = output.text.length;
      save(objectsRoot, original.replace(/^openapi: 3\.1\.0$/m, 'openapi: 3.1.0\nbogus: 1'));
      await output.until(/dev: rebuilt objects/, {
        what: 'the end of the rebuild after a save with a finding',
        limitMs: REBUILD_MS,
        from: before,
      });
      expect(output.text.slice(before)).toMatch(
        /FAIL redocly lint objects[^\n]*\n.*openapi\.yaml:\d+:\d+ error struct .*bogus/,
      );
      expect(events.text.slice(seen)).toMatch(/event: reload/);
      const lastGood = await (await get('specs/objects.json')).text();

      // A save that does not bundle (a $ref to a missing file): reported, not reloaded.
      seen = events.text.length;
      before = output.text.length;
      save(objectsRoot, original.replace(/^paths:$/m, 'paths:\n  /missing:\n    $ref: ./paths/missing.yaml'));
      const notReloaded = /not reloaded: the page keeps the last good build/;
      await output.until(notReloaded, {
        what: 'the report of a save that does not bundle',
        limitMs: RELOAD_MS,
        from: before,
      });
      expect(output.text.slice(before)).toMatch(
        /FAIL bundle objects: spec\/objects\/openapi\.yaml:\d+:\d+ error .*'spec\/objects\/paths\/missing\.yaml'/,
      );

      // A save mid-edit that is not YAML: one line at its file and line, and the last good page
      // and spec still served.
      before = output.text.length;
      save(objectsRoot, original.replace(/^info:$/m, 'info:\n\ttitle: half typed'));
      await output.until(notReloaded, {
        what: 'the report of a save that is not YAML',
        limitMs: RELOAD_MS,
        from: before,
      });
      const broken = output.text
        .slice(before)
        .split('\n')
        .filter((l) => /FAIL/.test(l));
      const infoLine = original.split('\n').indexOf('info:') + 2;
      expect(broken).toEqual([
        `  FAIL bundle objects: spec/objects/openapi.yaml:${infoLine}:1 error yaml tab characters must not be used in indentation`,
      ]);
      expect(events.text.slice(seen)).not.toMatch(/event: reload/);
      expect((await get('')).status).toBe(200);
      expect(await (await get('specs/objects.json')).text()).toBe(lastGood);

      save(objectsRoot, original);
      await events.until(/event: reload\ndata: "objects"/, {
        what: 'the reload event after the file was restored',
        limitMs: RELOAD_MS,
        from: seen,
      });
      const restored = await (await get('specs/objects.json')).json();
      expect(restored.info.title).not.toMatch(/\(edited\)$/);
    },
    4 * REBUILD_MS + 4 * RELOAD_MS,
  );
});
