import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validDocument } from './support/documents.js';
import { REPO_RULESET, lint, loadRuleset } from './support/lint.js';

const HOUSE_CODES = [
  'svc-intent-entity',
  'svc-api-version-string',
  'svc-uuid',
  'svc-time-date-time',
  'svc-usecs-int64',
  'svc-operation-id-grammar',
  'svc-operation-responses',
  'svc-operation-examples',
  'svc-path-version-prefix',
];

describe('ruleset.yaml', () => {
  it('defines exactly the house rules, each an error with a description and a message', async () => {
    const ruleset = await loadRuleset();
    expect(Object.keys(ruleset.rules).sort()).toEqual([...HOUSE_CODES].sort());
    for (const code of HOUSE_CODES) {
      const rule = ruleset.rules[code];
      expect(rule.severity, code).toBe(0);
      expect(rule.description, code).toMatch(/^.{20,}/);
      expect(rule.message, code).toMatch(/\{\{error\}\}\.\s*\S/);
    }
  });

  it('has a table-driven test file for every rule', () => {
    const files = readdirSync(new URL('.', import.meta.url));
    for (const code of HOUSE_CODES) expect(files, code).toContain(`${code}.test.js`);
  });
});

describe('.spectral.yaml (spectral:oas all + house rules)', () => {
  it('loads spectral:oas and the house rules', async () => {
    const ruleset = await loadRuleset(REPO_RULESET);
    const codes = Object.keys(ruleset.rules);
    expect(codes).toEqual(expect.arrayContaining([...HOUSE_CODES, 'oas3-schema', 'operation-operationId', 'oas3-unused-component']));
    // `all`: rules that spectral:oas leaves off by default are on
    expect(ruleset.rules['oas3-parameter-description'].enabled).toBe(true);
  });

  it('finds nothing in a document that follows every convention', async () => {
    const results = await lint(validDocument(), REPO_RULESET);
    expect(results.map((r) => `${r.code} ${r.path.join('.')}: ${r.message}`)).toEqual([]);
  });

  it('finds house and spectral:oas problems together', async () => {
    const doc = validDocument();
    doc.paths['/images'].post.operationId = 'createImage';
    delete doc.info.contact;
    const codes = (await lint(doc, REPO_RULESET)).map((r) => r.code);
    expect(codes).toEqual(expect.arrayContaining(['svc-operation-id-grammar', 'info-contact']));
  });
});
