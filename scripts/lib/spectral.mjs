// Spectral in-process (its Node API): the ruleset (.spectral.yaml, with spectral:oas, the house
// rules and OWASP) is loaded once and reused for every bundle, which `npm run dev` relies on:
// loading it is most of a CLI run. Findings are reported at the source YAML file and line.
import * as fs from 'node:fs';
import { readFile } from 'node:fs/promises';
import { root, shownPath } from '@svc/oas/apis';
import { sourceLocation } from './source-map.mjs';

const SEVERITY = ['error', 'warning', 'info', 'hint'];

/**
 * Loads a ruleset once and returns a linter of bundles.
 * @param {string} [ruleset] absolute path of the ruleset; `<root>/.spectral.yaml` by default
 * @returns {Promise<(bundle: string) => Promise<import('@stoplight/spectral-core').ISpectralDiagnostic[]>>}
 *   lints the bundle file (YAML) at that path and resolves to every finding, of every severity
 * @throws {Error} when the ruleset cannot be read or bundled
 */
export async function spectralLinter(ruleset = `${root}/.spectral.yaml`) {
  // Loaded here, not with this module: a command that refuses its arguments answers at once.
  // CommonJS packages: their exports are read from the default import.
  const [{ default: spectralCore }, { default: parsers }, { builtins }, { commonjs }, { default: loader }, runtime] =
    await Promise.all([
      import('@stoplight/spectral-core'),
      import('@stoplight/spectral-parsers'),
      import('@stoplight/spectral-ruleset-bundler/plugins/builtins'),
      import('@stoplight/spectral-ruleset-bundler/plugins/commonjs'),
      import('@stoplight/spectral-ruleset-bundler/with-loader'),
      import('@stoplight/spectral-runtime'),
    ]);
  const { Document, Spectral } = spectralCore;
  const { bundleAndLoadRuleset } = loader;
  const spectral = new Spectral();
  // builtins and commonjs as Spectral's CLI adds them (the OWASP ruleset is a CommonJS module)
  spectral.setRuleset(
    await bundleAndLoadRuleset(ruleset, { fs, fetch: runtime.default?.fetch ?? runtime.fetch }, [
      builtins(),
      commonjs(),
    ]),
  );
  return async (bundle) => spectral.run(new Document(await readFile(bundle, 'utf8'), parsers.Yaml, bundle));
}

/**
 * One finding as the author reads it: the source file, line and column, then the bundle location.
 * @param {{ root: string, bundle: string }} api an entry of `apis()` from `@svc/oas/apis`
 * @param {import('@stoplight/spectral-core').ISpectralDiagnostic} r
 * @returns {string} two lines
 */
export function formatFinding(api, r) {
  const src = sourceLocation(api.root, r.path);
  const bundleAt = `${shownPath(api.bundle)}:${r.range.start.line + 1}`;
  return (
    `${shownPath(src.file)}:${src.line}:${src.col} ${SEVERITY[r.severity]} ${r.code} ${r.message}` +
    `\n    at ${r.path.join(' > ')} (${bundleAt}${src.exact ? '' : ', nearest source parent'})`
  );
}
