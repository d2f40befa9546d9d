// Redocly: the CLI of this repository's node_modules, run quietly (no update notice, no telemetry),
// and its Node API for bundling and linting in-process.
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { root, shownPath } from '@svc/oas/apis';

const require = createRequire(import.meta.url);

/** Absolute path of Redocly's CLI entry point (a dev dependency: resolved when used, so that the
 * start-only install of `npm start`, which bundles and lints in-process, can load this module). */
const redoclyCli = () => require.resolve('@redocly/cli/bin/cli.js');

/** The environment Redocly runs in: the caller's, without the update notice and telemetry. */
export const redoclyEnv = () => ({ ...process.env, REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_TELEMETRY: 'off' });

/**
 * Runs `redocly <args>` in `cwd` (it reads `<cwd>/redocly.yaml`) and waits for it.
 * @param {string[]} args e.g. `['bundle', 'central', '--output', 'dist/central.json']`
 * @param {{ cwd?: string, stdio?: import('node:child_process').StdioOptions }} [options]
 * @throws {Error} when Redocly exits non-zero (with its stderr when piped)
 */
export function redocly(args, { cwd = root, stdio = ['ignore', 'ignore', 'inherit'] } = {}) {
  execFileSync(process.execPath, [redoclyCli(), ...args], { cwd, stdio, env: redoclyEnv() });
}

// In-process: Redocly's Node API (@redocly/openapi-core), for `npm run bundle` and `npm run dev`.
// The same bytes as `redocly bundle` (scripts/test/redocly.test.mjs compares them); the lint
// gate stays the CLI (`npm run lint:redocly`), `npm run dev` lints in-process for speed.

/** Redocly's Node API, loaded on first use: the CLI helpers above do not need it. */
const core = () => import('@redocly/openapi-core');

/** The top-level key order `redocly bundle` writes an OpenAPI 3 document in; other keys follow. */
const OAS3_ORDER = [
  'openapi',
  'info',
  'jsonSchemaDialect',
  'servers',
  'security',
  'tags',
  'externalDocs',
  'paths',
  'webhooks',
  'x-webhooks',
  'components',
];

/**
 * Reads `<root>/redocly.yaml` (the APIs, the lint rules).
 * @param {string} [dir] the folder of redocly.yaml; the repository root by default
 * @returns {Promise<import('@redocly/openapi-core').Config>}
 */
export async function redoclyConfig(dir = root) {
  const { loadConfig } = await core();
  return loadConfig({ configPath: join(dir, 'redocly.yaml') });
}

/** One problem of Redocly's lint or bundle as a line: `spec/<file>:line:col severity rule message`. */
function formatProblem(problem, getLineColLocation) {
  const at = problem.location?.[0];
  const loc = at ? getLineColLocation(at) : undefined;
  const file = loc ? `${shownPath(loc.source.absoluteRef)}:${loc.start.line}:${loc.start.col} ` : '';
  // paths inside the repository as the author writes them, not as this machine holds them
  return `${file}${problem.severity} ${problem.ruleId} ${problem.message.replaceAll(`${root}/`, '')}`;
}

/** js-yaml's reason without the file and position it appends (` in "<path>" (line:col)`). */
const yamlReason = (message) => message.replace(/ in ".*" \(\d+:\d+\)$/, '');
const PARSE_FAILED = 'Failed to parse: ';
const UNRESOLVED = "Can't resolve $ref: ";

/**
 * The bundle's problems as lines; a referenced file that is not YAML is one line at its own line
 * (`error yaml <reason>`), without the unresolved `$ref`s it causes, which Redocly also reports.
 */
function yamlFirst(problems, getLineColLocation) {
  const unparsed = new Set(
    problems.filter((p) => p.message.startsWith(PARSE_FAILED)).map((p) => p.message.slice(PARSE_FAILED.length)),
  );
  return problems
    .filter((p) => !(p.message.startsWith(UNRESOLVED) && unparsed.has(p.message.slice(UNRESOLVED.length))))
    .map((p) =>
      formatProblem(
        p.message.startsWith(PARSE_FAILED)
          ? { ...p, ruleId: 'yaml', message: yamlReason(p.message.slice(PARSE_FAILED.length)) }
          : p,
        getLineColLocation,
      ),
    );
}

/**
 * Bundles one API in-process and writes `dist/<api>.yaml` and `dist/<api>.json` as `redocly bundle`
 * does (each written to a temporary name and renamed, so a reader never sees half a file).
 * @param {{ name: string, root: string, bundle: string, bundleJson: string }} api from `apis()`
 * @param {import('@redocly/openapi-core').Config} config from `redoclyConfig()`
 * @returns {Promise<any>} the bundled document
 * @throws {Error & { problems: string[] }} when bundling finds an error (an unresolved `$ref`, a
 *   YAML syntax error): `problems` one line each (`spec/<file>:line:col error <rule> <message>`),
 *   the message the API's name and those lines; nothing is written then
 */
export async function bundleApi(api, config) {
  const { bundle, getLineColLocation, stringifyYaml, YamlParseError } = await core();
  /** @param {string[]} problems */
  const refused = (problems) => Object.assign(new Error(`bundle ${api.name}:\n${problems.join('\n')}`), { problems });
  let result;
  try {
    result = await bundle({ ref: api.root, config: config.forAlias(api.name) });
  } catch (error) {
    // the root file is not YAML (a save mid-edit)
    if (!(error instanceof YamlParseError)) throw error;
    throw refused([
      `${shownPath(error.source.absoluteRef)}:${error.line}:${error.col} error yaml ${yamlReason(error.message)}`,
    ]);
  }
  const errors = result.problems.filter((p) => p.severity === 'error' && !p.ignored);
  if (errors.length) throw refused(yamlFirst(errors, getLineColLocation));
  const parsed = /** @type {Record<string, unknown>} */ (result.bundle.parsed);
  const doc = {};
  for (const key of OAS3_ORDER) if (Object.hasOwn(parsed, key)) doc[key] = parsed[key];
  Object.assign(doc, parsed);
  mkdirSync(dirname(api.bundle), { recursive: true });
  for (const [file, text] of [
    [api.bundle, stringifyYaml(doc, { noRefs: true, lineWidth: -1 })],
    [api.bundleJson, JSON.stringify(doc, null, 2)],
  ]) {
    writeFileSync(`${file}.tmp-${process.pid}`, text);
    renameSync(`${file}.tmp-${process.pid}`, file);
  }
  return doc;
}

/**
 * Lints one API's sources in-process with the rules of redocly.yaml.
 * @param {{ name: string, root: string }} api from `apis()`
 * @param {import('@redocly/openapi-core').Config} config from `redoclyConfig()`
 * @returns {Promise<{ severity: 'error' | 'warn', text: string }[]>} the problems not ignored, each
 *   as a line `spec/<file>:line:col severity rule message`
 */
export async function lintApi(api, config) {
  const { getLineColLocation, lint } = await core();
  const problems = await lint({ ref: api.root, config: config.forAlias(api.name) });
  return problems
    .filter((p) => !p.ignored)
    .map((p) => ({ severity: p.severity, text: formatProblem(p, getLineColLocation) }));
}
