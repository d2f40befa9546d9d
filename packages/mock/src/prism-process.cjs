// The Prism process that src/index.js starts: it runs the mocks and proxies its parent asks for, on
// messages over the IPC channel, with the functions Prism's CLI runs (`prism mock`, `prism proxy`).
// One process for several documents loads Prism once: three mocks took 2.4 CPU-s and 212 MB here
// against 7.0 CPU-s and 611 MB as three processes. Prism's JSON Schema Faker options are
// global; each start resets them from its document's `x-json-schema-faker` (none in ours).
//
// Parent -> here: { rid, op: 'start', sid, options } | { rid, op: 'reload' | 'close', sid }
// Here -> parent: { rid } when done, { rid, error: message } when it failed.
const http = require('node:http');

// Prism 5.14 dies of a request whose path holds malformed percent-encoding (`/images/%E0%A4%A`:
// a URIError in its path matching, an unhandled rejection), and every mock of this process with
// it. Such a request gets a 400 here, before Prism sees it; Prism's server comes from
// `http.createServer` (through micri), looked up when each server starts.
const createServer = http.createServer;
http.createServer = (/** @type {any[]} */ ...args) => {
  const listener = typeof args.at(-1) === 'function' ? args.pop() : undefined;
  return createServer(...args, (req, res) => {
    try {
      decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
    } catch {
      res.writeHead(400, { 'content-type': 'application/problem+json' });
      res.end(JSON.stringify({ title: 'Bad Request', status: 400, detail: 'The path holds malformed percent-encoding.' }));
      return;
    }
    listener?.(req, res);
  });
};
// Any other failure of one request must not end the others' mocks: it is logged instead.
process.on('unhandledRejection', (reason) => console.error('prism-process: a request failed:', reason));

// Prism loads @faker-js/faker with all its locales at start (0.9 of a start's 2.3 CPU-s) for the
// `x-faker` keyword of dynamic mocks, which our documents do not use. A stand-in goes in its place
// in the module cache and loads the real one on first use (JSON Schema Faker reads it through
// property access, which the Proxy forwards, `this` included).
const fakerPath = require.resolve('@faker-js/faker', {
  paths: [require.resolve('@stoplight/prism-http')],
});
/** @type {any} */
let realFaker;
const faker = () => {
  if (!realFaker) {
    delete require.cache[fakerPath];
    realFaker = require(fakerPath).default;
  }
  return realFaker;
};
const lazyFaker = new Proxy(
  {},
  {
    get: (_, key) => Reflect.get(faker(), key),
    set: (_, key, value) => Reflect.set(faker(), key, value),
    has: (_, key) => Reflect.has(faker(), key),
  },
);
const standIn = new (require('node:module'))(fakerPath);
standIn.loaded = true;
standIn.exports = { __esModule: true, default: lazyFaker, faker: lazyFaker };
require.cache[fakerPath] = standIn;

const { createSingleProcessPrism } = require('@stoplight/prism-cli/dist/util/createServer');

/** @type {Map<number, { options: any, server: any }>} */
const servers = new Map();

/** @param {any} options what the parent sent: the CLI's options, `upstream` as a string */
function start(options) {
  return createSingleProcessPrism({
    cors: true,
    host: '127.0.0.1',
    multiprocess: false,
    verboseLevel: 'info',
    ...options,
    ...(options.upstream ? { upstream: new URL(options.upstream) } : {}),
  });
}

const ops = {
  async start({ sid, options }) {
    servers.set(sid, { options, server: await start(options) });
  },
  // Prism reads its document once per start: a reload is a new start on the same port.
  async reload({ sid }) {
    const entry = servers.get(sid);
    if (!entry) throw new Error(`no server ${sid}`);
    // (a server whose last reload failed is closed already)
    await entry.server.close().catch(() => {});
    entry.server = await start(entry.options);
  },
  async close({ sid }) {
    const entry = servers.get(sid);
    servers.delete(sid);
    await entry?.server.close().catch(() => {});
  },
};

process.on('message', (/** @type {any} */ message) => {
  ops[message.op](message).then(
    () => process.send?.({ rid: message.rid }),
    (/** @type {any} */ error) => process.send?.({ rid: message.rid, error: String(error?.message ?? error) }),
  );
});
// The channel closes when the parent ends, however it ends (SIGKILL included): so does Prism.
process.on('disconnect', () => process.exit(0));
