// Writes the operation index (dist/operations.json and docs/operations.md) from the bundles, the
// client's sources, the contract suites and the simulator's handler tables. Exits 1, listing them,
// when an operation has no contract test or no simulator handler, or a test or a handler names an
// operationId no bundle has: the build fails until they agree.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandLine } from '@svc/args';
import { apis, root, shownPath } from '@svc/oas/apis';
import { operationIndex, toMarkdown } from './lib/operation-index.mjs';
import { sourceLocation } from './lib/source-map.mjs';

commandLine('operations', 'Usage: npm run operations   (no options)', { options: {} });

/** Where `npm start` serves the explorer by default (scripts/serve.mjs --port). */
const EXPLORER = 'http://127.0.0.1:8080/';

const read = (dir, keep) =>
  readdirSync(join(root, dir), { recursive: true })
    .map(String)
    .filter(keep)
    .sort()
    .map((name) => ({ file: shownPath(join(root, dir, name)), text: readFileSync(join(root, dir, name), 'utf8') }));

const list = apis().map((api) => {
  if (!existsSync(api.bundleJson)) {
    console.error(`${shownPath(api.bundleJson)} is missing: run \`npm run bundle\` first`);
    process.exit(2);
  }
  return { ...api, doc: JSON.parse(readFileSync(api.bundleJson, 'utf8')) };
});
const roots = Object.fromEntries(list.map((api) => [api.name, api.root]));

const { entries, problems } = operationIndex({
  apis: list,
  source(api, path) {
    const { file, line } = sourceLocation(roots[api], path);
    return { file: shownPath(file), line };
  },
  clientFiles: read(
    'packages/client/src',
    (name) => name.endsWith('.ts') && !name.startsWith('generated') && !name.endsWith('.d.ts'),
  ),
  testFiles: read('packages/contract-tests/test', (name) => name.endsWith('.contract.test.ts')),
  simulatorFiles: read('packages/simulator/src', (name) => name.endsWith('.js')),
});

mkdirSync(join(root, 'dist'), { recursive: true });
writeFileSync(join(root, 'dist', 'operations.json'), `${JSON.stringify(entries, null, 2)}\n`);
writeFileSync(join(root, 'docs', 'operations.md'), toMarkdown(entries, EXPLORER));
console.log(`indexed ${entries.length} operations -> dist/operations.json, docs/operations.md`);
if (problems.length) {
  for (const p of problems) console.error(p);
  console.error(
    `${problems.length} problem(s): every operationId needs a contract test (c.cover('<operationId>') in packages/contract-tests/test/<api>.contract.test.ts) and a simulator handler (a member of a handlers table in packages/simulator/src)`,
  );
  process.exit(1);
}
