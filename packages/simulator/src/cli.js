#!/usr/bin/env node
// `svc-simulator [options]` (`npx @svc/simulator`, or `npm run simulator --` in the repository): runs
// the local svc until Ctrl-C or SIGTERM. Prints its URL and user, and the password only when it
// generated one. --print-env and --ready-file hand the same facts to scripts and other languages.
import { accessSync, constants, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { integer, parseCommandLine, port, UsageError, usageExit } from '@svc/args';
import { checkTopology } from './domain/topology.js';
import { parseFaults } from './faults.js';
import { isOrigin } from './wire/cors.js';

/**
 * A path as printed: relative to the working directory when inside it, else its last two names
 * (`svc-data/password`), so no local path reaches a log.
 * @param {string} path
 */
function shown(path) {
  const inside = relative(process.cwd(), resolve(path));
  if (inside === '') return '.';
  if (!inside.startsWith('..') && !isAbsolute(inside)) return inside;
  return join(basename(dirname(resolve(path))), basename(path));
}

const USAGE = `Usage: svc-simulator [--host 127.0.0.1] [--port 9440] [--data DIR] [--user admin] [--password P]
         [--task-seconds 3] [--http] [--cert FILE --key FILE] [--faults 503=R,429=R,latency=MS,task-fail=R] [--seed N]
         [--print-env] [--ready-file FILE] [--topology FILE] [--upload-idle-seconds 60] [--snapshot FILE] [--fresh]
         [--cors ORIGIN[,ORIGIN]]
--topology FILE: the clusters and subnets, JSON or YAML (the default is in the simulator's README).
--snapshot FILE: start from a snapshot (a tar archive of GET /_svc/snapshot): it replaces the data dir's state.
--upload-idle-seconds: an upload silent this long is abandoned (nothing kept) and answered 408.
--cors ORIGIN[,ORIGIN]: browser pages of these origins may call the APIs (Swagger UI or Scalar served elsewhere):
  their preflights are answered without credentials and the answers carry the CORS headers. Off by default.
--fresh: begin with an empty store: the data dir's state and image bytes are removed (its password and certificate
  stay). Without it, image files the state cannot account for (a lost state.sqlite) stop the start instead.
Password: --password, else $SVC_SIM_PASSWORD (named like the other SVC_SIM_* settings), else $SVC_PASSWORD (the name
  npm start prints and the explorer's samples and the README's curl read), else the one kept in <data dir>/password
  (generated at the first start, printed).
Environment (a typed option wins): SVC_SIM_HOST, SVC_SIM_PORT, SVC_SIM_DATA, SVC_SIM_TASK_SECONDS, SVC_SIM_TOPOLOGY,
SVC_SIM_SNAPSHOT, SVC_SIM_CORS.
--print-env: stdout is only SVC_SIM_URL=..., SVC_SIM_USER=..., SVC_SIM_CA=<PEM file> (HTTPS) lines, once listening.
--ready-file FILE: the same lines written to FILE once listening (removed at stop).
Data dir default: .simulator/ at the repository root in a checkout; installed from npm, ./.simulator`;

/**
 * `check` for a number of seconds: a decimal >= 0.
 * @param {string} value as typed
 * @param {string} name the option without dashes
 * @returns {number}
 * @throws {UsageError}
 */
function seconds(value, name) {
  const n = value === '' ? NaN : Number(value);
  if (!(Number.isFinite(n) && n >= 0)) throw new UsageError(`--${name} must be a number >= 0; got "${value}"`);
  return n;
}

/**
 * `check` for a number of seconds that must be more than 0.
 * @param {string} value as typed
 * @param {string} name the option without dashes
 * @returns {number}
 * @throws {UsageError}
 */
function positiveSeconds(value, name) {
  const n = value === '' ? NaN : Number(value);
  if (!(Number.isFinite(n) && n > 0)) throw new UsageError(`--${name} must be a number > 0; got "${value}"`);
  return n;
}

/**
 * `check` for a value that must not be empty (a user name, a file).
 * @param {string} value as typed
 * @param {string} name the option without dashes
 * @returns {string}
 * @throws {UsageError}
 */
function nonEmpty(value, name) {
  if (value === '') throw new UsageError(`--${name} must not be empty`);
  return value;
}

/**
 * `check` for a file to read (a snapshot): there, a regular file, readable.
 * @param {string} value as typed
 * @param {string} name the option without dashes
 * @returns {string} the absolute path
 * @throws {UsageError}
 */
function readableFile(value, name) {
  const file = resolve(nonEmpty(value, name));
  try {
    if (!statSync(file).isFile()) throw Object.assign(new Error(), { code: 'not a regular file' });
    accessSync(file, constants.R_OK);
  } catch (e) {
    throw new UsageError(`--${name} must name a readable file (${e.code ?? e.message})`);
  }
  return file;
}

/**
 * `check` for `--cors`: comma-separated origins, each scheme, host and port as a browser sends it.
 * @param {string} value as typed
 * @param {string} name the option without dashes
 * @returns {string[]}
 * @throws {UsageError}
 */
function origins(value, name) {
  const list = value.split(',').map((o) => o.trim());
  for (const origin of list) {
    if (!isOrigin(origin))
      throw new UsageError(
        `--${name}: "${origin}" is not an origin; give scheme, host and port as a browser sends them (http://127.0.0.1:8000)`,
      );
  }
  return list;
}

/** The environment variables that stand for options (how a container is configured). */
const ENV_OPTIONS = {
  host: 'SVC_SIM_HOST',
  port: 'SVC_SIM_PORT',
  data: 'SVC_SIM_DATA',
  'task-seconds': 'SVC_SIM_TASK_SECONDS',
  topology: 'SVC_SIM_TOPOLOGY',
  snapshot: 'SVC_SIM_SNAPSHOT',
  cors: 'SVC_SIM_CORS',
};

/**
 * The command line with the options set in the environment first, so a typed one wins.
 * @param {string[]} argv as typed
 * @returns {string[]}
 */
function withEnvironment(argv) {
  const set = Object.entries(ENV_OPTIONS).filter(([, variable]) => process.env[variable]);
  return [...set.map(([name, variable]) => `--${name}=${process.env[variable]}`), ...argv];
}

/**
 * A bad value from the environment is named by its variable: `SVC_SIM_PORT: --port must be ...`.
 * @param {string} message a UsageError's, naming `--<option>`
 * @param {string[]} argv as typed
 */
function namedFromEnvironment(message, argv) {
  const name = /^--([a-z-]+)/.exec(message)?.[1];
  const variable = name && ENV_OPTIONS[name];
  const typed = argv.some((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  return variable && process.env[variable] && !typed ? `${variable}: ${message}` : message;
}

/**
 * Parses and checks the options (`@svc/args`, as every command of the repository), before the
 * simulator's modules load: a typo or `--help` is answered at once, not after 0.3 CPU-s of imports.
 * @param {string[]} argv
 * @returns the simulator's options (`dataDir` undefined: the default), with `help`, `printEnv`,
 *   `readyFile` and `certFile` for the CLI itself
 * @throws {UsageError} naming the option and the rule
 */
async function options(argv) {
  const { values } = parseCommandLine(
    {
      options: {
        host: { type: 'string', default: '127.0.0.1' },
        port: { type: 'string', default: '9440', check: port },
        data: { type: 'string' },
        user: { type: 'string', default: 'admin', check: nonEmpty },
        password: { type: 'string' },
        'task-seconds': { type: 'string', default: '3', check: seconds },
        http: { type: 'boolean', default: false },
        cert: { type: 'string' },
        key: { type: 'string' },
        faults: { type: 'string' },
        seed: { type: 'string', check: integer(0, 2 ** 32) },
        'print-env': { type: 'boolean', default: false },
        'ready-file': { type: 'string', check: nonEmpty },
        topology: { type: 'string' },
        'upload-idle-seconds': { type: 'string', default: '60', check: positiveSeconds },
        snapshot: { type: 'string', check: readableFile },
        fresh: { type: 'boolean', default: false },
        cors: { type: 'string', check: origins },
        help: { type: 'boolean', short: 'h', default: false },
      },
    },
    argv,
  );
  if (values.user.includes(':')) throw new UsageError('--user must be a name without ":"');
  if ((values.cert === undefined) !== (values.key === undefined)) throw new UsageError('--cert and --key go together');
  if (values.http && values.cert) throw new UsageError('--http serves plain HTTP: leave out --cert and --key');
  const read = (flag, file) => {
    try {
      const text = readFileSync(file, 'utf8');
      if (!text.includes('-----BEGIN')) throw new Error('not PEM');
      return text;
    } catch (e) {
      throw new Error(`--${flag} must name a readable PEM file (${e.code ?? e.message})`);
    }
  };
  let topology;
  if (values.topology !== undefined) {
    let text;
    try {
      text = readFileSync(values.topology, 'utf8');
    } catch (e) {
      throw new Error(`--topology must name a readable JSON or YAML file (${e.code ?? e.message})`);
    }
    try {
      // YAML 1.2 reads JSON as well
      const { parse } = await import('yaml');
      topology = checkTopology(parse(text));
    } catch (e) {
      throw new Error(`--topology: ${e.message}`);
    }
  }
  return {
    help: values.help,
    topology,
    host: values.host,
    port: values.port,
    dataDir: values.data,
    user: values.user,
    password: values.password,
    taskSeconds: values['task-seconds'],
    http: values.http,
    cert: values.cert && read('cert', values.cert),
    certFile: values.cert,
    key: values.key && read('key', values.key),
    faults: values.faults === undefined ? undefined : parseFaults(values.faults),
    seed: values.seed,
    printEnv: values['print-env'],
    readyFile: values['ready-file'] && resolve(values['ready-file']),
    uploadIdleTimeoutMs: values['upload-idle-seconds'] * 1000,
    snapshot: values.snapshot,
    fresh: values.fresh,
    cors: values.cors ?? [],
  };
}

/**
 * The environment other test suites read: `SVC_SIM_URL`, `SVC_SIM_USER`, `SVC_SIM_CA` (the PEM
 * file to trust; absent with --http) and `SVC_SIM_PASSWORD` only when it was generated (a chosen
 * one is the caller's already and is never echoed).
 */
function envLines(sim, o, generated) {
  const ca = o.certFile ? resolve(o.certFile) : sim.ca ? join(resolve(sim.dataDir), 'tls', 'cert.pem') : undefined;
  return [
    `SVC_SIM_URL=${sim.url}`,
    `SVC_SIM_USER=${sim.user}`,
    ...(ca ? [`SVC_SIM_CA=${ca}`] : []),
    ...(generated ? [`SVC_SIM_PASSWORD=${o.password}`] : []),
  ].join('\n');
}

let opts;
const typed = process.argv.slice(2);
try {
  opts = await options(withEnvironment(typed));
} catch (error) {
  // a PEM or topology file that does not read is a bad option too (its message names the option)
  usageExit('simulator', USAGE, namedFromEnvironment(error.message.replace(/\s*\n\s*/g, ' '), typed));
}
if (opts.help) {
  console.log(USAGE);
  process.exit(0);
}
const { DataDirLocked, DEFAULT_DATA_DIR, keptPassword, StoreUnexplained, startSimulator, killAtWrite } = await import(
  './index.js'
);
opts.dataDir ??= DEFAULT_DATA_DIR;
// the crash tests' seam counts from the first write of the process: the kept password's too
if (opts.faults?.killAt) killAtWrite(opts.faults.killAt);
/** @type {{ password: string, created: boolean } | undefined} the data dir's password, when none is chosen */
let kept;
if (!opts.password) {
  // its own setting first; else the name every sample sends (npm start's `export SVC_USER=... SVC_PASSWORD=...`)
  opts.password = process.env.SVC_SIM_PASSWORD || process.env.SVC_PASSWORD || undefined;
  if (!opts.password) {
    try {
      kept = keptPassword(opts.dataDir);
    } catch (error) {
      console.error(`simulator: ${error.message}; set SVC_PASSWORD (or SVC_SIM_PASSWORD) or --password to choose one`);
      process.exit(1);
    }
    opts.password = kept.password;
  }
}
// printed (and in --print-env) unless the caller chose it
const generated = Boolean(kept);
let sim;
try {
  sim = await startSimulator(opts);
} catch (error) {
  if (error instanceof DataDirLocked) {
    // exit 2, as a bad argument: this --data cannot be used now
    console.error(
      `simulator: the data dir ${shown(opts.dataDir)} is in use by another simulator${error.pid ? ` (PID ${error.pid})` : ''}; stop it, or give another --data`,
    );
    process.exit(2);
  }
  // exit 2: the archive --snapshot names is not one it takes (nothing changed)
  if (error?.name === 'SnapshotInvalid') {
    console.error(`simulator: --snapshot: ${error.message}`);
    process.exit(2);
  }
  // exit 2: this data dir cannot be used as it is; the line says how to recover
  if (error instanceof StoreUnexplained) {
    console.error(`simulator: the data dir ${shown(opts.dataDir)}: ${error.message}`);
    process.exit(2);
  }
  console.error(`simulator: ${error.message}`);
  process.exit(1);
}
// a stop from the instant anything says it listens (a supervisor may send SIGTERM at once)
let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  if (opts.readyFile) rmSync(opts.readyFile, { force: true });
  await sim.close();
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
// --print-env keeps stdout for the variables: the human lines go to stderr then
const say = opts.printEnv ? console.error : console.log;
const env = envLines(sim, opts, generated);
if (opts.readyFile) {
  // whole or absent: a script waiting on the file never reads half of it
  const partial = `${opts.readyFile}.${process.pid}.tmp`;
  try {
    writeFileSync(partial, `${env}\n`, { mode: 0o600 });
    renameSync(partial, opts.readyFile);
  } catch (error) {
    console.error(`simulator: --ready-file: cannot write the file (${error.code ?? error.message})`);
    await sim.close();
    process.exit(1);
  }
}
if (opts.printEnv) console.log(env);
say(
  `local svc  ${sim.url}   (user ${sim.user}${kept ? `, password ${opts.password} (${kept.created ? 'generated, ' : ''}kept in ${shown(join(sim.dataDir, 'password'))}; set SVC_PASSWORD or --password to choose one)` : ''})`,
);
say(
  `           central ${sim.url}/api/svc/v3, element ${sim.url}/api/svc (and /PrismGateway/services/rest), objects ${sim.url}/oss/api/svc/v3`,
);
const tls = opts.certFile
  ? `; certificate from ${opts.certFile}`
  : sim.ca
    ? `; self-signed certificate in ${shown(join(sim.dataDir, 'tls', 'cert.pem'))} (curl -k, or --cacert)`
    : '';
say(`           data in ${shown(sim.dataDir)}${tls}`);
if (opts.faults)
  say(`           faults: ${JSON.stringify(opts.faults)}${opts.seed !== undefined ? ` (seed ${opts.seed})` : ''}`);
say('Ctrl-C stops it.');
