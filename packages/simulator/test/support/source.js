// A local HTTP server that plays an image host for `source_uri`: GET /<name> answers the bytes
// registered under that name, anything else 404.
import { createServer } from 'node:http';

/** @param {Record<string, Buffer>} files  path (e.g. `/disk.qcow2`) -> bytes */
export async function startSource(files) {
  const server = createServer((req, res) => {
    const bytes = files[req.url ?? ''];
    if (!bytes) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length });
    res.end(bytes);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve(undefined));
        server.closeAllConnections();
      }),
  };
}

/**
 * A source that answers `total` bytes but sends only `first` of them until `release()`: a fetch
 * held open at a known point.
 * @param {{ total: number, first: number }} o
 */
export async function startHeldSource({ total, first }) {
  const bytes = Buffer.alloc(total, 7);
  let release;
  const released = new Promise((resolve) => {
    release = resolve;
  });
  let requested;
  const started = new Promise((resolve) => {
    requested = resolve;
  });
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': total });
    res.write(bytes.subarray(0, first), () => requested(undefined));
    released.then(() => res.end(bytes.subarray(first)));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}/held.img`,
    bytes,
    /** resolves once the first bytes were handed to the socket */
    started,
    release: () => release(undefined),
    close: () =>
      new Promise((resolve) => {
        release(undefined);
        server.close(() => resolve(undefined));
        server.closeAllConnections();
      }),
  };
}

/**
 * A source whose paths `/held/<id>` answer `bytes`: the first request of an id given to `hold`
 * is held after its first 1 KiB until `release(id)` (or `releaseAll()`); any other request is
 * answered at once. A fetch caught mid-way once, as often as a test needs it, that a restart's
 * fetch of the same URL gets whole.
 * @param {Buffer} bytes
 */
export async function startGatedSource(bytes) {
  /** @type {Map<string, { started: Promise<void>, arrive: () => void, released: Promise<void>, release: () => void }>} */
  const gates = new Map();
  const gate = (id) => {
    let found = gates.get(id);
    if (!found) {
      let arrive = () => {};
      let release = () => {};
      const started = new Promise((resolve) => (arrive = () => resolve(undefined)));
      const released = new Promise((resolve) => (release = () => resolve(undefined)));
      found = { started, arrive, released, release };
      gates.set(id, found);
    }
    return found;
  };
  /** ids whose first request has come */
  const seen = new Set();
  const server = createServer((req, res) => {
    const id = /^\/held\/([\w-]+)$/.exec(req.url ?? '')?.[1];
    if (!id) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length });
    if (seen.has(id) || !gates.has(id)) return void res.end(bytes);
    seen.add(id);
    const g = gate(id);
    res.write(bytes.subarray(0, 1024), () => g.arrive());
    g.released.then(() => res.end(bytes.subarray(1024)));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}`,
    /** holds the first request of `id` (its URL: `${url}/held/${id}`) */
    hold: (id) => void gate(id),
    /** resolves once the first request of `id` has its first bytes */
    started: (id) => gate(id).started,
    release: (id) => gate(id).release(),
    releaseAll: () => {
      for (const g of gates.values()) g.release();
    },
    close: () =>
      new Promise((resolve) => {
        for (const g of gates.values()) g.release();
        server.close(() => resolve(undefined));
        server.closeAllConnections();
      }),
  };
}
