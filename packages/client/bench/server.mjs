// The loopback server of the benchmark, in its own process so it does not share the client's event loop.
// Answers POST .../images/list with a small page, and discards upload bodies, answering when they end.
import { createServer } from 'node:http';

const page = JSON.stringify({
  api_version: '3.1',
  metadata: { total_matches: 1, kind: 'image', length: 1, offset: 0 },
  entities: [
    {
      metadata: { uuid: '4a48f395-80f3-4afe-a3e4-91700db88901', kind: 'image' },
      spec: { name: 'ubuntu.iso', resources: {} },
      status: { state: 'COMPLETE' },
    },
  ],
});
const server = createServer((req, res) => {
  let bytes = 0;
  req.on('data', (chunk) => (bytes += chunk.length));
  req.on('end', () => {
    if (req.method === 'PUT') {
      res.writeHead(200, { 'Content-Length': '0', 'X-Bytes': String(bytes) });
      return res.end();
    }
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(page) });
    res.end(page);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', (m) => m === 'stop' && server.close(() => process.exit(0)));
