import { fork } from 'node:child_process';
import Agent from 'undici/lib/dispatcher/agent.js';
import { createCentralClient } from '../dist/index.js';
const server = fork(new URL('./server.mjs', import.meta.url).pathname);
const { port } = await new Promise((r) => server.once('message', r));
const url = `http://127.0.0.1:${port}/api/svc/v3/images/list`;
const bodyObj = { kind: 'image', offset: 0, length: 20 };
const h = () => ({ Authorization: 'x', 'Content-Type': 'application/json', Accept: 'application/json' });
const agent = new Agent({ headersTimeout: 30000 });
const raw = async () => (await fetch(url, { method: 'POST', headers: h(), body: JSON.stringify(bodyObj) })).json();
const rawAgent = async () => (await fetch(url, { method: 'POST', headers: h(), body: JSON.stringify(bodyObj), dispatcher: agent })).json();
const c = createCentralClient({ baseUrl: `http://127.0.0.1:${port}/api/svc/v3`, username: 'a', password: 'b' });
const client = async () => (await c.POST('/images/list', { body: bodyObj })).data;
async function batch(fn, n) { const t = process.hrtime.bigint(); for (let i = 0; i < n; i++) await fn(); return Number(process.hrtime.bigint() - t) / n / 1000; }
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
for (const f of [raw, rawAgent, client]) await batch(f, 500);
for (const [name, f] of [['rawAgent', rawAgent], ['client', client]]) {
  const ratios = [];
  for (let r = 0; r < 150; r++) { const a = r % 2 ? await batch(raw, 20) : 0; const b = await batch(f, 20); const a2 = r % 2 ? a : await batch(raw, 20); ratios.push(b / a2); }
  console.log(name, '/ raw', med(ratios).toFixed(3));
}
server.send('stop');
