// The least an HTTPS server with basic auth can do to answer the simulator's cached list, as its
// reference in scale.mjs, in a process of its own (as the simulator is: a server sharing the load
// generator's event loop would be measured with the load generator's cost):
//   node bare-child.mjs   then the parent sends { cert, key, authorization, page } (page: the
//                         answer's bytes, base64); every request with that Authorization header
//                         is answered 200 with the page once its body is read, any other 401.
// Tells the parent its URL; answers 'cpu' with the CPU time it has used so far (user and system,
// in microseconds), as sim-child.mjs does; stops on 'stop'.
import { once } from 'node:events';
import { createServer } from 'node:https';

const [{ cert, key, authorization, page: base64 }] = await once(process, 'message');
const page = Buffer.from(base64, 'base64');
const headers = { 'content-type': 'application/json', 'content-length': page.length };
const server = createServer({ cert, key }, (req, res) => {
  if (req.headers.authorization !== authorization) {
    res.writeHead(401, { 'www-authenticate': 'Basic realm="svc"', 'content-length': 0 }).end();
    return;
  }
  req.resume();
  req.on('end', () => res.writeHead(200, headers).end(page));
});
server.listen(0, '127.0.0.1', () =>
  process.send?.({ url: `https://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}` }),
);
process.on('message', (message) => {
  if (message === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send?.({ cpu: user + system });
  }
  if (message === 'stop') {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  }
});
