// `npm test` (after the Node check, scripts/supported-node.mjs): the pretest steps (install, then
// Chromium and go where missing), then every test through turbo. Arguments go to turbo.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import './pretest.mjs';

/** The tasks of `npm test`: the lint gates, the generator check, the type check and every test. */
const TASKS = [
  'lint:biome',
  'lint:redocly',
  'lint:spectral',
  'generate:check',
  'typecheck',
  'test',
  'test:scripts',
  'operations',
];

const root = fileURLToPath(new URL('..', import.meta.url));
const turbo = spawn(
  join(root, 'node_modules', '.bin', 'turbo'),
  ['run', ...TASKS, '--concurrency=100%', ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit' },
);
// Ctrl-C reaches turbo too (one process group); a SIGTERM sent to this process alone is passed on.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => turbo.kill('SIGTERM'));
turbo.on('exit', (code) => process.exit(code ?? 1));
