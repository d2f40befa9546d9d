// The first step of `npm test` (scripts/test.mjs, after the Node check), so that the test command
// works on a fresh clone by itself: installs the
// packages (a no-op when they are current), then makes sure the browser tests have a Chromium
// (Debian's headless shell, else its full chromium) and the explorer's Go samples a `go`. Where one
// is missing it installs Debian's package when it can (root with apt-get), saying so; otherwise it
// stops at once with the one command to run.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_PACKAGES } from '../packages/explorer/test/support/chromium.js';

// Not from @svc/oas: this runs before the packages are installed.
const root = fileURLToPath(new URL('..', import.meta.url));

const canInstall = process.getuid?.() === 0 && onPath('apt-get');
let aptUpdated = false;

function run(command, args, env = process.env) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** The command that installs Debian's package `name`, for a user who is not root. */
const sudoInstall = (name) => `sudo apt-get update && sudo apt-get install -y ${name}`;

/** Installs one Debian package (root with apt-get), updating the package lists once per run. */
function aptInstall(name) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated && run('apt-get', ['update', '-qq'], env) !== 0) return false;
  aptUpdated = true;
  return run('apt-get', ['install', '-y', '-qq', name], env) === 0;
}

if (run('npm', ['install', '--no-audit', '--no-fund']) !== 0) {
  console.error('pretest: `npm install` failed (see above)');
  process.exit(1);
}

const [shell, full] = CHROMIUM_PACKAGES;
if (process.env.CHROMIUM_PATH) {
  if (!existsSync(process.env.CHROMIUM_PATH)) {
    console.error(
      `pretest: CHROMIUM_PATH names no file; point it at a Chromium, or unset it and run: ${sudoInstall(shell.name)}`,
    );
    process.exit(1);
  }
} else if (!existsSync(shell.path)) {
  const command = `apt-get update && apt-get install -y ${shell.name}`;
  if (canInstall) {
    console.log(`pretest: installing Debian's ${shell.name} for the browser tests (${command})`);
    if (!aptInstall(shell.name) || !existsSync(shell.path)) {
      if (!existsSync(full.path)) {
        console.error(`pretest: installing ${shell.name} failed; run: ${command}`);
        process.exit(1);
      }
      console.log(
        `pretest: installing ${shell.name} failed; the browser tests use ${full.name}, at about 1.5x the CPU`,
      );
    }
  } else if (existsSync(full.path)) {
    console.log(
      `pretest: the browser tests use ${full.name}; ${shell.name} takes about two thirds of the CPU: ${sudoInstall(shell.name)}`,
    );
  } else {
    console.error(
      `pretest: the browser tests need Chromium; install it with: ${sudoInstall(shell.name)} (or set CHROMIUM_PATH)`,
    );
    process.exit(1);
  }
}

// The explorer's Go samples are compiled and run by its tests (packages/explorer/test/code-samples.test.js).
if (!onPath('go')) {
  const command = 'apt-get update && apt-get install -y golang-go';
  if (!canInstall) {
    console.error(`pretest: the explorer's Go samples need go on PATH; install it with: ${sudoInstall('golang-go')}`);
    process.exit(1);
  }
  console.log(`pretest: go is missing; installing Debian's golang-go for the explorer's Go samples (${command})`);
  if (!aptInstall('golang-go') || !onPath('go')) {
    console.error(`pretest: installing golang-go failed; run: ${command}`);
    process.exit(1);
  }
}
