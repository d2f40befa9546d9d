// The simulator in a process of its own for the benchmark, so that its peak RSS is its own.
//   node sim-child.mjs <dataDir> <password> [<options as JSON>]   (default options: { "http": true })
// Tells the parent its URL; answers 'rss' with its resident set size now and at its peak, in MB
// (with `--expose-gc`, `keptMB`: now, after two full collections: what it keeps), and 'cpu' with
// the CPU time it has used so far (user and system, in microseconds); stops on 'stop'.
import { startSimulator } from '../src/index.js';

const [dataDir, password, extra] = process.argv.slice(2);
const options = extra ? JSON.parse(extra) : { http: true };
const sim = await startSimulator({ port: 0, dataDir, password, taskSeconds: 0, ...options });
process.send({ url: sim.url });
process.on('message', async (message) => {
  if (message === 'rss') {
    const now = process.memoryUsage.rss() / 1024 ** 2;
    for (let i = 0; globalThis.gc && i < 2; i++) globalThis.gc();
    const kept = globalThis.gc ? process.memoryUsage.rss() / 1024 ** 2 : undefined;
    process.send({ maxRssMB: process.resourceUsage().maxRSS / 1024, rssMB: now, keptMB: kept });
  }
  if (message === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send({ cpu: user + system });
  }
  if (message === 'stop') {
    await sim.close();
    process.exit(0);
  }
});
