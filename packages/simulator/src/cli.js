#!/usr/bin/env node
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
// `npm run simulator -- [options]`: runs the local svc until Ctrl-C. Prints its URL and user, and
// the password only when it generated one.
import { parseArgs } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { checkTopology } from './domain/topology.js';
import { DEFAULT_DATA_DIR, parseFaults, startSimulator } from './index.js';

const USAGE = `Usage: npm run simulator -- [--host 127.0.0.1] [--port 9440] [--data DIR] [--user admin] [--password P]
         [--task-seconds 3] [--http] [--cert FILE --key FILE] [--faults 503=R,429=R,latency=MS,task-fail=R] [--seed N]
         [--topology FILE]   clusters and subnets, JSON or YAML (the default is in the simulator's README)
Password: --password, else $SVC_SIM_PASSWORD, else one is generated and printed once.
Data dir default: ${DEFAULT_DATA_DIR}`;

/** Parses and checks the options; throws an Error naming the option and the rule. */
function options(argv) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '9440' },
      data: { type: 'string', default: DEFAULT_DATA_DIR },
      user: { type: 'string', default: 'admin' },
      password: { type: 'string' },
      'task-seconds': { type: 'string', default: '3' },
      http: { type: 'boolean', default: false },
      cert: { type: 'string' },
      key: { type: 'string' },
      faults: { type: 'string' },
      seed: { type: 'string' },
      topology: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (positionals.length) throw new Error(`unexpected argument "${positionals[0]}"`);
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port > 65535)
    throw new Error(`--port must be an integer 0-65535, not "${values.port}"`);
  const taskSeconds = Number(values['task-seconds']);
  if (values['task-seconds'] === '' || !Number.isFinite(taskSeconds) || taskSeconds < 0)
    throw new Error(`--task-seconds must be a number >= 0, not "${values['task-seconds']}"`);
  if (values.user === '' || values.user.includes(':')) throw new Error('--user must be a non-empty name without ":"');
  if ((values.cert === undefined) !== (values.key === undefined)) throw new Error('--cert and --key go together');
  if (values.http && values.cert) throw new Error('--http serves plain HTTP: leave out --cert and --key');
  const read = (flag, file) => {
    try {
      const text = readFileSync(file, 'utf8');
      if (!text.includes('-----BEGIN')) throw new Error('not PEM');
      return text;
    } catch (e) {
      throw new Error(`--${flag} must name a readable PEM file; ${file}: ${e.message}`);
    }
  };
  let seed;
  if (values.seed !== undefined) {
    seed = Number(values.seed);
    if (!/^\d+$/.test(values.seed) || seed > 2 ** 32)
      throw new Error(`--seed must be an integer 0-4294967296, not "${values.seed}"`);
  }
  let topology;
  if (values.topology !== undefined) {
    let text;
    try {
      text = readFileSync(values.topology, 'utf8');
    } catch (e) {
      throw new Error(`--topology must name a readable JSON or YAML file; ${values.topology}: ${e.code ?? e.message}`);
    }
    try {
      // YAML 1.2 reads JSON as well
      topology = checkTopology(parseYaml(text));
    } catch (e) {
      throw new Error(`--topology ${values.topology}: ${e.message}`);
    }
  }
  return {
    help: values.help,
    topology,
    host: values.host,
    port,
    dataDir: values.data,
    user: values.user,
    password: values.password,
    taskSeconds,
    http: values.http,
    cert: values.cert && read('cert', values.cert),
    certFile: values.cert,
    key: values.key && read('key', values.key),
    faults: values.faults === undefined ? undefined : parseFaults(values.faults),
    seed,
  };
}

let opts;
try {
  opts = options(process.argv.slice(2));
} catch (error) {
  console.error(`simulator: ${error.message.replace(/\s*\n\s*/g, ' ')}\n${USAGE}`); // one line: parseArgs messages can span three
  process.exit(2);
}
if (opts.help) {
  console.log(USAGE);
  process.exit(0);
}
let generated = false;
if (!opts.password) {
  opts.password = process.env.SVC_SIM_PASSWORD || undefined;
  if (!opts.password) {
    opts.password = randomBytes(12).toString('base64url');
    generated = true;
  }
}
let sim;
try {
  sim = await startSimulator(opts);
} catch (error) {
  console.error(`simulator: ${error.message}`);
  process.exit(1);
}
console.log(
  `local svc  ${sim.url}   (user ${sim.user}${generated ? `, password ${opts.password} (generated; set SVC_SIM_PASSWORD or --password to choose one)` : ''})`,
);
console.log(
  `           central ${sim.url}/api/svc/v3, element ${sim.url}/api/svc (and /PrismGateway/services/rest), objects ${sim.url}/oss/api/svc/v3`,
);
const tls = opts.certFile
  ? `; certificate from ${opts.certFile}`
  : sim.ca
    ? `; self-signed certificate in ${sim.dataDir}/tls/cert.pem (curl -k, or --cacert)`
    : '';
console.log(`           data in ${sim.dataDir}${tls}`);
if (opts.faults)
  console.log(
    `           faults: ${JSON.stringify(opts.faults)}${opts.seed !== undefined ? ` (seed ${opts.seed})` : ''}`,
  );
console.log('Ctrl-C stops it.');

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await sim.close();
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
