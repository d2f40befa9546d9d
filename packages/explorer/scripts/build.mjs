// Builds the API explorer: a static Swagger UI page over the bundled API descriptions.
//
//   node scripts/build.mjs            (npm run build -w @svc/explorer)
//
// Writes packages/explorer/dist/: the Swagger UI assets copied from the swagger-ui-dist
// package, specs/<api>.json for every bundle of the repository (author notes removed), index.html,
// explorer.js (src/page/main.js with its configuration), explorer-search.js (the search engine,
// src/page/search-chunk.js, loaded by the page when needed) and explorer-server.json.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terserPlugin from '@rollup/plugin-terser';
import { deref } from '@svc/oas';
import { apis, shownPath } from '@svc/oas/apis';
import { rollup } from 'rollup';
import { SERVER_INFO_PATH } from '../src/index.js';
import { searchIndexOf, stripAuthorNotes } from './search-index.mjs';

const require = createRequire(import.meta.url);

/**
 * The terser plugin of rollup. Its types describe a CommonJS default export, which TypeScript
 * reads as the module itself; Node's import gives the function.
 * @type {(options?: import('@rollup/plugin-terser').Options) => import('rollup').Plugin}
 */
const terser = /** @type {any} */ (terserPlugin);

/** Absolute path of the explorer package. */
export const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Default output folder, `packages/explorer/dist`. */
export const defaultOutDir = join(packageDir, 'dist');

/** Swagger UI files copied from swagger-ui-dist (source maps are left out). */
export const SWAGGER_UI_ASSETS = [
  'swagger-ui-bundle.js',
  'swagger-ui-bundle.js.LICENSE.txt',
  'swagger-ui.css',
  'LICENSE',
  'NOTICE',
];

/**
 * The Swagger UI files the page loads, renamed with their content's hash
 * (`swagger-ui-bundle.<10 hex>.js`): the explorer server lets browsers keep such names for a year.
 */
export const FINGERPRINTED_ASSETS = ['swagger-ui-bundle.js', 'swagger-ui.css'];

/** Renames `dir/file` to its fingerprinted name and returns that name. */
function fingerprint(dir, file) {
  const hash = createHash('sha256')
    .update(readFileSync(join(dir, file)))
    .digest('hex')
    .slice(0, 10);
  const name = file.replace(/(\.[a-z]+)$/, `.${hash}$1`);
  renameSync(join(dir, file), join(dir, name));
  return name;
}

/**
 * The bundled APIs of the repository, from `@svc/oas/apis` (which reads redocly.yaml).
 * @returns {Promise<{ name: string, bundleJson: string }[]>}
 */
export async function repositoryApis() {
  return apis().map(({ name, bundleJson }) => ({ name, bundleJson }));
}

/**
 * Display name of an API in the top-bar selector: the document's `info.title` without the
 * vendor prefix (`svc central API (v3)` -> `central API (v3)`), else the API name.
 * @param {string} name  the API name (`central`)
 * @param {any} document the bundled OpenAPI document
 * @returns {string}
 */
export function displayName(name, document) {
  const title = document?.info?.title;
  return typeof title === 'string' && title.trim() ? title.trim().replace(/^svc\s+/, '') : name;
}

const escapeHtml = (text) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

/**
 * The page. Everything is local: no CDN, no external requests.
 * @param {string} title
 * @param {Record<string, string>} assets the fingerprinted name of each of FINGERPRINTED_ASSETS
 * @param {string[]} apiNames the APIs, the first one the default
 * @returns {string}
 */
function indexHtml(title, assets, apiNames) {
  // The spec of the API in the link starts downloading with Swagger UI's own files, not after
  // them (the names are checked: only a known API's spec is asked for; not from disk).
  const preload = `(function () {
      if (location.protocol === 'file:') return;
      var names = ${JSON.stringify(apiNames).replace(/</g, '\\u003c')};
      var api = new URLSearchParams(location.search).get('api');
      var link = document.createElement('link');
      link.rel = 'preload'; link.as = 'fetch'; link.crossOrigin = 'anonymous';
      link.href = './specs/' + (names.indexOf(api) === -1 ? names[0] : api) + '.json';
      document.head.appendChild(link);
    })();`;
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <title>${escapeHtml(title)}</title>
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <link rel="stylesheet" type="text/css" href="./${assets['swagger-ui.css']}">
    <link rel="stylesheet" type="text/css" href="./explorer.css">
    <link rel="icon" type="image/svg+xml" href="./favicon.svg">
    <script>${preload}</script>
  </head>
  <body>
    <div id="swagger-ui"></div>
    <noscript>The API explorer needs JavaScript.</noscript>
    <script src="./${assets['swagger-ui-bundle.js']}" charset="UTF-8"></script>
    <script src="./explorer.js" charset="UTF-8"></script>
  </body>
</html>
`;
}

/** The svc mark as the tab's icon (instead of Swagger UI's). */
const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#0b5cad"/><text x="16" y="21" font-family="monospace" font-size="12" font-weight="bold" fill="#fff" text-anchor="middle">svc</text></svg>
`;

/** The page's own styles (beside swagger-ui.css). */
export const PAGE_CSS = join(packageDir, 'src', 'page', 'explorer.css');

/** The page's script (Swagger UI with the house plugin): an ES module and its imports. */
export const PAGE_SCRIPT = join(packageDir, 'src', 'page', 'main.js');

/**
 * The search engine's script (`explorer-search.js`), which the page's script adds once its first
 * operation list is shown or the search is used (src/page/search-loader.js).
 */
export const SEARCH_SCRIPT = join(packageDir, 'src', 'page', 'search-chunk.js');

/** @type {Map<string, { cache: import('rollup').RollupCache, code: string }>} each entry's last build, in this process */
const bundles = new Map();

/** Whether each source file of an entry's last build still reads as it did (`npm run dev` rebuilds on spec saves). */
const unchanged = (built) =>
  built?.cache.modules.every((m) => {
    try {
      return readFileSync(m.id, 'utf8') === m.originalCode;
    } catch {
      return false;
    }
  });

/**
 * An ES module and its imports, bundled by rollup into one minified classic script (the page also
 * works from disk, where module scripts are refused). Within one process the bundle is reused
 * while no source file of it changed.
 * @param {string} input the entry module's path
 * @returns {Promise<string>} the script's code
 */
async function classicScript(input) {
  let built = bundles.get(input);
  if (!unchanged(built)) {
    const bundle = await rollup({
      input,
      plugins: [nodeResolve({ browser: true })],
      cache: built?.cache,
      onwarn: (warning) => {
        throw new Error(`explorer build: ${warning.message}`);
      },
    });
    try {
      // Minified: the page's script is read beside Swagger UI's own before the first operation
      // list (313 KB unminified against 120 KB; see the README's Bench).
      const { output } = await bundle.generate({ format: 'iife', strict: true, plugins: [terser({ maxWorkers: 1 })] });
      built = { cache: /** @type {import('rollup').RollupCache} */ (bundle.cache), code: output[0].code };
      bundles.set(input, built);
    } finally {
      await bundle.close();
    }
  }
  return /** @type {{ code: string }} */ (built).code;
}

/**
 * The page's script with its configuration in front: one entry per API for the top-bar selector
 * and the search index of every API.
 * @param {{ api: string, name: string, url: string }[]} apis
 * @param {any[]} index one `searchIndexOf` entry per API
 * @returns {Promise<string>}
 */
async function explorerJs(apis, index) {
  const code = await classicScript(PAGE_SCRIPT);
  const config = JSON.stringify({ apis, index }).replace(/</g, '\\u003c');
  return `// Generated by packages/explorer/scripts/build.mjs from src/page/ - do not edit.
window.SVC_EXPLORER = ${config};
${code}`;
}

/**
 * A copy of `document` in which the `$ref`s of path-level parameters (and of their schemas)
 * are replaced by what they point to. Swagger UI 5 shows an unresolved path-level `$ref` as a nameless
 * "any" parameter when an operation is opened by deep link before its subtree is resolved.
 * @param {any} document a bundled OpenAPI document (not modified)
 * @returns {any}
 */
export function withInlinePathParameters(document) {
  const copy = structuredClone(document);
  for (const pathItem of Object.values(copy.paths ?? {})) {
    if (!Array.isArray(pathItem?.parameters)) continue;
    pathItem.parameters = pathItem.parameters.map((raw) => {
      const parameter = structuredClone(deref(copy, raw));
      if (parameter.schema) parameter.schema = deref(copy, parameter.schema);
      return parameter;
    });
  }
  return copy;
}

/**
 * Builds the explorer into `outDir` (emptied first).
 *
 * @param {object} [options]
 * @param {string} [options.outDir]  output folder; `packages/explorer/dist` by default
 * @param {{ name: string, bundleJson: string }[]} [options.apis]
 *   the APIs to include; by default those of the repository (`@svc/oas/apis`)
 * @returns {Promise<{ outDir: string, apis: { name: string, displayName: string, spec: string }[] }>}
 *   `spec` is the path of the spec relative to `outDir` (`specs/central.json`)
 * @throws {Error} when there is no API, a bundle is missing (run `npm run bundle`) or is not
 *   valid JSON, or swagger-ui-dist is not installed
 */
export async function build({ outDir = defaultOutDir, apis } = {}) {
  const list = apis ?? (await repositoryApis());
  if (list.length === 0) throw new Error('explorer build: no API to include');
  const documents = list.map(({ name, bundleJson }) => {
    if (!/^[a-z0-9][a-z0-9._-]*$/i.test(name)) throw new Error(`explorer build: unusable API name "${name}"`);
    if (!existsSync(bundleJson)) {
      throw new Error(
        `explorer build: bundle ${bundleJson} of API "${name}" is missing; run \`npm run bundle\` at the repository root first`,
      );
    }
    let document;
    try {
      document = JSON.parse(readFileSync(bundleJson, 'utf8'));
    } catch (error) {
      throw new Error(`explorer build: ${bundleJson} is not valid JSON: ${error.message}`);
    }
    return { name, document };
  });

  const swaggerDir = dirname(require.resolve('swagger-ui-dist/package.json'));
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, 'specs'), { recursive: true });
  for (const file of SWAGGER_UI_ASSETS) copyFileSync(join(swaggerDir, file), join(outDir, file));
  const assets = Object.fromEntries(FINGERPRINTED_ASSETS.map((file) => [file, fingerprint(outDir, file)]));

  const forDisk = {};
  const result = documents.map(({ name, document }) => {
    const spec = `specs/${name}.json`;
    const explorerCopy = stripAuthorNotes(withInlinePathParameters(document));
    forDisk[name] = explorerCopy;
    writeFileSync(join(outDir, spec), `${JSON.stringify(explorerCopy, null, 2)}\n`);
    return {
      name,
      displayName: displayName(name, document),
      spec,
      index: searchIndexOf(name, displayName(name, document), explorerCopy),
    };
  });
  // For the page opened from disk (file:), where fetch() of the JSON files is refused; the page
  // loads it only then. `<` is escaped so that no text of a spec can end the script.
  writeFileSync(
    join(outDir, 'specs', 'specs.js'),
    `window.SVC_EXPLORER_SPECS = ${JSON.stringify(forDisk).replace(/</g, '\\u003c')};\n`,
  );
  const entries = result.map(({ name, spec, displayName: n }) => ({ api: name, name: n, url: `./${spec}` }));
  writeFileSync(
    join(outDir, 'index.html'),
    indexHtml(
      'svc API explorer',
      assets,
      result.map((r) => r.name),
    ),
  );
  copyFileSync(PAGE_CSS, join(outDir, 'explorer.css'));
  writeFileSync(join(outDir, 'favicon.svg'), FAVICON_SVG);
  writeFileSync(
    join(outDir, 'explorer.js'),
    await explorerJs(
      entries,
      result.map((r) => r.index),
    ),
  );
  writeFileSync(
    join(outDir, 'explorer-search.js'),
    `// Generated by packages/explorer/scripts/build.mjs from src/page/ - do not edit.\n${await classicScript(SEARCH_SCRIPT)}`,
  );
  // A plain static server serves this file: the page then calls real endpoints directly (CORS).
  // startExplorer answers the same path itself with forward: true.
  writeFileSync(
    join(outDir, SERVER_INFO_PATH.slice(1)),
    `${JSON.stringify({ server: 'static', forward: false, mocks: [] })}\n`,
  );
  return { outDir, apis: result.map(({ name, displayName: n, spec }) => ({ name, displayName: n, spec })) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  build().then(
    ({ outDir, apis }) =>
      console.log(`explorer: built ${shownPath(outDir)} (${apis.map((a) => a.displayName).join(', ')})`),
    (error) => {
      console.error(error.message);
      process.exitCode = 1;
    },
  );
}
