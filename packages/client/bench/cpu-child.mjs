// One variant of the per-request measure, in a fresh process of its own: its CPU time (user and
// system, every thread: GC included) over `count` sequential POST /images/list calls after
// `warmup` unmeasured ones. A process per variant keeps each honest: loading the client (undici)
// changes nothing in the process of the fetch or openapi-fetch reference.
// argv: variant (fetch | openapi-fetch | client | client-timed), base URL, warmup, count.
// Prints { cpuUs, wallUs } per request.
const [variant, base, warmup, count] = [
  process.argv[2],
  process.argv[3],
  Number(process.argv[4]),
  Number(process.argv[5]),
];
const body = { kind: 'image', offset: 0, length: 20 };
const auth = `Basic ${btoa('admin:bench')}`;
const api = `${base}/api/svc/v3`;

/** The same call each way: the same body and headers, the JSON read. */
async function variantCall() {
  if (variant === 'fetch') {
    const headers = { Authorization: auth, 'Content-Type': 'application/json', Accept: 'application/json' };
    return async () => {
      const response = await fetch(`${api}/images/list`, { method: 'POST', headers, body: JSON.stringify(body) });
      if (!response.ok) throw new Error(`fetch: HTTP ${response.status}`);
      return response.json();
    };
  }
  if (variant === 'openapi-fetch') {
    const { default: createClient } = await import('openapi-fetch');
    const client = createClient({ baseUrl: api, headers: { Authorization: auth, Accept: 'application/json' } });
    return async () => {
      const { data, error } = await client.POST('/images/list', { body });
      if (error) throw new Error('openapi-fetch: error answer');
      return data;
    };
  }
  const { createCentralClient } = await import('../dist/index.js');
  const options = { baseUrl: api, username: 'admin', password: 'bench' };
  const central = createCentralClient(variant === 'client-timed' ? { ...options, timeoutMs: 30_000 } : options);
  return async () => {
    const { data, error } = await central.POST('/images/list', { body });
    if (error) throw new Error('client: error answer');
    return data;
  };
}

const call = await variantCall();
for (let i = 0; i < warmup; i++) await call();
const cpu = process.cpuUsage();
const started = process.hrtime.bigint();
for (let i = 0; i < count; i++) await call();
const used = process.cpuUsage(cpu);
const wall = Number(process.hrtime.bigint() - started) / 1000;
console.log(JSON.stringify({ cpuUs: (used.user + used.system) / count, wallUs: wall / count }));
