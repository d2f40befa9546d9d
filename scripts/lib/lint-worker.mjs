// The thread of `npm run dev` that lints after a save: Redocly's lint of the sources and Spectral on
// the bundle, each loaded once (the Spectral ruleset is most of a CLI run). Off the main thread, so
// that the explorer server answers the reloaded page while they run.
import { isMainThread } from 'node:worker_threads';
import { lintApi, redoclyConfig } from './redocly.mjs';
import { formatFinding, spectralLinter } from './spectral.mjs';
import { answerCalls, startThread } from './thread.mjs';

/**
 * @typedef {import('@svc/oas/apis').ApiEntry} ApiEntry
 * @typedef {object} LintThread
 * @property {(api: ApiEntry) => Promise<{ severity: string, text: string }[]>} redocly
 *   Redocly's lint of the API's sources (`lintApi`); rejects when redocly.yaml cannot be read
 * @property {(api: ApiEntry) => Promise<string[]>} spectral  Spectral's findings on the API's bundle
 *   (`dist/<api>.yaml`), each as `formatFinding` writes it; rejects when the ruleset cannot be loaded
 * @property {() => Promise<void>} close  ends the thread
 */

/**
 * Starts the thread; it loads redocly.yaml and the Spectral ruleset (`.spectral.yaml`) at once,
 * before the first save.
 * @returns {LintThread}
 */
export function startLintThread() {
  const thread = startThread(new URL(import.meta.url));
  return {
    redocly: (api) => thread.call({ tool: 'redocly', api }),
    spectral: (api) => thread.call({ tool: 'spectral', api }),
    close: thread.close,
  };
}

if (!isMainThread) {
  const config = redoclyConfig();
  const spectral = spectralLinter();
  // a failure shows on the first call
  config.catch(() => {});
  spectral.catch(() => {});
  answerCalls(async (/** @type {{ tool: 'redocly' | 'spectral', api: ApiEntry }} */ { tool, api }) =>
    tool === 'redocly'
      ? lintApi(api, await config)
      : (await (await spectral)(api.bundle)).map((r) => formatFinding(api, r)),
  );
}
