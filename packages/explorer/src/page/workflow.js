// The "Start here" workflows (`x-svc-workflow`, see docs/extensions.md): the values a step takes
// from the answers of the steps before it, and whether a repeated step is done. ES module.

/**
 * The value at a JSON pointer (`/status/execution_context/task_uuid`, `/entities/0/uuid`).
 * @param {any} value
 * @param {string} pointer `''` for the whole value
 * @returns {any} `undefined` when the pointer leads nowhere
 */
export function pointerGet(value, pointer) {
  if (pointer === '' || pointer === '/') return pointer === '' ? value : value?.[''];
  if (!String(pointer).startsWith('/')) return undefined;
  let node = value;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(key in node)) return undefined;
    node = node[key];
  }
  return node;
}

/**
 * Sets the value at a JSON pointer, making the objects on the way (arrays for numeric keys).
 * @param {any} target an object (changed)
 * @param {string} pointer
 * @param {any} value
 */
export function pointerSet(target, pointer, value) {
  const keys = String(pointer)
    .slice(1)
    .split('/')
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node = target;
  keys.forEach((key, i) => {
    if (i === keys.length - 1) node[key] = value;
    else {
      if (node[key] === null || typeof node[key] !== 'object') node[key] = /^\d+$/.test(keys[i + 1]) ? [] : {};
      node = node[key];
    }
  });
}

const EXPRESSION = /^\$steps\.([A-Za-z0-9_-]+)\.response\.(?:body(#.*)?|header\.([A-Za-z0-9-]+))$/;

/**
 * The value of a step input: a literal as is, or a runtime expression
 * `$steps.<stepId>.response.body#<pointer>` / `$steps.<stepId>.response.header.<name>` read from
 * the answers recorded so far.
 * @param {any} value
 * @param {Record<string, { status?: number, headers: Record<string, string>, body: any }>} answers by stepId
 * @returns {{ found: true, value: any } | { found: false, step: string }} `step` names the step whose answer is missing
 */
export function resolveValue(value, answers) {
  if (typeof value !== 'string' || !value.startsWith('$steps.')) return { found: true, value };
  const match = EXPRESSION.exec(value);
  if (!match) return { found: false, step: value };
  const answer = answers[match[1]];
  if (!answer) return { found: false, step: match[1] };
  const result =
    match[3] !== undefined
      ? answer.headers?.[match[3].toLowerCase()]
      : pointerGet(answer.body, match[2] ? decodeURIComponent(match[2].slice(1)) : '');
  return result === undefined ? { found: false, step: match[1] } : { found: true, value: result };
}

/**
 * What a step fills in from the answers before it: its `parameters` and `requestBody` entries.
 * @param {{ parameters?: { name: string, in: string, value: any }[], requestBody?: { pointer: string, value: any }[] }} step
 * @param {Record<string, any>} answers by stepId
 * @returns {{ parameters: { name: string, in: string, value: any }[], body: { pointer: string, value: any }[], missing: string[] }}
 *   `missing`: the steps whose answers a value needs and which have not answered yet
 */
export function stepInputs(step, answers) {
  const missing = new Set();
  const take = (entry) => {
    const r = resolveValue(entry.value, answers);
    if ('step' in r) missing.add(r.step);
    return r.found ? [{ ...entry, value: r.value }] : [];
  };
  return {
    parameters: (step.parameters ?? []).flatMap(take),
    body: (Array.isArray(step.requestBody) ? step.requestBody : []).flatMap(take),
    missing: [...missing],
  };
}

/**
 * Where a step stands after an answer: `done` (2xx, and its `until` condition holds), `repeat`
 * (2xx but `until` not yet: Execute again), `failed` (an error, or a `failOn` value).
 * @param {{ until?: { pointer: string, equals: any[], failOn?: any[] } }} step
 * @param {{ status: number, body: any } | undefined} answer
 * @returns {{ state: 'waiting' | 'done' | 'repeat' | 'failed', value?: any }}
 */
export function stepState(step, answer) {
  if (!answer) return { state: 'waiting' };
  if (!(answer.status >= 200 && answer.status < 300)) return { state: 'failed' };
  if (!step.until) return { state: 'done' };
  const value = pointerGet(answer.body, step.until.pointer);
  if ((step.until.equals ?? []).includes(value)) return { state: 'done', value };
  if ((step.until.failOn ?? []).includes(value)) return { state: 'failed', value };
  return { state: 'repeat', value };
}

/**
 * The parameter values of an OpenAPI Link Object for an answer: `$response.body#<pointer>` and
 * `$response.header.<name>` read from it, other values as they are.
 * @param {{ operationId?: string, parameters?: Record<string, any> }} link
 * @param {{ headers: Record<string, string>, body: any }} answer
 * @returns {{ name: string, in?: string, value: any }[] | null} `in` for a name qualified with its
 *   location (`header.X-Svc-Destination-Container`); `null` when a value is not in the answer
 */
export function linkValues(link, answer) {
  const out = [];
  for (const [name, expression] of Object.entries(link.parameters ?? {})) {
    const r = resolveValue(
      typeof expression === 'string' ? expression.replace(/^\$response\./, '$steps.this.response.') : expression,
      { this: answer },
    );
    if (!r.found) return null;
    const qualified = /^(path|query|header|cookie)\.(.+)$/.exec(name);
    out.push(qualified ? { name: qualified[2], in: qualified[1], value: r.value } : { name, value: r.value });
  }
  return out;
}
