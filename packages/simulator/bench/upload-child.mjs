// The least an HTTP server can do with an upload, as references for the simulator's PUT:
//   node upload-child.mjs <dir>   PUT writes the body to <dir>/upload.bin, as the simulator writes
//                                 an image's file; DELETE removes it
//   node upload-child.mjs         PUT reads the body and drops it (the loopback transfer alone)
// Tells the parent its URL; stops on 'stop'.
import { createWriteStream, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

const [dir] = process.argv.slice(2);
const file = dir && join(dir, 'upload.bin');
const server = createServer(async (req, res) => {
  if (req.method === 'DELETE' && file) rmSync(file, { force: true });
  // the simulator's write-stream buffer: 1 MiB
  else if (file) await pipeline(req, createWriteStream(file, { highWaterMark: 1 << 20 }));
  else for await (const _ of req);
  res.end();
});
server.listen(0, '127.0.0.1', () =>
  process.send?.({ url: `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}` }),
);
process.on('message', (message) => message === 'stop' && server.close(() => process.exit(0)));
