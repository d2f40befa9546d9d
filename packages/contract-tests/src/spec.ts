// Reads the bundled descriptions and validates payloads against their schemas with Ajv (JSON Schema 2020-12).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { operations as bundleOperations, deref, type HttpMethod, mediaKind, serverBasePath } from '@svc/oas';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';

// ajv-formats is CommonJS: under NodeNext its function is the default export's default.
const addFormats = (formats as unknown as { default: typeof formats.default }).default;

import { root as repoRoot } from '@svc/oas/apis';

/** Repository root. */
export { repoRoot };

type Json = Record<string, any>;

/** One operation of a bundle. */
export interface Operation {
  api: string;
  method: HttpMethod;
  /** Path as written in the bundle, relative to the server base path, e.g. `/images/{uuid}`. */
  path: string;
  operationId: string;
  /** Base path of the first server, e.g. `/api/svc/v3`. */
  basePath: string;
  op: Json;
}

/**
 * Loads `dist/<api>.json`.
 * @throws {Error} when the bundle is missing (run `npm run bundle`).
 */
export function loadBundle(api: string): Json {
  const file = join(repoRoot, 'dist', `${api}.json`);
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run bundle\` first`);
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** Every operation of a bundle, in document order; `op.parameters` holds the path item's and its own, resolved. */
export function operations(api: string, doc: Json = loadBundle(api)): Operation[] {
  const basePath = serverBasePath(doc.servers?.[0]?.url);
  return bundleOperations(doc).map((o) => ({
    api,
    method: o.method,
    path: o.path,
    operationId: o.operationId ?? '',
    basePath,
    op: { ...o.operation, parameters: o.parameters },
  }));
}

/** JSON pointer escaping of one segment. */
export const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Removes string-valued `pattern` keywords, for validating payloads that use placeholder ids. */
function withoutPatterns(node: any): any {
  if (Array.isArray(node)) return node.map(withoutPatterns);
  if (node && typeof node === 'object') {
    const out: Json = {};
    for (const [k, v] of Object.entries(node))
      if (!(k === 'pattern' && typeof v === 'string')) out[k] = withoutPatterns(v);
    return out;
  }
  return node;
}

/** A readable line per Ajv error: the field (JSON pointer into the payload) and the rule. */
export function describeErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const field = e.instancePath || '(root)';
    const extra =
      e.keyword === 'additionalProperties'
        ? ` "${(e.params as any).additionalProperty}"`
        : e.keyword === 'enum'
          ? ` ${JSON.stringify((e.params as any).allowedValues)}`
          : '';
    return `${field} ${e.message}${extra} (rule ${e.keyword} at ${e.schemaPath})`;
  });
}

/**
 * Validates payloads against schemas of a bundle, addressed by JSON pointer into the bundle.
 * `strict: true` checks formats and patterns; `false` skips both (for fixtures with placeholders).
 */
export class SchemaValidator {
  private readonly ajv: Ajv2020;
  private readonly id: string;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(
    readonly api: string,
    doc: Json,
    strict = true,
  ) {
    this.id = `https://svc.invalid/${api}${strict ? '' : '-shape'}.json`;
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: strict });
    addFormats(this.ajv);
    const { paths, components } = strict ? doc : withoutPatterns(doc);
    this.ajv.addSchema({ $id: this.id, paths, components });
  }

  /** Validates `data` against the schema at `pointer` (e.g. `/paths/~1images/post/...`); returns error lines. */
  validate(pointer: string, data: unknown): string[] {
    let fn = this.cache.get(pointer);
    if (!fn) {
      fn = this.ajv.compile({ $ref: `${this.id}#${pointer}` });
      this.cache.set(pointer, fn);
    }
    const validate = fn;
    return validate(data) ? [] : describeErrors(validate.errors);
  }
}

/** The JSON media type of a Content Object (`application/json`, `application/problem+json`: `mediaKind` of @svc/oas), if it has one. */
export function jsonMediaType(content: Json | undefined): string | undefined {
  return Object.keys(content ?? {}).find((type) => mediaKind(type) === 'json');
}

/** Pointer to the schema of the JSON content of a request body or response at `at` (following one `$ref`). */
function jsonSchemaPointer(doc: Json, at: string, node: Json, what: string): string {
  const type = jsonMediaType(deref<Json>(doc, node)?.content);
  if (!type) throw new Error(`${what} has no JSON content`);
  return `${node.$ref ? node.$ref.slice(1) : at}/content/${escapePointer(type)}/schema`;
}

/**
 * Pointer to the JSON schema of an operation's request body.
 * @throws {Error} naming the operation when its request body has no JSON media type
 */
export function requestSchemaPointer(doc: Json, path: string, method: string): string {
  const op = doc.paths[path][method];
  return jsonSchemaPointer(
    doc,
    `/paths/${escapePointer(path)}/${method}/requestBody`,
    op.requestBody ?? {},
    `${op.operationId} request body`,
  );
}

/**
 * Pointer to the JSON schema of an operation's response for a status (`'200'`, `'404'`, `'default'`).
 * @throws {Error} naming the operation and status when that response has no JSON media type
 */
export function responseSchemaPointer(doc: Json, path: string, method: string, status: string): string {
  const op = doc.paths[path][method];
  return jsonSchemaPointer(
    doc,
    `/paths/${escapePointer(path)}/${method}/responses/${status}`,
    op.responses[status],
    `${op.operationId} ${status} response`,
  );
}
