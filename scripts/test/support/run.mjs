// How the scripts' tests run a command: its output read on 'close' (not 'exit', which can come
// before the last of it), stdout and stderr together.
import { spawn } from 'node:child_process';

/**
 * Runs `command args` and resolves once it has ended and its output is read.
 * @param {string} command e.g. `process.execPath`, `npm`
 * @param {string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, killAfterMs?: number }} [options] `killAfterMs`:
 *   SIGKILL after this long, a guard against a hang only (default: none)
 * @returns {Promise<{ code: number | null, signal: NodeJS.Signals | null, out: string }>}
 * @throws {Error} when the command cannot start
 */
export function runCommand(command, args, { cwd, env, killAfterMs } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    const timer = killAfterMs ? setTimeout(() => child.kill('SIGKILL'), killAfterMs) : undefined;
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, out });
    });
  });
}
