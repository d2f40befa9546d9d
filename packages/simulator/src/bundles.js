// The routing and request validation of every API, from the bundles (dist/<api>.json) through
// openapi-backend: there is no route table of our own.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverBasePath } from '@svc/oas';
import { apis as repositoryApis } from '@svc/oas/apis';
import addFormats from 'ajv-formats';
import { OpenAPIBackend } from 'openapi-backend';

/**
 * @typedef {object} LoadedApi
 * @property {string} name       `central`, `element` or `objects`
 * @property {any} doc           the bundle
 * @property {OpenAPIBackend} backend  router and validator over `doc`
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
 * Loads every API from its bundle and readies its router and validators.
 * @param {{ name: string, bundleJson: string }[]} [list]  the APIs; `defaultApis()` by default
 * @returns {Promise<LoadedApi[]>}
 * @throws {Error} when a bundle is missing (run `npm run bundle`)
 */
export async function loadApis(list = defaultApis()) {
  const loaded = [];
  for (const { name, bundleJson } of list) {
    if (!existsSync(bundleJson))
      throw new Error(`${bundleJson} is missing: run \`npm run bundle\` (or \`npm run build\`) first`);
    const doc = JSON.parse(readFileSync(bundleJson, 'utf8'));
    const backend = new OpenAPIBackend({
      definition: doc,
      // quick: openapi-backend checks definitions against OpenAPI 3.0 only; ours are 3.1 and linted elsewhere
      quick: true,
      strict: false,
      coerceTypes: true,
      ajvOpts: { strict: false, allErrors: true },
      customizeAjv: (ajv) => {
        addFormats.default(ajv);
        return ajv;
      },
    });
    await backend.init();
    loaded.push({ name, doc, backend, basePaths: basePathsOf(doc) });
  }
  return loaded;
}
