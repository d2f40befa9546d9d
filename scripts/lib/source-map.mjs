// Maps a location in a bundle (a JSON path such as ['paths', '/images', 'post', 'responses'])
// back to the hand-written YAML file and line it came from, by walking the source documents
// from the API root and following their external $refs. Redocly keeps component keys equal to
// those listed in the root, so every bundle path has one walk through the sources.
import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';

const cache = new Map();

// Keyed by file, checked against its mtime: `npm run dev` maps findings after every save.
function load(file) {
  const mtime = statSync(file).mtimeMs;
  let entry = cache.get(file);
  if (!entry || entry.mtime !== mtime) {
    const lineCounter = new LineCounter();
    const doc = parseDocument(readFileSync(file, 'utf8'), { lineCounter, keepSourceTokens: false });
    entry = { doc, lineCounter, mtime };
    cache.set(file, entry);
  }
  return entry;
}

const unescapePointer = (s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~');

function child(node, key) {
  if (isMap(node)) {
    const pair = node.items.find((p) => (isScalar(p.key) ? String(p.key.value) : String(p.key)) === String(key));
    return pair ? { key: pair.key, value: pair.value } : undefined;
  }
  if (isSeq(node)) {
    const item = node.items[Number(key)];
    return item ? { key: item, value: item } : undefined;
  }
  return undefined;
}

/** Follows `$ref` maps until a node that is not a reference; returns the node and its file. */
function follow(file, node) {
  for (let hops = 0; hops < 50 && isMap(node); hops++) {
    const ref = child(node, '$ref');
    if (!ref || !isScalar(ref.value) || typeof ref.value.value !== 'string') break;
    const [target, fragment = ''] = ref.value.value.split('#');
    if (target) file = resolve(dirname(file), target);
    node = load(file).doc.contents;
    for (const seg of fragment.split('/').filter(Boolean)) node = child(node, unescapePointer(seg))?.value;
  }
  return { file, node };
}

/**
 * @param {string} rootFile absolute path of the API's source root (spec/<api>/openapi.yaml)
 * @param {(string|number)[]} path JSON path in the bundle
 * @returns {{ file: string, line: number, col: number, exact: boolean }} 1-based line and column;
 *   `exact` is false when the walk stopped early and the location is the nearest parent.
 */
export function sourceLocation(rootFile, path) {
  let file = rootFile;
  let node = load(file).doc.contents;
  let at = node;
  let exact = true;
  for (const seg of path) {
    ({ file, node } = follow(file, node));
    const next = child(node, seg);
    if (!next) {
      exact = false;
      break;
    }
    at = next.key ?? next.value;
    node = next.value;
  }
  const range = at?.range ?? node?.range ?? [0];
  const { line, col } = load(file).lineCounter.linePos(range[0]);
  return { file, line, col, exact };
}
