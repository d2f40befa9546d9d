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
