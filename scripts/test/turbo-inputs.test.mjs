import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '@svc/oas/apis';
import { describe, expect, it } from 'vitest';
import { outputsUsedAsInputs } from '../lib/turbo-inputs.mjs';
import { COMMAND_LIMIT_MS } from './support/run.mjs';

describe('outputsUsedAsInputs', () => {
  const cases = [
    {
      name: "a root task that reads its dependency's output",
      given: {
        '//#bundle': { outputs: ['dist/**'] },
        '//#lint': { dependsOn: ['//#bundle'], inputs: ['dist/*.yaml'] },
      },
      want: [{ task: '//#lint', input: 'dist/*.yaml', output: 'dist/**', of: '//#bundle' }],
    },
    {
      name: "a package task that reads the root's output through $TURBO_ROOT$, two steps away",
      given: {
        '//#bundle': { outputs: ['dist/**'] },
        generate: { dependsOn: ['//#bundle'], outputs: ['src/generated/**'] },
        build: { dependsOn: ['generate'], inputs: ['$TURBO_DEFAULT$', '$TURBO_ROOT$/dist/*.json'] },
      },
      want: [{ task: 'build', input: '$TURBO_ROOT$/dist/*.json', output: 'dist/**', of: '//#bundle' }],
    },
    {
      name: "a glob that stays in one folder does not reach a subfolder's outputs",
      given: {
        '//#bundle': { outputs: ['dist/**'] },
        build: { dependsOn: ['//#bundle'], outputs: ['dist/**'] },
        typecheck: { dependsOn: ['build'], inputs: ['$TURBO_ROOT$/tsconfig.*.json', '$TURBO_ROOT$/dist/*.json'] },
      },
      want: [{ task: 'typecheck', input: '$TURBO_ROOT$/dist/*.json', output: 'dist/**', of: '//#bundle' }],
    },
    {
      name: "a root task's glob over every package reaches a package's generated sources, not its dist",
      given: {
        generate: { outputs: ['src/generated/**'] },
        build: { dependsOn: ['generate'], outputs: ['dist/**'] },
        '//#typecheck': { dependsOn: ['@svc/client#build'], inputs: ['packages/*/src/**', 'packages/*/*.json'] },
      },
      want: [{ task: '//#typecheck', input: 'packages/*/src/**', output: 'src/generated/**', of: 'generate' }],
    },
    {
      name: 'a negated input that excludes the output clears it; one narrower than the output does not',
      given: {
        generate: { outputs: ['src/generated/**'] },
        '//#typecheck': {
          dependsOn: ['@svc/client#generate'],
          inputs: ['packages/*/src/**', '!packages/*/src/generated/**'],
        },
        '//#lint': {
          dependsOn: ['@svc/client#generate'],
          inputs: ['packages/*/src/**', '!packages/*/src/generated/*.ts'],
        },
      },
      want: [{ task: '//#lint', input: 'packages/*/src/**', output: 'src/generated/**', of: 'generate' }],
    },
    {
      name: 'sources, $TURBO_DEFAULT$ and negations are fine',
      given: {
        '//#bundle': { inputs: ['spec/**'], outputs: ['dist/**', '!dist/operations.json'] },
        build: { dependsOn: ['//#bundle', '^build'], inputs: ['$TURBO_DEFAULT$', '!dist/x', '$TURBO_ROOT$/spec/**'] },
      },
      want: [],
    },
  ];
  for (const c of cases)
    it(c.name, () => expect(outputsUsedAsInputs({ tasks: /** @type {any} */ (c.given) })).toEqual(c.want));

  it("turbo.json: no task hashes a dependency's outputs (a fresh clone's second build is a full cache hit)", () => {
    const turbo = JSON.parse(readFileSync(join(root, 'turbo.json'), 'utf8'));
    expect(outputsUsedAsInputs(turbo)).toEqual([]);
  });

  it("a package's tests, benches and vitest config are not inputs of its build: editing a test rebuilds nothing", () => {
    const turbo = join(root, 'node_modules/turbo/bin/turbo');
    const dry = JSON.parse(
      execFileSync(process.execPath, [turbo, 'run', 'build', '--dry=json'], {
        cwd: root,
        timeout: COMMAND_LIMIT_MS,
      }).toString(),
    );
    const built = dry.tasks.filter((t) => /#(build|generate)$/.test(t.taskId) && !t.taskId.startsWith('//#'));
    expect(built.map((t) => t.taskId)).toContain('@svc/client#generate');
    const tests = built.flatMap((t) =>
      Object.keys(t.inputs)
        .filter((file) => /^(test|bench)\/|^vitest\.config\./.test(file))
        .map((file) => `${t.taskId}: ${file}`),
    );
    expect(tests).toEqual([]);
  });

  // turbo hands a task only the variables it is told to (strict mode): without these, a test that
  // installs from the registry behind a TLS-inspecting proxy fails on its certificate (seen: the
  // client's consumer test sat over 12 minutes in npm's retries of SELF_SIGNED_CERT_IN_CHAIN).
  it("turbo passes the machine's TLS and proxy settings through to every task", () => {
    const names = ['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR', 'HTTPS_PROXY', 'https_proxy', 'NO_PROXY'];
    const env = { ...process.env, ...Object.fromEntries(names.map((n) => [n, `/probe/${n}`])) };
    const turbo = join(root, 'node_modules/turbo/bin/turbo');
    const dry = JSON.parse(
      execFileSync(process.execPath, [turbo, 'run', 'test', '--filter=@svc/oas', '--dry=json'], {
        cwd: root,
        env,
        timeout: COMMAND_LIMIT_MS,
      }).toString(),
    );
    const passed = dry.globalCacheInputs.environmentVariables.passthrough.map((v) => v.split('=')[0]);
    expect(passed).toEqual(expect.arrayContaining(names));
  });
});
