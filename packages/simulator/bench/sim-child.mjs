// The simulator in a process of its own for the benchmark, so that its peak RSS is its own.
// Tells the parent its URL; answers 'rss' with its peak resident set size in MB; stops on 'stop'.
import { startSimulator } from '../src/index.js';

const [dataDir, password] = process.argv.slice(2);
const sim = await startSimulator({ port: 0, dataDir, password, taskSeconds: 0, http: true });
process.send({ url: sim.url });
process.on('message', async (message) => {
  if (message === 'rss') process.send({ maxRssMB: process.resourceUsage().maxRSS / 1024 });
  if (message === 'stop') {
    await sim.close();
    process.exit(0);
  }
});
