import { fileURLToPath } from 'node:url';
import { integer, parseCommandLine, port, UsageError } from '@svc/args';
import { describe, expect, it } from 'vitest';
import { runCommand } from './support/run.mjs';

/** @type {Parameters<typeof parseCommandLine>[0]} */
const spec = {
  options: {
    port: { type: 'string', default: '8080', check: port },
    runs: { type: 'string', check: integer(1) },
    seed: { type: 'string', check: integer(0, 10) },
    quiet: { type: 'boolean' },
  },
};

describe('parseCommandLine', () => {
  it.each([
    [[], { port: 8080 }],
    [['--port', '0'], { port: 0 }],
    [['--port=65535', '--quiet'], { port: 65535, quiet: true }],
    [['--runs', '3'], { port: 8080, runs: 3 }],
    [['--seed', '0'], { port: 8080, seed: 0 }],
    [['--seed', '10'], { port: 8080, seed: 10 }],
  ])('%j -> %j', (argv, values) => {
    expect(parseCommandLine(spec, argv).values).toEqual(values);
  });

  it.each([
    [['--bogus'], /Unknown option '--bogus'/],
    [['--port'], /--port.*argument missing/],
    [['--port', '-1'], /--port.*ambiguous/],
    [['--port=-1'], /--port must be a port number from 0 to 65535; got "-1"/],
    [['--port', ''], /--port must be a port number from 0 to 65535; got ""/],
    [['--port', '65536'], /got "65536"/],
    [['--port', '80.5'], /got "80.5"/],
    [['--port', '0x50'], /got "0x50"/],
    [['--port', ' 80'], /got " 80"/],
    [['--runs', '0'], /--runs must be an integer of at least 1; got "0"/],
    [['--seed', '11'], /--seed must be an integer from 0 to 10; got "11"/],
    [['--quiet=yes'], /--quiet/],
    [['extra'], /positional argument/],
  ])('%j is refused: %s', (argv, message) => {
    let error;
    try {
      parseCommandLine(spec, argv);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toMatch(message);
    expect(error.message).not.toMatch(/\n/);
  });

  it('checks defaults too (a port from the environment)', () => {
    expect(() =>
      parseCommandLine({ options: { port: { type: 'string', default: 'eighty', check: port } } }, []),
    ).toThrow(/--port must be a port number/);
  });
});

// Every command of the repository answers bad arguments alike: `<command>: <one line>`, the usage, exit 2
// (`@svc/args`: the simulator's CLI, a published package's, uses it too). A fourth element sets
// environment variables: the benches' settings, checked as options are.
const COMMANDS = [
  ['serve', 'serve.mjs', ['--port']],
  ['serve', 'serve.mjs', ['--bogus']],
  ['serve', 'serve.mjs', ['--port', '-1']],
  ['serve', 'serve.mjs', ['--port', '']],
  ['serve', 'serve.mjs', ['--mock-port', '70000']],
  ['serve', 'serve.mjs', ['--ca', '/no-such-folder/ca.pem']],
  ['serve', 'serve.mjs', ['--ca', 'package.json']],
  ['dev', 'dev.mjs', ['--port', '']],
  ['dev', 'dev.mjs', ['--bogus']],
  ['contract', 'contract.mjs', ['--bogus']],
  ['contract', 'contract.mjs', ['--timeout-ms', '-5']],
  ['breaking', 'breaking.mjs', ['--base']],
  ['breaking', 'breaking.mjs', ['--bogus']],
  ['bench-build', 'bench-build.mjs', ['--warm-runs', '0']],
  ['bench-dev', 'bench-dev.mjs', ['--saves', '0']],
  ['bench-dev', 'bench-dev.mjs', ['--bogus']],
  ['bench-test', 'bench-test.mjs', ['--runs', 'quiet,busy']],
  ['bench-test', 'bench-test.mjs', ['--bogus']],
  ['bench-start', 'bench-start.mjs', ['--runs', '0']],
  ['image', 'image.mjs', ['--bogus']],
  ['image', 'image.mjs', ['--engine', 'rkt']],
  ['node', 'node.mjs', ['x']],
  ['node', 'node.mjs', []],
  ['node', 'node.mjs', ['24', '--node', '24']],
  ['node', 'node.mjs', ['24', '--package', '@svc/nope']],
  ['node', 'node.mjs', ['24', '--install-only']],
  ['release:check', 'release-check.mjs', ['--bogus']],
  ['release:check', 'release-check.mjs', ['--base']],
  ['supply-chain', 'supply-chain.mjs', ['--audit-level', 'severe']],
  ['supply-chain', 'supply-chain.mjs', ['--no-audit=1']],
  ['bundle', 'bundle.mjs', ['nope']],
  ['bundle', 'bundle.mjs', ['--bogus']],
  ['lint:spectral', 'lint-spectral.mjs', ['centrall']],
  ['operations', 'operations.mjs', ['--bogus']],
  ['engine-check', 'engine-check.mjs', []],
  ['engine-check', 'engine-check.mjs', ['no-such.log']],
  ['engine-check', 'engine-check.mjs', ['--bogus']],
  ['explorer bench', '../packages/explorer/bench/bench.mjs', ['--bogus']],
  ['explorer bench', '../packages/explorer/bench/bench.mjs', ['--loads', '']],
  ['explorer bench', '../packages/explorer/bench/bench.mjs', ['--scalar', 'no-such-file.js']],
  ['simulator bench', '../packages/simulator/bench/bench.mjs', ['--bogus']],
  ['simulator bench', '../packages/simulator/bench/bench.mjs', ['extra']],
  ['simulator bench', '../packages/simulator/bench/bench.mjs', [], { BENCH_SECONDS: '' }],
  ['simulator bench', '../packages/simulator/bench/bench.mjs', [], { BENCH_ROUNDS: '0' }],
  ['simulator bench', '../packages/simulator/bench/bench.mjs', [], { BENCH_UPLOAD_BYTES: '1e9' }],
  ['simulator bench', '../packages/simulator/bench/bench.mjs', [], { BENCH_SCALE: '1000,100' }],
  ['simulator bench', '../packages/simulator/bench/scale.mjs', ['--bogus']],
  ['simulator bench', '../packages/simulator/bench/scale.mjs', [], { BENCH_ROUNDS: 'five' }],
  ['client bench', '../packages/client/bench/bench.mjs', ['--bogus']],
  ['client bench', '../packages/client/bench/bench.mjs', ['extra']],
  ['client bench', '../packages/client/bench/bench.mjs', [], { BENCH_ROUNDS: '0' }],
  ['client bench', '../packages/client/bench/bench.mjs', [], { BENCH_UPLOAD_BYTES: '-1' }],
  ['generate', '../packages/client/scripts/generate.mjs', ['--bogus']],
  ['generate', '../packages/client/scripts/generate.mjs', ['--check=yes']],
  ['generate', '../packages/client/scripts/generate.mjs', ['centrall']],
  ['simulator', '../packages/simulator/src/cli.js', ['--bogus']],
  ['simulator', '../packages/simulator/src/cli.js', ['--port']],
  ['simulator', '../packages/simulator/src/cli.js', ['--port', '-1']],
  ['simulator', '../packages/simulator/src/cli.js', ['--port', '']],
  ['simulator', '../packages/simulator/src/cli.js', ['--ready-file', '']],
  ['simulator', '../packages/simulator/src/cli.js', ['--print-env=yes']],
  ['simulator', '../packages/simulator/src/cli.js', ['extra']],
  ['simulator', '../packages/simulator/src/cli.js', ['--task-seconds', 'soon']],
  ['simulator', '../packages/simulator/src/cli.js', ['--seed', '-3']],
  ['simulator', '../packages/simulator/src/cli.js', ['--user', 'a:b']],
  ['simulator', '../packages/simulator/src/cli.js', ['--cert', 'no-such.pem', '--key', 'no-such.pem']],
  ['simulator', '../packages/simulator/src/cli.js', [], { SVC_SIM_PORT: 'http' }],
  ['simulator', '../packages/simulator/src/cli.js', [], { SVC_SIM_TASK_SECONDS: '-1' }],
  ['pack-files', '../packages/simulator/scripts/pack-files.mjs', []],
  ['pack-files', '../packages/simulator/scripts/pack-files.mjs', ['copyy']],
  ['pack-files', '../packages/simulator/scripts/pack-files.mjs', ['copy', 'remove']],
  ['pack-files', '../packages/simulator/scripts/pack-files.mjs', ['--bogus']],
];

/** Runs `node scripts/<script> <args>` (runCommand's limit ends a hang, naming the command). */
const run = (script, args, env = {}) =>
  runCommand(process.execPath, [fileURLToPath(new URL(`../${script}`, import.meta.url)), ...args], {
    env: { ...process.env, SVC_PASSWORD: 'x', EXPLORER_PORT: '', MOCK_PORT: '', ...env }, // empty: unset
  });

describe('commands refuse bad arguments with one line, the usage and exit 2', () => {
  // Each case is a Node process that mostly starts up: run them side by side (vitest's
  // maxConcurrency, 5), with the test's own expect as concurrent tests need.
  it.concurrent.for(COMMANDS)('%s %s %j %j', async ([name, script, args, env], { expect }) => {
    const { code, signal, out } = await run(script, args, env);
    expect(signal).toBeNull();
    const lines = out.trimEnd().split('\n');
    expect(lines[0], out).toMatch(new RegExp(`^${name}: (.*(--|"|')|BENCH_)`)); // names the option, argument or variable
    expect(lines[1], out).toMatch(/^Usage: /); // the message is one line; the usage may take more
    expect(out).not.toMatch(/\bat .*\.m?js:\d+/); // no stack trace
    // a file named on the command line is not echoed (no local paths in output)
    for (const arg of /** @type {string[]} */ (args).filter((a) => /^\.{0,2}\/|\.(pem|log|js|json)$/.test(a)))
      expect(out).not.toContain(arg);
    expect(code).toBe(2);
  });
});
