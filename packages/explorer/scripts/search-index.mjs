// What the page's sidebar, search and "Start here" view know of every API without loading its
// spec: tags, operations with their searchable text, and the workflows (`x-svc-workflow`).
// The build writes it into the page's configuration; src/page/search.js searches it.
import { basePathOf, deref, operations, parametersOf, requestBodyOf } from '@svc/oas';
import { bodyReferences, parameterKind } from '../src/page/references.js';
import { kindOf } from '../src/page/uuid-sources.js';

/** Markdown and white space out of a description, lower case: what the search matches. */
function plain(text) {
  return String(text ?? '')
    .replace(/[`*_>#|]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/**
 * Removes what a description says to the spec's authors, not its readers: HTML comments
 * (`<!-- ... -->`), which is how the spec marks such notes, from every `description` and
 * `summary` of a document, in place; paragraphs left empty go too.
 * @param {any} document a bundled OpenAPI document (changed)
 * @returns {any} the same document
 */
export function stripAuthorNotes(document) {
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if ((key === 'description' || key === 'summary') && typeof value === 'string' && value.includes('<!--')) {
        node[key] =
          value
            .replace(/<!--[\s\S]*?-->/g, '')
            .replace(/\n{3,}/g, '\n\n')
            .trim() + (value.endsWith('\n') ? '\n' : '');
      } else visit(value);
    }
  };
  visit(document);
  return document;
}

/**
 * The index entry of one API.
 * @param {string} api the API name (`central`)
 * @param {string} name its display name
 * @param {any} document the bundled OpenAPI document
 * @returns {{ api: string, name: string, basePath: string, tags: { name: string, operations: string[] }[],
 *   operations: Record<string, { tag: string, method: string, path: string, summary: string, text: string, list?: { body?: any } }>,
 *   kinds: string[], workflows: any[] }}
 *   `basePath` the first server's (`/api/svc/v3`); `operations` keyed by operationId; `text` is
 *   what the search matches (tag, method, path, operationId, summary, description); `list` marks an
 *   operation that lists a collection (`images_list`: no path parameter), with the body it takes
 *   (the required members of its example); `kinds` the collections the API's requests name
 *   (references.js), which the page reads from the local svc; `workflows` is `x-svc-workflow`
 *   (those with a `workflowId`; a step without `stepId` gets `step<n>`)
 */
export function searchIndexOf(api, name, document) {
  const tags = new Map((document.tags ?? []).map((t) => [t.name, []]));
  /** @type {Record<string, { tag: string, method: string, path: string, summary: string, text: string, list?: { body?: any } }>} */
  const ops = {};
  const kinds = new Set();
  for (const { path, method, operation, pathItem } of operations(document)) {
    if (!operation.operationId) continue;
    const tag = operation.tags?.[0] ?? 'default';
    if (!tags.has(tag)) tags.set(tag, []);
    tags.get(tag).push(operation.operationId);
    ops[operation.operationId] = {
      tag,
      method,
      path,
      summary: operation.summary ?? '',
      text: plain([tag, method, path, operation.operationId, operation.summary, operation.description].join(' ')),
      ...(isList(operation.operationId, path) ? { list: listRequest(document, operation) } : {}),
    };
    for (const parameter of parametersOf(document, pathItem, operation)) {
      const kind = parameterKind(path, { name: parameter.name, in: parameter.in });
      if (kind) kinds.add(kind);
    }
    const body = requestBodyOf(document, operation);
    if (body?.kind === 'json') for (const ref of bodyReferences(body.example)) kinds.add(ref.kind);
  }
  return {
    api,
    name,
    basePath: basePathOf(document),
    kinds: [...kinds],
    tags: [...tags].filter(([, list]) => list.length).map(([tag, list]) => ({ name: tag, operations: list })),
    operations: ops,
    workflows: (Array.isArray(document['x-svc-workflow']) ? document['x-svc-workflow'] : [])
      .filter((w) => w && typeof w.workflowId === 'string' && Array.isArray(w.steps))
      .map((w) => ({
        ...w,
        summary: w.summary ?? w.workflowId,
        steps: w.steps.map((step, i) => ({ stepId: `step${i + 1}`, ...step })),
      })),
  };
}

/** Whether an operation lists a collection: `<resource>_list[_<qualifier>]` on a path without parameters. */
function isList(operationId, path) {
  return /_list(_v\d+_\d+)?$/.test(String(operationId)) && !path.includes('{') && kindOf(path) !== null;
}

/** How many entities a background list asks for (`length`), where the body takes a page size. */
export const LIST_LENGTH = 100;

/**
 * What a list operation is called with to list everything: its example body reduced to the
 * members its schema requires, without the example's filters, and a page of LIST_LENGTH where
 * the schema has `length` (`{ length: 100 }`).
 * @returns {{ body?: any }}
 */
function listRequest(document, operation) {
  const body = requestBodyOf(document, operation);
  if (body?.kind !== 'json') return {};
  const media = deref(document, deref(document, operation.requestBody)?.content?.[body.mediaType]);
  const schema = deref(document, media?.schema);
  const required = Array.isArray(schema?.required) ? schema.required : [];
  const example = body.example && typeof body.example === 'object' ? body.example : {};
  const kept = Object.fromEntries(required.filter((k) => k in example).map((k) => [k, example[k]]));
  return { body: schema?.properties?.length ? { ...kept, length: LIST_LENGTH } : kept };
}
