// What a link names that the page does not have: an unknown API (`?api=nope`) or operation
// (`#/Images/nope`), said at the top of the page instead of silently showing something else.
// ES module.
import { operationLink } from './query.js';
import { config, indexByApi, page } from './state.js';

/**
 * The operation a fragment names (`#/Images/images_list`), or null when it names none.
 * @param {string} hash `location.hash`
 * @returns {{ tag: string, operationId: string } | null}
 */
export function linkedOperation(hash) {
  let text;
  try {
    text = decodeURIComponent(hash);
  } catch {
    return null;
  }
  const m = /^#!?\/?([^/]+)\/([^/]+)$/.exec(text);
  return m ? { tag: m[1], operationId: m[2] } : null;
}

/**
 * What is wrong with the operation a link names, for the API shown: nothing (null), or the words
 * and, when another API has it, where it is.
 * @param {string} hash
 * @param {string} api the API shown
 * @returns {{ text: string, elsewhere?: { href: string, name: string } } | null}
 */
export function missingOperation(hash, api) {
  const linked = linkedOperation(hash);
  if (!linked) return null;
  const here = indexByApi[api];
  const op = here?.operations[linked.operationId];
  if (op && op.tag === linked.tag) return null;
  const named = '"' + linked.tag + '/' + linked.operationId + '"';
  if (op)
    return {
      text: 'The link names ' + named + ': that operation is under "' + op.tag + '" in ' + here.name + '.',
      elsewhere: { href: operationLink(api, op.tag, linked.operationId), name: op.tag + '/' + linked.operationId },
    };
  const other = config.index.find((e) => e.operations[linked.operationId]);
  const text = 'No operation ' + named + ' in ' + (here?.name ?? api) + ' (the link after #).';
  if (!other) return { text: text + ' Search for it in the sidebar.' };
  const tag = other.operations[linked.operationId].tag;
  return { text, elsewhere: { href: operationLink(other.api, tag, linked.operationId), name: other.name } };
}

/**
 * Shows (or, with `null`, removes) the page's notice of one kind above the operations.
 * @param {string} kind `api` or `operation`
 * @param {{ text: string, elsewhere?: { href: string, name: string } } | null} notice
 */
export function showNotice(kind, notice) {
  const root = document.getElementById('swagger-ui');
  const old = root?.querySelector('.svc-notice[data-kind="' + kind + '"]');
  old?.remove();
  if (!notice || !root) return;
  const p = document.createElement('p');
  p.className = 'svc-notice';
  p.dataset.kind = kind;
  p.setAttribute('role', 'alert');
  p.textContent = notice.text;
  if (notice.elsewhere) {
    const a = document.createElement('a');
    a.href = notice.elsewhere.href;
    a.textContent = notice.elsewhere.name;
    p.append(' Open it in ', a, '.');
  }
  root.prepend(p);
}

/** Says whether the operation of the address exists in the API shown (after a load or a hash change). */
export function checkOperationLink() {
  showNotice('operation', missingOperation(location.hash, page.api));
}
