// The root README's "Use the local svc in a test suite" vitest example, run as written: the code
// between the markers below is the README's block without its import lines (the last test here
// checks that the two are the same text). What the README's globalSetup and `../src/images.js`
// give it is made here: a simulator of its own, and the code under test.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCentralClient, createControlClient } from '@svc/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PASSWORD, startTestSimulator } from './support/sim.js';

const README = new URL('../../../README.md', import.meta.url);
const BEGIN = '// README example: begin';
const END = '// README example: end';

describe('README: Use the local svc in a test suite (vitest)', () => {
  /** @type {Awaited<ReturnType<typeof startTestSimulator>>} */
  let t;
  // the README's globalSetup: a local svc, its facts provided as `svcSim`
  beforeAll(async () => {
    t = await startTestSimulator();
  });
  afterAll(() => t?.close());
  const inject = (/** @type {string} */ key) => {
    if (key !== 'svcSim') throw new Error(`nothing provided as ${key}`);
    return { url: t.sim.url, user: t.sim.user, password: PASSWORD, ca: t.sim.ca };
  };
  /**
   * The code under test (the README's `../src/images.js`): the names of every image.
   * @param {import('@svc/client').CentralClient} central
   */
  const imageNames = async (central) => {
    const names = [];
    for await (const image of central.paginate('/images/list', { kind: 'image' })) names.push(image.spec.name);
    return names;
  };

  // README example: begin
  let central;
  let control;
  beforeAll(() => {
    const { url, user, password, ca } = inject('svcSim');
    central = createCentralClient({ baseUrl: `${url}/api/svc/v3`, username: user, password, ca });
    control = createControlClient({ baseUrl: `${url}/_svc`, username: user, password, ca });
  });

  beforeEach(async () => {
    await control.reset(); // no image, task or object store left by another test
    await control.faults.clear();
    await control.clearRequests();
  });

  it('lists the images through a 503, with valid calls only', async () => {
    // the next image list answers 503; the client retries it at once (Retry-After: 0)
    await control.faults.set([
      { operation_id: 'images_list', status: 503, retry_after_seconds: 0, probability: 1, count: 1 },
    ]);
    expect(await imageNames(central)).toEqual([]);
    const { entries } = await control.requests(); // newest first
    expect(entries.map((e) => `${e.operation_id} ${e.status}`)).toEqual(['images_list 200', 'images_list 503']);
    expect(entries.filter((e) => !e.valid)).toEqual([]);
  });
  // README example: end
});

describe('README: Use the local svc in a test suite', () => {
  it('shows the vitest example this file runs, the same text', () => {
    const readme = readFileSync(README, 'utf8');
    const section = readme.slice(readme.indexOf('## Use the local svc in a test suite'));
    const block = /```js\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const shown = block
      .split('\n')
      .filter((line) => !/^import |^\/\/ /.test(line))
      .join('\n')
      .trim();
    const own = readFileSync(new URL(import.meta.url), 'utf8');
    const ran = own
      .slice(own.lastIndexOf(BEGIN) + BEGIN.length, own.lastIndexOf(END))
      .split('\n')
      .map((line) => line.replace(/^ {2}/, ''))
      .join('\n')
      .trim();
    expect(shown.length).toBeGreaterThan(200);
    expect(shown).toBe(ran);
  });
});

/** Whether `python3` here has pytest and requests (the README's pytest example needs both). */
function python() {
  const probe = spawnSync('python3', ['-c', 'import pytest, requests'], { encoding: 'utf8' });
  return probe.status === 0 ? undefined : (probe.error?.message ?? probe.stderr.trim().split('\n').pop());
}
const missing = python();

describe('README: Use the local svc in a test suite (pytest)', () => {
  if (missing) console.log(`README pytest example: NOT RUN (python3 with pytest and requests: ${missing})`);
  it.skipIf(missing)('runs the pytest example as written against a local svc', async () => {
    const readme = readFileSync(README, 'utf8');
    const section = readme.slice(readme.indexOf('## Use the local svc in a test suite'));
    const example = /```python\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    expect(example).toContain('def test_');
    const t = await startTestSimulator();
    const dir = mkdtempSync(join(tmpdir(), 'svc-readme-pytest-'));
    try {
      writeFileSync(join(dir, 'test_images.py'), example);
      // the code under test the example imports: the names of every image, a 503 retried
      writeFileSync(
        join(dir, 'mytool.py'),
        [
          'import os, time, requests',
          '',
          'def image_names(url):',
          '    s = requests.Session()',
          '    s.auth = (os.environ["SVC_SIM_USER"], os.environ["SVC_SIM_PASSWORD"])',
          '    s.verify = os.environ["SVC_SIM_CA"]',
          '    s.trust_env = False',
          '    for _ in range(3):',
          '        r = s.post(f"{url}/api/svc/v3/images/list", json={"kind": "image"})',
          '        if r.status_code == 503:',
          '            time.sleep(float(r.headers.get("Retry-After", "0")))',
          '            continue',
          '        r.raise_for_status()',
          '        return [e["spec"]["name"] for e in r.json()["entities"]]',
          '    raise RuntimeError("still 503")',
          '',
        ].join('\n'),
      );
      const ca = join(dir, 'ca.pem');
      writeFileSync(ca, /** @type {string} */ (t.sim.ca));
      const run = await new Promise((resolve) => {
        const child = spawn('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', dir], {
          cwd: dir,
          env: {
            ...process.env,
            SVC_SIM_URL: t.sim.url,
            SVC_SIM_USER: t.sim.user,
            SVC_SIM_PASSWORD: PASSWORD,
            SVC_SIM_CA: ca,
          },
        });
        let out = '';
        child.stdout.on('data', (c) => (out += c));
        child.stderr.on('data', (c) => (out += c));
        child.on('close', (code) => resolve({ code, out }));
      });
      expect(run.code, run.out).toBe(0);
      expect(run.out).toMatch(/1 passed/);
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
