// The root README's "Use the local svc in a test suite" vitest example, run as written: the code
// between the markers below is the README's block without its import lines (the last test here
// checks that the two are the same text). What the README's globalSetup and `../src/images.js`
// give it is made here: a simulator of its own, and the code under test.
import { readFileSync } from 'node:fs';
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
