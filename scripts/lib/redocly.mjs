// Runs the Redocly CLI of this repository's node_modules, quietly (no update notice, no telemetry).
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { root } from '@svc/oas/apis';

const require = createRequire(import.meta.url);

/** Absolute path of Redocly's CLI entry point. */
export const redoclyCli = require.resolve('@redocly/cli/bin/cli.js');

/** The environment Redocly runs in: the caller's, without the update notice and telemetry. */
export const redoclyEnv = () => ({ ...process.env, REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_TELEMETRY: 'off' });

/**
 * Runs `redocly <args>` in `cwd` (it reads `<cwd>/redocly.yaml`) and waits for it.
 * @param {string[]} args e.g. `['bundle', 'central', '--output', 'dist/central.json']`
 * @param {{ cwd?: string, stdio?: import('node:child_process').StdioOptions }} [options]
 * @throws {Error} when Redocly exits non-zero (with its stderr when piped)
 */
export function redocly(args, { cwd = root, stdio = ['ignore', 'ignore', 'inherit'] } = {}) {
  execFileSync(process.execPath, [redoclyCli, ...args], { cwd, stdio, env: redoclyEnv() });
}
