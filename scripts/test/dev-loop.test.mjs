// End to end: `node scripts/dev.mjs` on a copy of the repository, saving spec files the way
// editors do (a new file renamed over the old one), and checking what the author sees: a reload
// after a good save, none after a bad one, and the rebuilt spec served to the explorer.
import { execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { EVENTS_PATH } from '@svc/explorer';
import { root } from '@svc/oas/apis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

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

/** Resolves when `read()` contains `pattern`; rejects with what was seen after `ms`. */
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
  // The working tree's files that git tracks or would track, and the installed packages by link.
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\0')
    .filter(Boolean);
  for (const file of files) {
    if (!existsSync(join(root, file))) continue; // deleted in the working tree
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(root, file), join(copy, file));
  }
  // The installed packages by link, but the workspace packages (@svc/*) from the copy, so that
  // the copy's scripts find the copy's root and not this one.
  mkdirSync(join(copy, 'node_modules', '@svc'), { recursive: true });
  for (const entry of readdirSync(join(root, 'node_modules'))) {
    if (entry !== '@svc') symlinkSync(join(root, 'node_modules', entry), join(copy, 'node_modules', entry));
  }
  for (const name of readdirSync(join(root, 'node_modules', '@svc'))) {
    symlinkSync(
      realpathSync(join(root, 'node_modules', '@svc', name)).replace(root, copy),
      join(copy, 'node_modules', '@svc', name),
    );
  }
  // and each package's own node_modules (npm nests a version there that the root does not hold)
  for (const name of readdirSync(join(root, 'packages'))) {
    const own = join(root, 'packages', name, 'node_modules');
    if (existsSync(own) && existsSync(join(copy, 'packages', name)))
      symlinkSync(own, join(copy, 'packages', name, 'node_modules'));
  }

  child = spawn(process.execPath, [join(copy, 'scripts', 'dev.mjs'), '--port', '0'], {
    cwd: copy,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  await until(() => output, /live reload at (http:\S+)/, 150_000);
  front = /** @type {RegExpExecArray} */ (/live reload at (http:\S+)/.exec(output))[1];

  const res = await fetch(new URL(EVENTS_PATH, front));
  reader = /** @type {ReadableStream<Uint8Array>} */ (res.body).getReader();
  const decoder = new TextDecoder();
  (async () => {
    for (let r = await reader.read(); !r.done; r = await reader.read()) events += decoder.decode(r.value);
  })().catch(() => {});
  await until(() => events, /connected/, 10_000);
}, 180_000);

afterAll(async () => {
  await reader?.cancel().catch(() => {});
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(copy, { recursive: true, force: true });
}, 60_000);

describe('npm run dev', () => {
  it('serves the explorer page with the live-reload script', async () => {
    expect(await (await fetch(front)).text()).toContain(`new EventSource("${EVENTS_PATH}")`);
  });

  it('rebuilds the saved API, serves the new spec and reloads the page; a bad save is reported, not reloaded', async () => {
    const original = readFileSync(objectsRoot, 'utf8');
    expect(original).toMatch(/^ {2}title: .+$/m);

    save(objectsRoot, original.replace(/^( {2}title: .+)$/m, '$1 (edited)'));
    await until(() => events, /event: reload\ndata: "objects"/, 90_000);
    expect(output).toMatch(/spec\/objects\/openapi\.yaml changed -> objects/);
    const served = await (await fetch(new URL('specs/objects.json', front))).json();
    expect(served.info.title).toMatch(/\(edited\)$/);

    // The same file again: a watcher that lost it after the first rename would miss this save.
    const seen = events.length;
    const before = output.length;
    save(objectsRoot, original.replace(/^openapi: 3\.1\.0$/m, 'openapi: 3.1.0\nbogus: 1'));
    await until(() => output.slice(before), /not reloaded; fix the finding above/, 90_000);
    expect(output.slice(before)).toMatch(/FAIL redocly lint objects/);
    expect(output.slice(before)).toMatch(/bogus/);
    expect(events.slice(seen)).not.toMatch(/event: reload/);

    save(objectsRoot, original);
    await until(() => events.slice(seen), /event: reload\ndata: "objects"/, 90_000);
    const restored = await (await fetch(new URL('specs/objects.json', front))).json();
    expect(restored.info.title).not.toMatch(/\(edited\)$/);
  }, 240_000);
});
