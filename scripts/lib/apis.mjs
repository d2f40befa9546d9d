// The APIs of this repository, read from redocly.yaml so that a new API is added in one place.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';

/** Absolute path of the repository root. */
export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The APIs declared in redocly.yaml.
 * @returns {{ name: string, root: string, bundle: string, bundleJson: string }[]}
 *   `root` is the source root document, `bundle`/`bundleJson` the bundled outputs; all absolute.
 */
export function apis() {
  const config = parse(readFileSync(join(root, 'redocly.yaml'), 'utf8'));
  return Object.entries(config.apis).map(([name, api]) => ({
    name,
    root: join(root, api.root),
    bundle: join(root, 'dist', `${name}.yaml`),
    bundleJson: join(root, 'dist', `${name}.json`),
  }));
}
