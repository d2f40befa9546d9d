import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { documentWith, validDocument } from './support/documents.js';
import { lint, loadRuleset, REPO_RULESET } from './support/lint.js';

const HOUSE_CODES = [
  'svc-intent-entity',
  'svc-api-version-string',
  'svc-uuid',
  'svc-time-date-time',
  'svc-usecs-int64',
  'svc-operation-id-grammar',
  'svc-operation-summary',
  'svc-operation-responses',
  'svc-operation-examples',
  'svc-path-version-prefix',
];

/**
 * The clean sample plus what the OWASP ruleset asks of every operation on top of the house
 * rules: a 401 and a 500 response with content (owasp:api8:2023-define-error-responses-*).
 */
function owaspCleanDocument() {
  return documentWith((doc) => {
    doc.components.responses.Unauthorized = {
      description: 'Missing or wrong credentials.',
      content: { 'text/html': { schema: { type: 'string', maxLength: 4096 } } },
    };
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) {
        if (!op || typeof op !== 'object' || !op.responses) continue;
        op.responses['401'] = { $ref: '#/components/responses/Unauthorized' };
        op.responses['500'] = { $ref: '#/components/responses/Error' };
      }
    }
  });
}

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

describe('.spectral.yaml (spectral:oas all + house rules + OWASP)', () => {
  it('loads spectral:oas, the house rules and the OWASP ruleset', async () => {
    const ruleset = await loadRuleset(REPO_RULESET);
    const codes = Object.keys(ruleset.rules);
    expect(codes).toEqual(
      expect.arrayContaining([
        ...HOUSE_CODES,
        'oas3-schema',
        'operation-operationId',
        'oas3-unused-component',
        'owasp:api1:2023-no-numeric-ids',
        'owasp:api8:2023-no-server-http',
      ]),
    );
    // `all`: rules that spectral:oas leaves off by default are on
    expect(ruleset.rules['oas3-parameter-description'].enabled).toBe(true);
  });

  it('keeps the conventions spectral:oas already checks on: description, tags, examples that validate', async () => {
    const ruleset = await loadRuleset(REPO_RULESET);
    for (const code of [
      'operation-description',
      'operation-tags',
      'operation-tag-defined',
      'oas3-valid-media-example',
      'oas3-valid-schema-example',
    ]) {
      expect(ruleset.rules[code]?.enabled, code).toBe(true);
    }
  });

  it('lists every exception in its rules section with the reason in a comment above it', () => {
    const doc = parseDocument(readFileSync(REPO_RULESET, 'utf8'));
    const rules = /** @type {import('yaml').YAMLMap<import('yaml').Scalar, unknown>} */ (doc.get('rules'));
    expect(isMap(rules)).toBe(true);
    expect(rules.items.length).toBeGreaterThan(0);
    rules.items.forEach((pair, index) => {
      const name = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      // A comment directly above the entry, or above the group of entries (no blank line
      // between) it belongs to. The first entry's comment belongs to the map in the YAML AST.
      let reason;
      for (let j = index; j >= 0 && reason === undefined; j--) {
        reason = rules.items[j].key.commentBefore ?? (j === 0 ? rules.commentBefore : undefined);
        if (reason === undefined && rules.items[j].key.spaceBefore) break;
      }
      expect(reason, `${name} has no reason`).toBeDefined();
      expect(String(reason).trim().length, name).toBeGreaterThan(40);
      const value = isScalar(pair.value) ? pair.value.value : /** @type {any} */ (pair.value)?.toJSON?.();
      // Only turning off or down: a redefined rule would not be an exception.
      expect(['off', 'hint', 'info', 'information', 'warn', 'warning', false], name).toContain(value);
    });
  });

  it('lists every per-API exception in overrides with the reason above it, for one bundle each', () => {
    const doc = parseDocument(readFileSync(REPO_RULESET, 'utf8'));
    const overrides = doc.get('overrides');
    if (!isSeq(overrides)) throw new Error('.spectral.yaml has no overrides list');
    expect(overrides.items.length).toBeGreaterThan(0);
    overrides.items.forEach((item, index) => {
      if (!isMap(item)) throw new Error(`overrides[${index}] is not a map`);
      const reason = index === 0 ? (item.commentBefore ?? overrides.commentBefore) : item.commentBefore;
      expect(String(reason ?? '').trim().length, `overrides[${index}] has no reason`).toBeGreaterThan(40);
      const files = /** @type {string[]} */ (item.toJSON().files);
      // one bundle (or a part of one): an exception for every API belongs in `rules`
      for (const file of files) expect(file, `overrides[${index}]`).toMatch(/^dist\/[a-z]+\.yaml(#\/.+)?$/);
      for (const value of Object.values(item.toJSON().rules))
        expect(['off', 'hint', 'info', 'information', 'warn', 'warning', false]).toContain(value);
    });
  });

  it('finds nothing in a document that follows every convention', async () => {
    const results = await lint(owaspCleanDocument(), REPO_RULESET);
    expect(results.map((r) => `${r.code} ${r.path.join('.')}: ${r.message}`)).toEqual([]);
  });

  it('finds house and spectral:oas problems together', async () => {
    const doc = validDocument();
    doc.paths['/images'].post.operationId = 'createImage';
    delete doc.info.contact;
    const codes = (await lint(doc, REPO_RULESET)).map((r) => r.code);
    expect(codes).toEqual(expect.arrayContaining(['svc-operation-id-grammar', 'info-contact']));
  });

  it('finds an example that does not validate against its schema (spectral:oas)', async () => {
    const doc = owaspCleanDocument();
    doc.paths['/images/list'].post.requestBody.content['application/json'].examples.firstPage.value.offset = 'zero';
    const results = await lint(doc, REPO_RULESET);
    expect(results.map((r) => r.code)).toContain('oas3-valid-media-example');
    const finding = results.find((r) => r.code === 'oas3-valid-media-example');
    expect(finding?.message).toMatch(/offset/);
  });

  it('finds an operation without a description or a tag (spectral:oas)', async () => {
    const doc = owaspCleanDocument();
    delete doc.paths['/images/{uuid}'].get.description;
    delete doc.paths['/images/{uuid}'].get.tags;
    const results = await lint(doc, REPO_RULESET);
    const at = results.filter((r) => r.path.slice(0, 3).join(' ') === 'paths /images/{uuid} get').map((r) => r.code);
    expect(at).toEqual(expect.arrayContaining(['operation-description', 'operation-tags']));
  });

  it('runs the OWASP rules that stay on (http server, numeric ids)', async () => {
    const doc = owaspCleanDocument();
    doc.servers.push({ url: 'http://pc.svc.test:9440/api/svc/v3', description: 'Plain HTTP' });
    doc.paths['/images/{id}'] = {
      get: {
        ...doc.paths['/images/{uuid}'].get,
        operationId: 'images_get_by_id',
        parameters: [
          {
            name: 'id',
            in: 'path',
            required: true,
            description: 'A numeric id.',
            schema: { type: 'integer', format: 'int64' },
          },
        ],
      },
    };
    const codes = (await lint(doc, REPO_RULESET)).map((r) => r.code);
    expect(codes).toEqual(expect.arrayContaining(['owasp:api8:2023-no-server-http', 'owasp:api1:2023-no-numeric-ids']));
  });

  it('does not report what the exceptions turn off (basic auth, rate limits)', async () => {
    const codes = (await lint(owaspCleanDocument(), REPO_RULESET)).map((r) => r.code);
    expect(codes).not.toContain('owasp:api2:2023-no-http-basic');
    expect(codes).not.toContain('owasp:api4:2023-rate-limit');
  });
});
