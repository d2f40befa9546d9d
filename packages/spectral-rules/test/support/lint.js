/**
 * Runs sample documents through real Spectral with the real ruleset files,
 * and the table-driven `describeRule` used by every rule test.
 */
import * as fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Document, Spectral } from '@stoplight/spectral-core';
import * as Parsers from '@stoplight/spectral-parsers';
import { commonjs } from '@stoplight/spectral-ruleset-bundler/plugins/commonjs';
import { bundleAndLoadRuleset } from '@stoplight/spectral-ruleset-bundler/with-loader';
import { describe, expect, it } from 'vitest';

/** The house ruleset (packages/spectral-rules/ruleset.yaml). */
export const HOUSE_RULESET = fileURLToPath(new URL('../../ruleset.yaml', import.meta.url));
/** The repository configuration (/.spectral.yaml: spectral:oas all + the house ruleset). */
export const REPO_RULESET = fileURLToPath(new URL('../../../../.spectral.yaml', import.meta.url));

const loaded = new Map();

/**
 * @param {string} [rulesetFile]
 * @returns {Promise<import('@stoplight/spectral-core').Ruleset>}
 */
export function loadRuleset(rulesetFile = HOUSE_RULESET) {
  if (!loaded.has(rulesetFile)) {
    // commonjs(): as the Spectral CLI does, so that CommonJS rulesets from npm
    // (@stoplight/spectral-owasp-ruleset) load as they do in `spectral lint`.
    loaded.set(rulesetFile, bundleAndLoadRuleset(rulesetFile, { fs, fetch }, [commonjs()]));
  }
  return loaded.get(rulesetFile);
}

/**
 * Lints a document (a JS object, or YAML text).
 *
 * @param {Record<string, any> | string} doc
 * @param {string} [rulesetFile]
 */
export async function lint(doc, rulesetFile = HOUSE_RULESET) {
  const spectral = new Spectral();
  spectral.setRuleset(await loadRuleset(rulesetFile));
  const document =
    typeof doc === 'string'
      ? new Document(doc, Parsers.Yaml, '/samples/openapi.yaml')
      : new Document(JSON.stringify(doc, null, 2), Parsers.Json, '/samples/openapi.json');
  return spectral.run(document);
}

/**
 * @typedef {object} Finding
 * @property {Array<string | number>} path the exact result path
 * @property {string} field the field the message must name (it appears in double quotes)
 * @property {string[]} [says] more text the message must contain
 *
 * @typedef {object} Case
 * @property {string} name
 * @property {Record<string, any> | string} given the document
 * @property {Finding[]} want every finding of the rule, nothing more (empty: the rule stays silent)
 */

/**
 * Table-driven tests of one rule: for each case, the rule's findings on
 * `given` are exactly `want` (same count, same paths, messages naming the
 * field). The table itself must hold passing and failing samples.
 *
 * @param {string} code
 * @param {Case[]} cases
 */
export function describeRule(code, cases) {
  describe(code, () => {
    it('has passing and failing samples', async () => {
      expect(cases.some((c) => c.want.length === 0)).toBe(true);
      expect(cases.some((c) => c.want.length > 0)).toBe(true);
      expect(Object.keys((await loadRuleset()).rules)).toContain(code);
    });

    it.each(cases)('$name', async ({ given, want }) => {
      const results = (await lint(given)).filter((r) => r.code === code);
      const got = results.map((r) => ({ path: r.path.map(String), message: r.message, severity: r.severity }));
      const expected = want.map(({ path, field, says = [] }) => ({
        path: path.map(String),
        message: expect.stringMatching(
          new RegExp([`"${field}"`, ...says].map((s) => `(?=[\\s\\S]*${escapeRegExp(s)})`).join('')),
        ),
        severity: 0,
      }));
      expect(got).toEqual(expect.arrayContaining(expected));
      expect(got.map((r) => `${r.path.join('.')}: ${r.message}`)).toHaveLength(expected.length);
    });
  });
}

const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
