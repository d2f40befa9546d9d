// How the scripts' tests run a command: its output read on 'close' (not 'exit', which can come
// before the last of it), stdout and stderr together, and a limit that names the command.
import { spawn, spawnSync } from 'node:child_process';
import { basename } from 'node:path';

/**
 * How long a command of the scripts' tests may take: a Node command, git or Redocly took at most
 * 80 s in `npm test` beside a CPU hog at load 20 on the 2-core machine, so 3 times that. The whole
 * typecheck (144 s there) passes its own.
 */
export const COMMAND_LIMIT_MS = 240_000;

/** A command as an error names it: file names, not local paths. */
const shown = (command, args) =>
  [basename(command), ...args.map((a) => (a.startsWith('/') ? basename(a) : a))].join(' ');

/**
 * `runCommand`, synchronously (the tests of scripts that run git themselves).
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, limitMs?: number }} [options]
 * @returns {{ code: number | null, out: string }} stdout, then stderr
 * @throws {Error} when the command cannot start or did not end within `limitMs`, naming it
 */
export function runCommandSync(command, args, { cwd, env, limitMs = COMMAND_LIMIT_MS } = {}) {
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: limitMs, killSignal: 'SIGKILL' });
  if (r.error) {
    const { code } = /** @type {NodeJS.ErrnoException} */ (r.error);
    throw new Error(
      `\`${shown(command, args)}\` ${code === 'ETIMEDOUT' ? `did not end within ${limitMs / 1000} s` : r.error.message}`,
    );
  }
  return { code: r.status, out: r.stdout + r.stderr };
}

/**
 * Runs `command args` and resolves once it has ended and its output is read.
 * @param {string} command e.g. `process.execPath`, `npm`
 * @param {string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, limitMs?: number }} [options] `limitMs`: the
 *   command is killed (SIGKILL) past it; COMMAND_LIMIT_MS by default
 * @returns {Promise<{ code: number | null, signal: NodeJS.Signals | null, out: string }>}
 * @throws {Error} when the command cannot start, or did not end within `limitMs` (naming it, with
 *   the end of its output)
 */
export function runCommand(command, args, { cwd, env, limitMs = COMMAND_LIMIT_MS } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let late = false;
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    const timer = setTimeout(() => {
      late = true;
      child.kill('SIGKILL');
    }, limitMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (late)
        reject(
          new Error(
            `\`${shown(command, args)}\` did not end within ${limitMs / 1000} s; its output:\n${out.slice(-2000)}`,
          ),
        );
      else resolve({ code, signal, out });
    });
  });
}

/**
 * Text that grows (a child's output, an event stream), and waits on it: each wait ends when its
 * pattern appears, when the source ends, or past its limit, and names what never happened.
 */
export class GrowingText {
  text = '';
  /** @type {string | undefined} why the source ended, once it has */
  ended;
  /** @type {Set<() => void>} */
  #waiters = new Set();

  /** @param {string | Buffer} chunk */
  append(chunk) {
    this.text += chunk;
    for (const wake of this.#waiters) wake();
  }

  /** @param {string} why e.g. `dev exited with code 1` */
  end(why) {
    this.ended ??= why;
    for (const wake of this.#waiters) wake();
  }

  /**
   * Resolves with the match once `pattern` matches the text after `from`.
   * @param {RegExp} pattern
   * @param {{ what: string, limitMs: number, from?: number }} options `what`: what the wait is for,
   *   as the error says it (`the reload event of the first save`)
   * @returns {Promise<RegExpExecArray>}
   * @throws {Error} `<what> did not happen within N s` (or `... : <why> first`), with the end of the text
   */
  until(pattern, { what, limitMs, from = 0 }) {
    return new Promise((resolve, reject) => {
      const fail = (why) => {
        done();
        reject(new Error(`${what} did not happen ${why}; the text ended:\n${this.text.slice(-3000)}`));
      };
      const check = () => {
        const match = pattern.exec(this.text.slice(from));
        if (match) {
          done();
          resolve(match);
        } else if (this.ended !== undefined) fail(`(${this.ended} first)`);
      };
      const timer = setTimeout(() => fail(`within ${limitMs / 1000} s`), limitMs);
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(check);
      };
      this.#waiters.add(check);
      check();
    });
  }
}
