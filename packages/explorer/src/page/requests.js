// What the page sends and shows of a request: credentials restored from the session, the
// forwarder detour for real endpoints, the request as displayed (curl), the live samples' request.
// ES module.
import { exampleOf, mediaKind } from '@svc/oas';
import { queryWords } from './query.js';
import { needSearch, searchEngine } from './search-loader.js';
import {
  AUTH_KEY,
  absolute,
  config,
  FORWARD_HEADER,
  INSECURE_KEY,
  isBasic,
  page,
  readSession,
  specObject,
  toJS,
  writeSession,
} from './state.js';

/** Logs in again with the credentials of this session when a spec is loaded (reload, API switch). */
export function restoreAuth(system) {
  const saved = readSession(AUTH_KEY, {});
  if (!Object.keys(saved).length) return;
  // The schemes alone: converting the whole spec here delayed the first operation list.
  const schemes = toJS(system.specSelectors.specJson().getIn(['components', 'securitySchemes'])) ?? {};
  for (const name of Object.keys(schemes)) {
    if (isBasic(schemes[name]) && saved[name])
      system.preauthorizeBasic(name, saved[name].username, saved[name].password);
  }
}

export const selfSigned = () => readSession(INSECURE_KEY, false) === true;
export function isOtherOrigin(url) {
  try {
    return new URL(url, location.href).origin !== location.origin;
  } catch {
    return false;
  }
}

// What the serving process offers: startExplorer answers { forward: true }; the build's static
// copy says false, and a page opened from disk cannot fetch it.
export const fromDisk = location.protocol === 'file:';
export const serverInfo = fromDisk
  ? Promise.resolve({ forward: false })
  : fetch('/explorer-server.json', { cache: 'no-store' })
      .then((r) => (r.ok ? r.json() : { forward: false }))
      .catch(() => ({ forward: false }));

/** The local svc's own origin once /explorer-server.json has answered (null: no local svc). */
let localSvcOrigin = null;
/** Whether /explorer-server.json has answered (`localSvcOrigin` is final). */
let infoSettled = false;
serverInfo.then((info) => {
  localSvcOrigin = info.localSvcUrl ? new URL(info.localSvcUrl).origin : null;
  infoSettled = true;
});

/** Whether what the serving process offers is known yet (else `serverInfo` settles later). */
export const serverInfoKnown = () => infoSettled;

/** The local svc's own origin (`https://127.0.0.1:9440`), or null when none runs beside the explorer. */
export const localSvcUrl = () => localSvcOrigin;

/** Whether a URL is the local svc's (the first server when one runs beside the explorer). */
export function isLocalSvc(url) {
  try {
    return localSvcOrigin !== null && new URL(url, location.href).origin === localSvcOrigin;
  } catch {
    return false;
  }
}

/**
 * Requests to the local svc go through the explorer's /local/ (which trusts its certificate);
 * requests to another origin (a real endpoint) through its /forward/ when it offers it: no CORS
 * needed, and a self-signed certificate can be accepted. The page shows the URL asked for.
 */
export async function requestInterceptor(req) {
  req.curlOptions = [];
  if (!isOtherOrigin(req.url)) return req;
  const info = await serverInfo;
  if (isLocalSvc(req.url)) {
    const url = new URL(req.url);
    req.url = location.origin + '/local' + url.pathname + url.search;
    return req;
  }
  if (!info.forward) return req;
  const url = new URL(req.url);
  req.url = location.origin + '/forward/' + url.protocol.replace(':', '') + '/' + url.host + url.pathname + url.search;
  req.headers = { ...req.headers, [FORWARD_HEADER]: selfSigned() ? 'insecure' : 'verify' };
  return req;
}

/**
 * Whether curl (and so every sample) skips TLS verification for a URL: the local svc (its
 * certificate is its own), or an https endpoint with "Self-signed certificate" ticked.
 */
export const insecureFor = (url) =>
  /^https:/i.test(absolute(url)) && (isLocalSvc(url) || (selfSigned() && isOtherOrigin(url)));

/**
 * The request as the page shows it (Request URL and curl): the endpoint the user chose, `-u
 * '<user>'` instead of the Authorization header (curl asks for the password, so the page never
 * shows it), `-k` for an https endpoint marked self-signed.
 */
export function displayedRequest(req) {
  const headers = { ...req.headers };
  const options = insecureFor(req.url) ? ['-k'] : [];
  for (const name of Object.keys(headers)) {
    const basic = /^authorization$/i.test(name) && /^Basic\s+(\S+)$/i.exec(String(headers[name]));
    if (!basic) continue;
    let user = '';
    try {
      user = decodeURIComponent(escape(atob(basic[1]))).split(':')[0];
    } catch {
      user = '';
    }
    delete headers[name];
    options.push('-u', user); // Swagger UI's curl generator quotes each word itself.
  }
  return { ...req, headers, curlOptions: options };
}

/** Swagger UI's filter, with the index's matching: descriptions included, typos allowed. */
export function opsFilter(taggedOps, phrase) {
  const engine = searchEngine();
  if (!queryWords(phrase).length) return taggedOps;
  // (OperationsOrNoMatch shows no list until the engine is here)
  if (!engine) {
    needSearch();
    return taggedOps;
  }
  const kept = engine.matchingIds(config.index, page.api, phrase);
  return taggedOps
    .map((tagObj) => {
      const operations = tagObj.get('operations');
      if (!operations || typeof operations.filter !== 'function') return null;
      const left = operations.filter((op) => kept.has(op.getIn(['operation', 'operationId'])));
      return left.size ? tagObj.set('operations', left) : null;
    })
    .filter((tagObj) => tagObj !== null);
}

// ---- Live samples: the request of the form, with the selected server.

/** The media types of the 2xx answers of an operation (Immutable operation). */
export function successTypes(operation) {
  const types = new Set();
  for (const [code, response] of Object.entries(toJS(operation.get('responses')) || {})) {
    if (/^2/.test(code)) for (const type of Object.keys(response?.content || {})) types.add(type);
  }
  return [...types];
}

/**
 * What "Try it out" would send now, as a samples request: the parameters typed (path ones
 * always), the body in the editor or the chosen file, the selected server made absolute.
 * @returns {import('./samples.js').SampleRequest}
 */
export function liveRequest(system, path, method) {
  const { specSelectors, oas3Selectors } = system;
  const operation = specSelectors.operationWithMeta(path, method);
  const params = { path: [], query: [], header: [] };
  for (const param of operation.get('parameters') || []) {
    const where = param.get('in');
    if (!(where in params)) continue;
    let value = toJS(param.get('value'));
    if (Array.isArray(value)) value = value.join(',');
    if (value === undefined || value === '') {
      if (where !== 'path') continue;
      value = '<' + param.get('name') + '>';
    }
    params[where].push({ name: param.get('name'), value });
  }
  const server = absolute(
    oas3Selectors.serverEffectiveValue({ server: oas3Selectors.selectedServer() }) || location.origin,
  );
  let body = null;
  const content = toJS(operation.getIn(['requestBody', 'content']));
  if (content && Object.keys(content).length) {
    const contentType = oas3Selectors.requestContentType(path, method) || Object.keys(content)[0];
    const value = oas3Selectors.requestBodyValue(path, method);
    if (mediaKind(contentType) === 'json') {
      let parsed = exampleOf(specObject(system), content[contentType]);
      if (typeof value === 'string' && value.trim()) {
        try {
          parsed = JSON.parse(value);
        } catch {
          parsed = value;
        }
      }
      body = { kind: /** @type {const} */ ('json'), contentType, value: parsed ?? {} };
    } else {
      body = {
        kind: /** @type {const} */ ('file'),
        contentType,
        file: value && typeof value === 'object' && value.name ? value.name : 'image.qcow2',
      };
    }
  }
  return {
    api: page.api,
    method,
    server: [{ text: server }],
    path,
    params,
    body,
    accept: successTypes(operation),
    insecure: insecureFor(server),
  };
}

/** The user of the basic-auth credentials given with Authorize, or null. */
export function loggedInUser(system) {
  const authorized = toJS(system.authSelectors.authorized()) || {};
  for (const entry of Object.values(authorized)) {
    if (entry?.value?.username) return String(entry.value.username);
  }
  return null;
}

/**
 * Keeps the basic-auth credentials given with Authorize for this browser session (sessionStorage).
 * @param {Record<string, { schema: any, value: any }>} payload Swagger UI's `authorize` payload
 */
export function rememberAuth(payload) {
  const saved = readSession(AUTH_KEY, {});
  for (const name of Object.keys(payload || {})) {
    /** @type {{ schema?: any, value?: any }} */
    const entry = payload[name] || {};
    const value = toJS(entry.value) || {};
    if (isBasic(toJS(entry.schema)) && value.username)
      saved[name] = { username: String(value.username), password: String(value.password || '') };
  }
  writeSession(AUTH_KEY, saved);
}

/**
 * Forgets the credentials of the schemes logged out of.
 * @param {string[] | any} names scheme names (an array or an Immutable list)
 */
export function forgetAuth(names) {
  const saved = readSession(AUTH_KEY, {});
  for (const name of Array.isArray(names) ? names : toJS(names) || []) delete saved[name];
  writeSession(AUTH_KEY, saved);
}

/**
 * Whether an operation sends a file (its request body is `application/octet-stream` or another
 * binary type) and none is chosen in its form yet.
 * @param {any} system Swagger UI's system
 * @param {string} path
 * @param {string} method lower case
 * @returns {boolean}
 */
export function fileMissing(system, path, method) {
  const type = system.oas3Selectors.requestContentType(path, method) || '';
  const value = system.oas3Selectors.requestBodyValue(path, method);
  const wantsFile =
    /octet-stream|^image\/|^application\/x-/.test(type) ||
    (!type &&
      Boolean(
        system.specSelectors
          .operationWithMeta(path, method)
          .getIn(['requestBody', 'content', 'application/octet-stream']),
      ));
  return wantsFile && !(value && typeof value === 'object' && typeof value.size === 'number');
}
