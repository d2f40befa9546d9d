// Writes the transition tables (src/domain/transitions.js) into docs/service.md between its
// `transitions` markers, so that the page shows the tables the simulator runs.
//   npm run docs -w @svc/simulator                write them
//   npm run docs -w @svc/simulator -- --check     exit 1 when the page differs
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandLine } from '@svc/args';
import { root } from '@svc/oas/apis';
import { withTables } from '../src/domain/transitions.js';

const USAGE = 'Usage: npm run docs -w @svc/simulator [-- --check]';
const { values } = commandLine('docs', USAGE, { options: { check: { type: 'boolean', default: false } } });
const file = join(root, 'docs', 'service.md');
const text = readFileSync(file, 'utf8');
const next = withTables(text);
if (next === text) process.exit(0);
if (values.check) {
  console.error(
    'docs: docs/service.md does not show the transition tables the simulator runs; run: npm run docs -w @svc/simulator',
  );
  process.exit(1);
}
writeFileSync(file, next);
console.log('docs: the transition tables of docs/service.md written');
