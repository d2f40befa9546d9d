import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { affectedApis, debounceCollect } from '../lib/dev.mjs';

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
