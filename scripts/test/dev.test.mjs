import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_PATH, affectedApis, debounceCollect, injectReload, startReloadFront } from '../lib/dev.mjs';

const spec = '/repo/spec';
const list = [
  { name: 'central', root: join(spec, 'central', 'openapi.yaml') },
  { name: 'element', root: join(spec, 'element', 'openapi.yaml') },
  { name: 'objects', root: join(spec, 'objects', 'openapi.yaml') },
];

describe('affectedApis', () => {
  const cases = [
    { name: 'a file of one API', given: [join(spec, 'element', 'paths', 'v2.0@images.yaml')], want: ['element'] },
    { name: 'two APIs, in redocly.yaml order', given: [join(spec, 'objects', 'openapi.yaml'), join(spec, 'central', 'x.yaml')], want: ['central', 'objects'] },
    { name: 'spec/common is shared by all', given: [join(spec, 'common', 'schemas', 'Uuid.yaml')], want: ['central', 'element', 'objects'] },
    { name: 'a file outside spec/ is ignored', given: ['/repo/README.md'], want: [] },
  ];
  for (const c of cases) it(c.name, () => expect(affectedApis(c.given, list, spec)).toEqual(c.want));
});

describe('injectReload', () => {
  it('puts the EventSource script before </body>, or at the end', () => {
    expect(injectReload('<html><body>x</body></html>')).toMatch(/x<script>new EventSource\("\/__dev\/events"\).*<\/script><\/body><\/html>$/);
    expect(injectReload('<p>x')).toMatch(/^<p>x<script>/);
  });
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

describe('startReloadFront', () => {
  let upstream;
  let front;
  beforeAll(async () => {
    upstream = createServer((req, res) => {
      if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<html><body>explorer</body></html>');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"openapi":"3.1.0"}');
    });
    await new Promise((r) => upstream.listen(0, '127.0.0.1', r));
    front = await startReloadFront({ upstream: `http://127.0.0.1:${upstream.address().port}` });
  });
  afterAll(async () => {
    await front.close();
    await new Promise((r) => upstream.close(r));
  });

  it('serves the explorer page with the reload script and other files untouched', async () => {
    const page = await (await fetch(front.url)).text();
    expect(page).toContain('explorer<script>new EventSource');
    expect(await (await fetch(`${front.url}specs/central.json`)).text()).toBe('{"openapi":"3.1.0"}');
  });

  it('sends a reload event to an open page', async () => {
    const res = await fetch(new URL(EVENTS_PATH, front.url));
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value); // ': connected'
    front.reload('central');
    while (!text.includes('event: reload')) text += decoder.decode((await reader.read()).value);
    expect(text).toContain('event: reload\ndata: "central"');
    await reader.cancel();
  });
});
