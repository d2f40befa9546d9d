// Runs before `npm test`, so that the test command works on a fresh clone by itself: installs the
// packages (a no-op when they are current), then makes sure the browser tests have a Chromium and
// the explorer's Go samples a `go`. Where one is missing it installs Debian's package when it can
// (root with apt-get), saying so; otherwise it stops at once with the one command to run.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// Not from @svc/oas: this runs before the packages are installed.
const root = fileURLToPath(new URL('..', import.meta.url));

/** Where the browser tests look for Chromium (see packages/explorer/test/browser.test.js). */
export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

function run(command, args, env = process.env) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

if (run('npm', ['install', '--no-audit', '--no-fund']) !== 0) {
  console.error('pretest: `npm install` failed (see above)');
  process.exit(1);
}

if (!existsSync(chromiumPath)) {
  const command = 'apt-get update && apt-get install -y chromium';
  const asUser = 'sudo apt-get update && sudo apt-get install -y chromium';
  if (process.env.CHROMIUM_PATH) {
    console.error(
      `pretest: CHROMIUM_PATH=${chromiumPath} does not exist; point it at a Chromium, or unset it and run: ${asUser}`,
    );
    process.exit(1);
  }
  if (process.getuid?.() !== 0 || !onPath('apt-get')) {
    console.error(
      `pretest: the browser tests need Chromium at ${chromiumPath}; install it with: ${asUser} (or set CHROMIUM_PATH)`,
    );
    process.exit(1);
  }
  console.log(`pretest: Chromium is missing; installing Debian's chromium for the browser tests (${command})`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (
    run('apt-get', ['update', '-qq'], env) !== 0 ||
    run('apt-get', ['install', '-y', '-qq', 'chromium'], env) !== 0 ||
    !existsSync(chromiumPath)
  ) {
    console.error(`pretest: installing chromium failed; run: ${command}`);
    process.exit(1);
  }
}

// The explorer's Go samples are compiled and run by its tests (packages/explorer/test/code-samples.test.js).
if (!onPath('go')) {
  const command = 'apt-get update && apt-get install -y golang-go';
  if (process.getuid?.() !== 0 || !onPath('apt-get')) {
    console.error(`pretest: the explorer's Go samples need go on PATH; install it with: sudo ${command}`);
    process.exit(1);
  }
  console.log(`pretest: go is missing; installing Debian's golang-go for the explorer's Go samples (${command})`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (
    run('apt-get', ['update', '-qq'], env) !== 0 ||
    run('apt-get', ['install', '-y', '-qq', 'golang-go'], env) !== 0 ||
    !onPath('go')
  ) {
    console.error(`pretest: installing golang-go failed; run: ${command}`);
    process.exit(1);
  }
}
