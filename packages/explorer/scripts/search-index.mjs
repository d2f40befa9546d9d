// What the page's sidebar, search and "Start here" view know of every API without loading its
// spec: tags, operations with their searchable text, and the workflows (`x-svc-workflow`).
// The build writes it into the page's configuration; src/page/search.js searches it.
import { operations } from '@svc/oas';

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
 * @returns {{ api: string, name: string, tags: { name: string, operations: string[] }[],
 *   operations: Record<string, { tag: string, method: string, path: string, summary: string, text: string }>,
 *   workflows: any[] }}
 *   `operations` keyed by operationId; `text` is what the search matches (tag,
 *   method, path, operationId, summary, description); `workflows` is `x-svc-workflow` (those with a `workflowId`; a step without `stepId` gets `step<n>`)
 */
export function searchIndexOf(api, name, document) {
  const tags = new Map((document.tags ?? []).map((t) => [t.name, []]));
  /** @type {Record<string, { tag: string, method: string, path: string, summary: string, text: string }>} */
  const ops = {};
  for (const { path, method, operation } of operations(document)) {
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
    };
  }
  return {
    api,
    name,
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
