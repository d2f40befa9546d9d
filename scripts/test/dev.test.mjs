import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { affectedApis, debounceCollect, oneRunAtATime, rebuildApis } from '../lib/dev.mjs';

const spec = '/repo/spec';
const list = [
  { name: 'central', root: join(spec, 'central', 'openapi.yaml') },
  { name: 'element', root: join(spec, 'element', 'openapi.yaml') },
  { name: 'objects', root: join(spec, 'objects', 'openapi.yaml') },
];

describe('affectedApis', () => {
  const cases = [
    { name: 'a file of one API', given: [join(spec, 'element', 'paths', 'v2.0@images.yaml')], want: ['element'] },
    {
      name: 'two APIs, in redocly.yaml order',
      given: [join(spec, 'objects', 'openapi.yaml'), join(spec, 'central', 'x.yaml')],
      want: ['central', 'objects'],
    },
    {
      name: 'spec/common is shared by all',
      given: [join(spec, 'common', 'schemas', 'Uuid.yaml')],
      want: ['central', 'element', 'objects'],
    },
    { name: 'a file outside spec/ is ignored', given: ['/repo/README.md'], want: [] },
  ];
  for (const c of cases) it(c.name, () => expect(affectedApis(c.given, list, spec)).toEqual(c.want));
});

describe('debounceCollect', () => {
  it('calls once after a burst, with every item', async () => {
    const calls = [];
    const push = debounceCollect((items) => calls.push(items), 20);
    push('a');
    push('b');
    await new Promise((r) => setTimeout(r, 80));
    push('c');
    await new Promise((r) => setTimeout(r, 80));
    expect(calls).toEqual([['a', 'b'], ['c']]);
  });
});

describe('oneRunAtATime', () => {
  it('waits for the first build, runs one batch at a time and puts what arrives meanwhile in one run', async () => {
    const runs = [];
    /** @type {Array<() => void>} */
    const ends = [];
    const run = (items) => {
      runs.push(items);
      return new Promise((resolve) => ends.push(() => resolve(undefined)));
    };
    /** @type {(value?: unknown) => void} */
    let firstBuilt = () => {};
    const add = oneRunAtATime(run, () => {}, new Promise((r) => (firstBuilt = r)));
    add(['a']);
    await Promise.resolve();
    expect(runs).toEqual([]); // the first build is still running
    firstBuilt();
    await new Promise((r) => setImmediate(r));
    expect(runs).toEqual([['a']]);
    add(['b']);
    add(['c']);
    await new Promise((r) => setImmediate(r));
    expect(runs).toEqual([['a']]); // b and c wait for the run of a
    ends[0]();
    await new Promise((r) => setImmediate(r));
    expect(runs).toEqual([['a'], ['b', 'c']]);
  });

  it('goes on after a run that failed', async () => {
    const errors = [];
    const runs = [];
    const add = oneRunAtATime(
      async (items) => {
        runs.push(items);
        if (items[0] === 'bad') throw new Error('boom');
      },
      (e) => errors.push(e.message),
    );
    add(['bad']);
    await new Promise((r) => setImmediate(r));
    add(['good']);
    await new Promise((r) => setImmediate(r));
    expect(runs).toEqual([['bad'], ['good']]);
    expect(errors).toEqual(['boom']);
  });
});

describe('rebuildApis', () => {
  /** Fake steps that record the order; linters find what `found` says, each when `release` resolves. */
  /** @param {{ bundleFails?: boolean, found?: { severity: string, text: string }[] }} [o] */
  function fakes({ bundleFails = false, found = [] } = {}) {
    const order = [];
    // the linters end only after the reload (or at once when there is none to wait for)
    /** @type {(value?: unknown) => void} */
    let release = () => {};
    const released = bundleFails ? Promise.resolve() : new Promise((r) => (release = r));
    const step = (name, value) => async () => {
      order.push(`start ${name}`);
      await Promise.resolve();
      order.push(`end ${name}`);
      return value;
    };
    const steps = {
      bundle: async (api) => {
        order.push(`bundle ${api.name}`);
        if (bundleFails)
          throw Object.assign(
            new Error('bundle objects:\nspec/objects/openapi.yaml:5:7 error yaml deficient indentation'),
            {
              problems: ['spec/objects/openapi.yaml:5:7 error yaml deficient indentation'],
            },
          );
      },
      lint: async () => {
        await released;
        order.push('lint done');
        return found;
      },
      spectral: async () => {
        await released;
        order.push('spectral done');
        return [];
      },
      explorer: step('explorer'),
      reload: (names) => {
        order.push(`reload ${names}`);
        release();
      },
      types: async (names) => {
        order.push(`types ${names}`);
        return step('types')();
      },
      mock: step('mock'),
      report: (name, list) => reports.push([name, list]),
    };
    const reports = [];
    return { order, steps, reports };
  }
  const objects = [{ name: 'objects' }];

  it('reloads the page once the bundle and explorer exist, before the linters end', async () => {
    const { order, steps } = fakes({
      found: [{ severity: 'error', text: 'spec/objects/openapi.yaml:2:1 error struct bogus' }],
    });
    const log = [];
    const result = await rebuildApis(objects, steps, (l) => log.push(l));
    expect(order.indexOf('reload objects')).toBeGreaterThan(order.indexOf('end explorer'));
    expect(order.indexOf('reload objects')).toBeLessThan(order.indexOf('lint done'));
    expect(order.indexOf('reload objects')).toBeLessThan(order.indexOf('spectral done'));
    expect(order).toContain('types objects');
    expect(order).toContain('end types');
    expect(result).toEqual({ reloaded: true, findings: 1, failed: 0 });
    expect(log.join('\n')).toMatch(
      /FAIL redocly lint objects .*1 finding\(s\)\n {4}spec\/objects\/openapi\.yaml:2:1 error struct bogus/,
    );
  });

  it('tells the page what to show: a failed bundle, then lint errors, then nothing once clean', async () => {
    const broken = fakes({ bundleFails: true });
    await rebuildApis(objects, broken.steps, () => {});
    expect(broken.reports).toEqual([
      [
        'objects',
        [
          {
            file: 'spec/objects/openapi.yaml',
            line: 5,
            column: 7,
            message: 'yaml deficient indentation',
            stage: 'bundle',
          },
        ],
      ],
    ]);
    const linted = fakes({
      found: [
        { severity: 'error', text: 'spec/objects/openapi.yaml:2:1 error struct bogus' },
        { severity: 'warn', text: 'spec/objects/openapi.yaml:3:1 warn style meh' },
      ],
    });
    await rebuildApis(objects, linted.steps, () => {});
    expect(linted.reports).toEqual([
      ['objects', [{ file: 'spec/objects/openapi.yaml', line: 2, column: 1, message: 'struct bogus', stage: 'lint' }]],
    ]);
    const clean = fakes();
    await rebuildApis(objects, clean.steps, () => {});
    expect(clean.reports).toEqual([['objects', []]]);
  });

  it('does not reload, regenerate, lint or restart when the bundle fails: one line per problem', async () => {
    const { order, steps } = fakes({ bundleFails: true });
    const log = [];
    const result = await rebuildApis(objects, steps, (l) => log.push(l));
    expect(result).toEqual({ reloaded: false, findings: 0, failed: 1 });
    expect(order).toEqual(['bundle objects']);
    expect(log).toEqual([
      '  FAIL bundle objects: spec/objects/openapi.yaml:5:7 error yaml deficient indentation',
      'dev: not reloaded: the page keeps the last good build',
    ]);
  });
});
