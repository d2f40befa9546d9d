// The routing and request validation of every API, from the bundles (dist/<api>.json) through
// openapi-backend: there is no route table of our own.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverBasePath } from '@svc/oas';
import { apis as repositoryApis, shownPath } from '@svc/oas/apis';
import addFormats from 'ajv-formats';
import { OpenAPIBackend } from 'openapi-backend';

/**
 * @typedef {object} LoadedApi
 * @property {string} name       `central`, `element` or `objects`
 * @property {any} doc           the bundle
 * @property {OpenAPIBackend} backend  router and validator over `doc`, built at its first use
 * @property {string[]} basePaths  the production base paths it is served at, e.g. `/api/svc/v3`
 */

/**
 * The base paths of a bundle's servers, with each server variable at its default (and every
 * value of its `enum`): `https://{host}:{port}{legacy_prefix}/services/rest` -> `/PrismGateway/services/rest`.
 * @param {{ servers?: { url: string, variables?: Record<string, { default: string, enum?: string[] }> }[] }} doc
 * @returns {string[]}
 */
export function basePathsOf(doc) {
  const paths = new Set();
  for (const server of doc.servers ?? []) {
    let variants = [server.url];
    for (const [name, variable] of Object.entries(server.variables ?? {})) {
      if (name === 'host' || name === 'port') continue;
      const values = [...new Set([variable.default, ...(variable.enum ?? [])])];
      variants = variants.flatMap((v) => values.map((value) => v.replaceAll(`{${name}}`, value)));
    }
    for (const url of variants) paths.add(serverBasePath(url));
  }
  return [...paths];
}

/**
 * Where the published package carries the bundles (`bundles/<api>.json`, copied at `npm pack`); absent
 * in a checkout, where the bundles are the repository's `dist/`.
 */
export const PACKED_BUNDLES = fileURLToPath(new URL('../bundles/', import.meta.url));

/** True in the installed package (it carries its bundles), false in a checkout of the repository. */
export const packed = existsSync(PACKED_BUNDLES);

/**
 * The APIs to serve: the bundles the package carries, else the repository's (redocly.yaml, `dist/`).
 * @returns {{ name: string, bundleJson: string }[]}
 */
export function defaultApis() {
  if (!packed) return repositoryApis();
  return readdirSync(PACKED_BUNDLES)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ name: f.slice(0, -'.json'.length), bundleJson: join(PACKED_BUNDLES, f) }));
}

/**
 * openapi-backend in quick mode, without the one step quick mode does not use: `init` starts an
 * asynchronous parse of the document (json-schema-ref-parser) that nothing reads, as the router
 * and validators are built from `dereferenceSync` of the same object; some 90 ms of start-up.
 */
class QuickBackend extends OpenAPIBackend {
  /** @returns {Promise<any>} the document as given */
  async loadDocument() {
    this.document = /** @type {any} */ (this.inputDocument);
    return this.document;
  }
}

/**
 * The router and validators of one bundle (quick mode: each request validator is compiled at its
 * operation's first request).
 * @param {any} doc  the bundle
 * @param {string} bundleJson  its path, for the error
 * @returns {OpenAPIBackend}
 * @throws {Error} when openapi-backend cannot load the bundle
 */
function backendOf(doc, bundleJson) {
  const backend = new QuickBackend({
    definition: doc,
    // quick: openapi-backend checks definitions against OpenAPI 3.0 only; ours are 3.1 and linted elsewhere
    quick: true,
    strict: false,
    coerceTypes: true,
    // validateSchema off: no meta-schema compiled per operation (the bundles are linted), which
    // made each operation's first request compile for 60-200 ms
    ajvOpts: { strict: false, allErrors: true, validateSchema: false },
    customizeAjv: (ajv) => {
      addFormats.default(ajv);
      return ajv;
    },
  });
  // synchronous in quick mode with a document object: ready when it returns (a failure is
  // reported through `initialized`, as strict is off)
  backend.init().catch(() => {});
  if (!backend.initialized) throw new Error(`${bundleJson}: openapi-backend could not load this bundle`);
  return backend;
}

/** @type {Map<string, { stamp: string, api: LoadedApi }>} bundle path -> what was loaded from it */
const loadedBundles = new Map();

/**
 * Loads every API from its bundle. Its router and validators (`backend`) are built at the first
 * request to that API and kept with it; a bundle unchanged since it was last loaded in this
 * process is not read again (a test suite, or a process that restarts its simulator, compiles
 * each validator once).
 * @param {{ name: string, bundleJson: string }[]} [list]  the APIs; `defaultApis()` by default
 * @returns {Promise<LoadedApi[]>}
 * @throws {Error} when a bundle is missing (run `npm run bundle`) or is not JSON
 */
export async function loadApis(list = defaultApis()) {
  const loaded = [];
  for (const { name, bundleJson } of list) {
    if (!existsSync(bundleJson))
      throw new Error(`${shownPath(bundleJson)} is missing: run \`npm run bundle\` (or \`npm run build\`) first`);
    const { mtimeMs, size } = statSync(bundleJson);
    const stamp = `${name} ${mtimeMs} ${size}`;
    const known = loadedBundles.get(bundleJson);
    if (known?.stamp === stamp) {
      loaded.push(known.api);
      continue;
    }
    const doc = JSON.parse(readFileSync(bundleJson, 'utf8'));
    /** @type {OpenAPIBackend | undefined} */
    let backend;
    const api = {
      name,
      doc,
      get backend() {
        backend ??= backendOf(doc, bundleJson);
        return backend;
      },
      basePaths: basePathsOf(doc),
    };
    loadedBundles.set(bundleJson, { stamp, api });
    loaded.push(api);
  }
  return loaded;
}
