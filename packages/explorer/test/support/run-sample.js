// Runs a code sample copied from the explorer page, as a user would: bash for curl, python3 for
// Python, Node for TypeScript (transpiled; @svc/client resolved from this package), `go run` for Go.
import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { inject } from 'vitest';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The environment of `go` in the tests: no network (the samples use the standard library only), and this run's build cache. */
export const goEnv = () => ({ GOPROXY: 'off', GOCACHE: inject('goCache') });

/**
 * Runs a sample copied from the page: bash for curl, python3 for Python, Node for TypeScript
 * (transpiled, @svc/client resolved from this package), `go run` for Go, with the credentials in the environment.
 * Asynchronous: the explorer that answers runs in this process.
 * @returns {Promise<{ status: number | null, stdout: string, stderr: string }>}
 */
export async function runSample(lang, source, { user = 'admin', password = 'secret' } = {}) {
  const env = { ...process.env, SVC_USER: user, SVC_PASSWORD: password };
  let command = lang === 'shell' ? ['bash', ['-c', source]] : ['python3', ['-c', source]];
  const file = join(packageDir, `.sample-run-${process.pid}.mjs`);
  if (lang === 'typescript') {
    writeFileSync(
      file,
      ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } })
        .outputText,
    );
    command = [process.execPath, [file]];
  }
  const goFile = join(tmpdir(), `explorer-sample-${process.pid}.go`);
  if (lang === 'go') {
    writeFileSync(goFile, source);
    command = ['go', ['run', goFile]];
    Object.assign(env, goEnv());
  }
  try {
    return await new Promise((resolve) => {
      // The limit only ends a hang: at a load average of 28 a curl to Prism took over 30 s, and
      // `go run` builds first.
      execFile(command[0], command[1], { env, timeout: 120_000 }, (error, stdout, stderr) => {
        resolve({ status: error ? (error.code ?? null) : 0, stdout, stderr });
      });
    });
  } finally {
    rmSync(file, { force: true });
    rmSync(goFile, { force: true });
  }
}
