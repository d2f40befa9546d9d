// The Node check that `npm start`, `npm test` and `npm run simulator` run before anything else:
//   node scripts/supported-node.mjs <script> [args...]
// On a Node inside `engines` it runs <script> in this process, with [args...] as its arguments.
// On an older (or otherwise unsupported) one it re-runs itself on the newest release of the current
// LTS line, fetched once from the npm registry's `node` package into `.node/` (gitignored) and
// first on PATH for everything it starts (npm, turbo, the tests), saying so in one line.
// SVC_NODE_FETCH=0 turns the fetch off: then it prints one line naming the running version, the
// supported range and the fix, and exits 1. Only node: modules, so that it runs before `npm install`
// on whatever Node the machine has (Node 20 included).
import { spawn } from 'node:child_process';
import { delimiter, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ENGINES, installNode, LTS_LINE, nodeBin, npmSemver, root, versionOf } from './lib/node-install.mjs';

/** Where the fetched Node is kept, relative to the repository (gitignored). */
const NODE_DIR = '.node';
/** The environment variable that turns the fetch off (`SVC_NODE_FETCH=0`). */
const FETCH_ENV = 'SVC_NODE_FETCH';

const script = process.argv[2];
if (!script) {
  console.error('supported-node: Usage: node scripts/supported-node.mjs <script> [args...]');
  process.exit(2);
}

const semver = npmSemver();
// Without npm there is no judge of `engines`: go on, and let the script itself fail if it must.
const supported = (version) => !semver || semver.satisfies(version, ENGINES);

if (supported(process.version)) {
  // the script sees the arguments as if it had been started itself
  process.argv.splice(1, 2, resolve(script));
  await import(pathToFileURL(resolve(script)).href);
} else if (['0', 'false', 'off', 'no'].includes((process.env[FETCH_ENV] ?? '').toLowerCase())) {
  console.error(
    `node: Node ${process.version} is outside the supported range ${ENGINES}: install Node ${LTS_LINE} (nvm install ${LTS_LINE}), or unset ${FETCH_ENV} to have it fetched into ${NODE_DIR}/`,
  );
  process.exit(1);
} else {
  const prefix = join(root, NODE_DIR);
  const node = join(nodeBin(prefix), 'node');
  let version = versionOf(node);
  const why = `Node ${process.version} is outside the supported range ${ENGINES}`;
  if (version && supported(version)) {
    console.error(`node: ${why}: running on Node ${version} from ${NODE_DIR}/ (${FETCH_ENV}=0 turns this off)`);
  } else {
    console.error(
      `node: ${why}: fetching Node ${LTS_LINE} (the current LTS) from the npm registry's node package into ${NODE_DIR}/ and running on it (${FETCH_ENV}=0 turns this off)`,
    );
    try {
      ({ version } = installNode(LTS_LINE, prefix));
    } catch (e) {
      console.error(`node: ${e.message}: install Node ${LTS_LINE} yourself (nvm install ${LTS_LINE})`);
      process.exit(1);
    }
    // never a re-run on a Node that would fetch again
    if (!supported(version)) {
      console.error(`node: the fetched Node ${version} is outside ${ENGINES} too: LTS_LINE needs raising`);
      process.exit(1);
    }
  }
  // Everything the script starts (npm, turbo, node) runs on the fetched Node too.
  const env = {
    ...process.env,
    PATH: `${nodeBin(prefix)}${delimiter}${process.env.PATH ?? ''}`,
    npm_node_execpath: node,
    NODE: node,
  };
  const child = spawn(node, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env });
  child.on('error', (e) => {
    console.error(
      `node: Node ${version} from ${NODE_DIR}/ does not start (${e.message}): remove ${NODE_DIR}/ and run again`,
    );
    process.exit(1);
  });
  // Ctrl-C reaches both (one process group); a signal sent to this process alone is passed on.
  for (const signal of /** @type {NodeJS.Signals[]} */ (['SIGINT', 'SIGTERM', 'SIGHUP']))
    process.on(signal, () => {
      if (signal !== 'SIGINT') child.kill(signal);
    });
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else process.exit(code ?? 1);
  });
}
