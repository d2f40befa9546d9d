// The values a form starts with, for the server selected: against the local svc, every field
// that names another entity takes the newest live one (live-state.js) and every image source the
// local svc's sample; against the mock, the spec's examples; against a real endpoint, the
// examples, said to be examples. Applied where Swagger UI sets a form's example (its
// `changeParamByIdentity` and `setRequestBodyValue`), and again when the live state changes.
// ES module.

import { latestOf } from './knowledge.js';
import { knowns, pickLive, readLists } from './live-state.js';
import { exampleTexts, localBody } from './local-examples.js';
import { bodyReferences, needsUnfinishedTask, parameterKind } from './references.js';
import { isLocalSvc, isOtherOrigin, localSvcUrl, serverInfo, serverInfoKnown } from './requests.js';
import { page, specObject, toJS } from './state.js';

/**
 * What the server selected is: the local svc beside the explorer, a Prism mock of the explorer,
 * a real endpoint, or not known yet (before /explorer-server.json has answered).
 * @param {any} system Swagger UI's system
 * @returns {'local' | 'mock' | 'endpoint' | 'unknown'}
 */
export function serverKind(system) {
  if (!serverInfoKnown()) return 'unknown';
  const { oas3Selectors, specSelectors } = system;
  // before Swagger UI's Servers has picked one, its first (the default) is the one
  const server = oas3Selectors.selectedServer() || specSelectors.servers()?.first()?.get('url') || '';
  const url = oas3Selectors.serverEffectiveValue({ server }) || server;
  if (isLocalSvc(url)) return 'local';
  return isOtherOrigin(url) ? 'endpoint' : 'mock';
}

/** The value of a parameter Swagger UI starts the form with: its first example, else `example`. */
function exampleOfParameter(param) {
  const examples = param.get('examples');
  const first = examples?.first?.()?.get?.('value');
  return toJS(
    first ?? param.get('example') ?? param.getIn(['schema', 'example']) ?? param.getIn(['schema', 'default']),
  );
}

/** Whether two form values are the same (Immutable lists, arrays, numbers as text). */
function same(a, b) {
  const x = toJS(a);
  const y = toJS(b);
  if (x === undefined || y === undefined || x === null || y === null) return x === y;
  return JSON.stringify(x) === JSON.stringify(y) || String(x) === String(y);
}

/** The defaults given, by form field: what the note under a field names, and how to tell a typed value. */
/** @type {Map<string, { value: any, known: import('./knowledge.js').Known }>} */
const givenParameters = new Map();
/** @type {Map<string, { text: string, base: any, filled: import('./local-examples.js').Filled[] }>} */
const givenBodies = new Map();
const parameterKey = ([path, method], param) => `${path} ${method} ${param.get('in')}.${param.get('name')}`;
const bodyKey = ([path, method]) => `${path} ${method}`;

/**
 * The value a parameter takes when Swagger UI (or a refresh) sets `value`: against the local svc,
 * an example or an earlier default of a parameter that names an entity becomes the newest live
 * one of its kind; any other value (typed, from a workflow or a link) stays.
 * @param {any} system Swagger UI's system
 * @param {[string, string]} pathMethod
 * @param {any} param the parameter (Immutable)
 * @param {any} value
 * @returns {any}
 */
export function parameterValue(system, pathMethod, param, value) {
  const key = parameterKey(pathMethod, param);
  const given = givenParameters.get(key);
  const example = exampleOfParameter(param);
  const untouched = same(value, example) || (given !== undefined && same(value, given.value));
  if (!untouched) return value;
  const kind = parameterKind(pathMethod[0], { name: param.get('name'), in: param.get('in') });
  const unfinished = kind === 'tasks' && needsUnfinishedTask(pathMethod[0]);
  const [known] = kind && serverKind(system) === 'local' ? pickLive(kind, { unfinished }) : [];
  if (!known) {
    givenParameters.delete(key);
    return given !== undefined && same(value, given.value) ? example : value;
  }
  const next = param.getIn(['schema', 'type']) === 'array' ? [known.uuid] : known.uuid;
  givenParameters.set(key, { value: next, known });
  return next;
}

/**
 * Where a parameter's value comes from, when the page gave it: the live entity (local svc), or
 * that it is the spec's example (a real endpoint). Null for a value the user typed.
 * @param {any} system
 * @param {[string, string]} pathMethod
 * @param {any} param (Immutable)
 * @param {any} value its value now
 * @returns {{ known: import('./knowledge.js').Known } | { example: true } | null}
 */
export function parameterSource(system, pathMethod, param, value) {
  const kind = parameterKind(pathMethod[0], { name: param.get('name'), in: param.get('in') });
  if (!kind) return null;
  const where = serverKind(system);
  const given = givenParameters.get(parameterKey(pathMethod, param));
  if (where === 'local' && given && same(value, given.value)) return { known: given.known };
  if (where === 'endpoint' && same(value, exampleOfParameter(param))) return { example: true };
  return null;
}

/**
 * The body a form takes when Swagger UI (or a refresh) sets `value`: an example, or a default the
 * page gave before, becomes the default for the server selected (localBody against the local svc,
 * the example elsewhere); anything else (typed, a workflow's) stays.
 * @param {any} system
 * @param {[string, string]} pathMethod
 * @param {unknown} value the body's text
 * @returns {unknown}
 */
export function bodyValue(system, pathMethod, value) {
  if (typeof value !== 'string') return value;
  const key = bodyKey(pathMethod);
  const given = givenBodies.get(key);
  let base;
  if (given && given.text === value) base = given.base;
  else {
    try {
      base = JSON.parse(value);
    } catch {
      return value;
    }
    if (!exampleTexts(specObject(system), ...pathMethod).has(JSON.stringify(base))) return value;
  }
  const local = localSvcUrl();
  if (serverKind(system) !== 'local' || !local) {
    givenBodies.delete(key);
    return given && given.text === value ? JSON.stringify(base, null, 2) : value;
  }
  const { body, filled } = localBody(base, {
    path: pathMethod[0],
    localSvc: local,
    pick: (kind, count) => pickLive(kind, { count }),
    specVersionOf: (uuid) => latestOf(knowns(), uuid).specVersion,
  });
  const text = filled.length ? JSON.stringify(body, null, 2) : value;
  givenBodies.set(key, { text, base, filled });
  return text;
}

/**
 * What the note under a body says: the values the page filled (local svc), or the example's
 * references that name nothing on a real endpoint. Null when the user has typed the body.
 * @param {any} system
 * @param {[string, string]} pathMethod
 * @param {unknown} value the body's text now
 * @returns {{ filled: import('./local-examples.js').Filled[] } | { examples: string[] } | null}
 */
export function bodySource(system, pathMethod, value) {
  const where = serverKind(system);
  const given = givenBodies.get(bodyKey(pathMethod));
  if (where === 'local') return given && given.text === value && given.filled.length ? { filled: given.filled } : null;
  if (where !== 'endpoint' || typeof value !== 'string') return null;
  let body;
  try {
    body = JSON.parse(value);
  } catch {
    return null;
  }
  if (!exampleTexts(specObject(system), ...pathMethod).has(JSON.stringify(body))) return null;
  const refs = bodyReferences(body).map((r) => r.pointer.slice(1).replace(/\//g, '.'));
  return refs.length ? { examples: refs } : null;
}

/**
 * Sets every open form's defaults again (the live state or the server changed): each parameter
 * and body the page or Swagger UI filled and the user left as it was. Dispatches only changes.
 * @param {any} system Swagger UI's system
 */
export function refreshDefaults(system) {
  const { specSelectors, specActions, oas3Selectors, oas3Actions } = system;
  const meta = system.getState().getIn(['spec', 'meta', 'paths']);
  meta?.forEach((methods, path) => {
    methods?.forEach((_m, method) => {
      const params = specSelectors.specJsonWithResolvedSubtrees().getIn(['paths', path, method, 'parameters']);
      params?.forEach((param) => {
        const now = specSelectors.parameterWithMetaByIdentity([path, method], param)?.get('value');
        if (now === undefined) return;
        const next = parameterValue(system, [path, method], param, now);
        if (!same(next, now)) specActions.changeParamByIdentity([path, method], param, next);
      });
    });
  });
  const data = system.getState().getIn(['oas3', 'requestData']);
  data?.forEach((methods, path) => {
    methods?.forEach((_request, method) => {
      const now = oas3Selectors.requestBodyValue(path, method);
      if (typeof now !== 'string') return;
      const next = bodyValue(system, [path, method], now);
      if (next !== now) oas3Actions.setRequestBodyValue({ value: next, pathMethod: [path, method] });
    });
  });
}

/**
 * Whether an operation's form names other entities (so its defaults wait for the live lists).
 * @param {any} system
 * @param {string} path
 * @param {string} method
 * @returns {boolean}
 */
export function namesEntities(system, path, method) {
  const op = system.specSelectors.specJsonWithResolvedSubtrees().getIn(['paths', path, method]);
  const params = toJS(op?.get('parameters')) ?? [];
  if (params.some((p) => parameterKind(path, p))) return true;
  const value = system.oas3Selectors.requestBodyValue(path, method);
  try {
    return typeof value === 'string' && bodyReferences(JSON.parse(value)).length > 0;
  } catch {
    return false;
  }
}

/**
 * Reads the local svc's lists for the API shown when the server selected is the local svc
 * (`force`: again, after Authorize or once the state was replaced), then sets the forms' defaults
 * from them.
 * @param {any} system Swagger UI's system
 * @param {{ force?: boolean }} [options]
 */
export function readLiveState(system, { force = false } = {}) {
  serverInfo.then(() => {
    refreshDefaults(system);
    if (serverKind(system) !== 'local') return;
    readLists(page.api, { force }).then(() => refreshDefaults(system));
  });
}
