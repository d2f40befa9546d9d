// Validates the real-world payloads of conformance/ against the bundled schemas, as that
// folder's README says: `valid` with formats and patterns, `valid-shape` without; an
// `informational` payload is asserted invalid (the spec is not loosened for a client's mock).
// A failing `valid`/`valid-shape` payload names the file, the operation, each field and rule;
// an `informational` one that validates names the file and the operation.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { basePathOf, deref } from '@svc/oas';
import { apis } from '@svc/oas/apis';
import { describe, expect, it } from 'vitest';
import {
  jsonMediaType,
  loadBundle,
  repoRoot,
  requestSchemaPointer,
  responseSchemaPointer,
  SchemaValidator,
} from '../src/spec.js';

const dir = process.env.SVC_CONFORMANCE_DIR ?? join(repoRoot, 'packages', 'contract-tests', 'conformance');

interface Payload {
  source: string;
  api: string;
  method: string | null;
  path: string | null;
  direction: 'request' | 'response';
  status?: number;
  expect: 'valid' | 'valid-shape' | 'informational';
  validate_as?: { method: string; path: string; status: number };
  body: unknown;
}

const described = new Set(apis().map((a) => a.name));
const bundles = new Map<string, { doc: any; strict: SchemaValidator; shape: SchemaValidator; basePath: string }>();
function bundle(api: string) {
  let b = bundles.get(api);
  if (!b) {
    const doc = loadBundle(api);
    const basePath = basePathOf(doc);
    b = { doc, strict: new SchemaValidator(api, doc, true), shape: new SchemaValidator(api, doc, false), basePath };
    bundles.set(api, b);
  }
  return b;
}

/** The schema pointer a payload is checked against; throws naming what the spec lacks. */
function target(file: string, p: Payload) {
  const b = bundle(p.api);
  const method = (p.validate_as?.method ?? p.method)?.toLowerCase();
  const fullPath = p.validate_as?.path ?? p.path;
  const status = String(p.validate_as?.status ?? p.status ?? '');
  if (!method || !fullPath) {
    // Error fixtures not tied to an operation are read as the shared v3 error body.
    if (p.direction === 'response' && Number(status) >= 400 && b.doc.components?.schemas?.ErrorResponse) {
      return { b, pointer: '/components/schemas/ErrorResponse', what: 'the v3 error body (ErrorResponse)' };
    }
    throw new Error(`${file}: names no operation (method/path null) and has no validate_as`);
  }
  if (!fullPath.startsWith(b.basePath))
    throw new Error(`${file}: path ${fullPath} is outside the server base path ${b.basePath}`);
  const path = fullPath.slice(b.basePath.length) || '/';
  const op = b.doc.paths?.[path]?.[method];
  if (!op) throw new Error(`${file}: dist/${p.api}.json has no operation ${method.toUpperCase()} ${path}`);
  if (p.direction === 'request') {
    if (!jsonMediaType(deref<any>(b.doc, op.requestBody)?.content))
      throw new Error(`${file}: ${op.operationId} declares no JSON request body`);
    return { b, pointer: requestSchemaPointer(b.doc, path, method), what: `${op.operationId} request` };
  }
  if (!op.responses?.[status]) throw new Error(`${file}: ${op.operationId} declares no ${status} response`);
  return {
    b,
    pointer: responseSchemaPointer(b.doc, path, method, status),
    what: `${op.operationId} ${status} response`,
  };
}

if (!existsSync(dir)) {
  it('finds the conformance corpus', () => {
    throw new Error(`conformance folder ${dir} does not exist; set SVC_CONFORMANCE_DIR`);
  });
} else {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();

  it('finds the conformance corpus', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  for (const api of [
    ...new Set(files.map((f) => (JSON.parse(readFileSync(join(dir, f), 'utf8')) as Payload).api)),
  ].sort()) {
    describe(`conformance: ${api}`, () => {
      for (const file of files) {
        const p = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Payload;
        if (p.api !== api) continue;
        const name = `${file} (${p.expect})`;
        if (!described.has(api)) {
          it.skip(`${name}: no description of the ${api} API in redocly.yaml yet`, () => {});
          continue;
        }
        it(name, () => {
          const { b, pointer, what } = target(file, p);
          if (p.expect === 'informational') {
            // A client's mock that real servers contradict: a spec that accepted it would have
            // been loosened for it, so it must stay rejected.
            const errors = b.shape.validate(pointer, p.body);
            expect(
              errors.length,
              `${file} validates as ${what}: the spec was loosened for an informational payload`,
            ).toBeGreaterThan(0);
            return;
          }
          const errors = (p.expect === 'valid' ? b.strict : b.shape).validate(pointer, p.body);
          expect(errors, `${file} as ${what}:\n  ${errors.join('\n  ')}`).toEqual([]);
        });
      }
    });
  }
}
