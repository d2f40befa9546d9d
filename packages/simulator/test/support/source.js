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
