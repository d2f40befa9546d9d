// `npm pack` / `npm publish` of @svc/client: ships only a complete build. It fails, naming the
// step, when a module of src/ has no built .js and .d.ts in dist/ (a fresh clone, a folder
// cleaned), or when the built declarations came from other bundles (generate --shipped); then it
// copies the repository's LICENSE beside the manifest (postpack removes it).
import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = fileURLToPath(new URL('..', import.meta.url));
const BUILD =
  'run `npm run build` at the repository root (it bundles the descriptions, generates the types and builds the client), then pack again';

/**
 * The built files a module of src/ needs in dist/ that are missing.
 * @param {string} dir  the package folder
 * @returns {string[]}  paths relative to `dir`
 */
export function missingBuild(dir) {
  const src = join(dir, 'src');
  const modules = existsSync(src)
    ? readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    : [];
  // the entry point first: it is what an import of the package loads
  const wanted = ['index.ts', ...modules.filter((f) => f !== 'index.ts')];
  return wanted
    .flatMap((f) => [f.replace(/\.ts$/, '.js'), f.replace(/\.ts$/, '.d.ts')])
    .map((f) => join('dist', f))
    .filter((f) => !existsSync(join(dir, f)));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const missing = missingBuild(pkg);
  if (missing.length) {
    const more = missing.length > 1 ? ` (and ${missing.length - 1} more built file(s))` : '';
    console.error(`@svc/client prepack: ${missing[0]}${more} is missing, so the package is not built: ${BUILD}`);
    process.exit(1);
  }
  const { generate } = await import('./generate.mjs');
  if (await generate({ shipped: true })) process.exit(1);
  copyFileSync(join(pkg, '../../LICENSE'), join(pkg, 'LICENSE'));
}
