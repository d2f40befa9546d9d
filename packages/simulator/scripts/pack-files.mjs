// `prepack` / `postpack` of @svc/simulator: the tarball carries the bundles it serves
// (`bundles/<api>.json`, from the repository's `dist/`) and the license, so that
// `npx @svc/simulator` needs no checkout and no build; postpack removes the copies, so that a
// checkout keeps serving `dist/` (see `defaultApis` in src/apis.js).
//   node scripts/pack-files.mjs copy | remove
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandLine, knownNames, UsageError, usageExit } from '@svc/args';
import { apis, root } from '@svc/oas/apis';

const pkg = fileURLToPath(new URL('..', import.meta.url));
const bundles = join(pkg, 'bundles');
const USAGE = 'Usage: node scripts/pack-files.mjs copy | remove';
const { positionals } = commandLine('pack-files', USAGE, { options: {}, allowPositionals: true });
try {
  knownNames(positionals, ['copy', 'remove'], 'action');
  if (positionals.length !== 1) throw new UsageError(`one action: "copy" or "remove"; got ${positionals.length}`);
} catch (e) {
  usageExit('pack-files', USAGE, e.message);
}
const action = positionals[0];

rmSync(bundles, { recursive: true, force: true });
rmSync(join(pkg, 'LICENSE'), { force: true });
if (action === 'copy') {
  const list = apis();
  const missing = list.filter((a) => !existsSync(a.bundleJson)).map((a) => a.bundleJson);
  if (missing.length) {
    console.error(`pack-files: ${missing.join(', ')} missing: run \`npm run build\` first`);
    process.exit(1);
  }
  mkdirSync(bundles);
  for (const { name, bundleJson } of list) copyFileSync(bundleJson, join(bundles, `${name}.json`));
  copyFileSync(join(root, 'LICENSE'), join(pkg, 'LICENSE'));
}
