// One way for every command of the repository (scripts/, the benches, the client's generator, the
// published svc-simulator) to read its options: node:util's parseArgs, plus the value
// rules the commands share (ports, counts). A bad argument is answered with one line naming the
// option and the rule, then the command's usage, and exit code 2: never a stack trace, never a
// silently replaced value.
import { parseArgs } from 'node:util';

/** A bad command-line argument; `message` names the option and the rule. */
export class UsageError extends Error {
  name = 'UsageError';
}

/**
 * Parses `argv` with `parseArgs` (strict: unknown options, a missing value and positionals are
 * refused), then runs each option's `check` on its value.
 *
 * @param {object} spec
 * @param {Record<string, NonNullable<import('node:util').ParseArgsConfig['options']>[string] & { check?: (value: any, name: string) => any }>} spec.options
 *   parseArgs options; `check(value, name)` returns the value to use (e.g. a number) or throws
 *   UsageError. It runs on defaults too, so a default from the environment is checked like a typed one.
 * @param {boolean} [spec.allowPositionals] default false
 * @param {string[]} [argv] default `process.argv.slice(2)`
 * @returns {{ values: Record<string, any>, positionals: string[] }}
 * @throws {UsageError} with a one-line message naming the option
 */
export function parseCommandLine({ options, allowPositionals = false }, argv = process.argv.slice(2)) {
  const config = Object.fromEntries(Object.entries(options).map(([name, { check, ...o }]) => [name, o]));
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: config, allowPositionals, strict: true });
  } catch (e) {
    // parseArgs' messages are one line each ("Unknown option '--bogus'", "argument missing", ...)
    // less the hint parseArgs adds when positionals are allowed: the usage line says it better
    throw new UsageError(
      /** @type {Error} */ (e).message
        .replace(/\. To specify a positional argument starting with a '-'[\s\S]*$/, '')
        .replace(/\s+/g, ' ')
        .trim(),
    );
  }
  const values = { ...parsed.values };
  for (const [name, { check }] of Object.entries(options)) {
    if (!check || values[name] === undefined) continue;
    values[name] = Array.isArray(values[name]) ? values[name].map((v) => check(v, name)) : check(values[name], name);
  }
  return { values, positionals: parsed.positionals };
}

/**
 * `parseCommandLine` for a command's entry point: on a bad argument prints
 * `<command>: <message>` and `Usage: ...` on stderr and exits with code 2.
 *
 * @param {string} command the name printed first (`serve`)
 * @param {string} usage   the usage line, starting with `Usage:`
 * @param {Parameters<typeof parseCommandLine>[0]} spec
 * @param {string[]} [argv]
 * @returns {ReturnType<typeof parseCommandLine>}
 */
export function commandLine(command, usage, spec, argv) {
  return orUsageExit(command, usage, () => parseCommandLine(spec, argv));
}

/**
 * `read()`, or on a {@link UsageError} the message and the usage on stderr and exit 2.
 * @template T
 * @param {string} command
 * @param {string} usage
 * @param {() => T} read
 * @returns {T}
 */
function orUsageExit(command, usage, read) {
  try {
    return read();
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    usageExit(command, usage, e.message);
  }
}

/**
 * Prints `<command>: <message>` and the usage on stderr and exits 2 (for checks after parsing).
 * @param {string} command
 * @param {string} usage
 * @param {string} message
 * @returns {never}
 */
export function usageExit(command, usage, message) {
  console.error(`${command}: ${message}\n${usage}`);
  process.exit(2);
}

/** How a message names a setting: `--port` for an option, `BENCH_ROUNDS` for an environment variable. */
const label = (/** @type {string} */ name) => (/^[A-Z][A-Z0-9_]*$/.test(name) ? name : `--${name}`);

/**
 * `check` for a TCP port: digits only, 0 to 65535 (0: any free port). `''`, `-1`, `80.5` and
 * `0x50` are refused rather than read as some port.
 * @param {string} value as typed
 * @param {string} name  the option without dashes
 * @returns {number}
 * @throws {UsageError}
 */
export function port(value, name) {
  const n = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!(n >= 0 && n <= 65535))
    throw new UsageError(`${label(name)} must be a port number from 0 to 65535; got "${value}"`);
  return n;
}

/**
 * `check` for a count or a duration: digits only, from `min` to `max`.
 * @param {number} [min] default 1
 * @param {number} [max] default none
 * @returns {(value: string, name: string) => number}
 */
export function integer(min = 1, max = Number.MAX_SAFE_INTEGER) {
  return (value, name) => {
    const n = /^\d{1,15}$/.test(value) ? Number(value) : NaN;
    if (!(n >= min && n <= max))
      throw new UsageError(
        `${label(name)} must be an integer ${max < Number.MAX_SAFE_INTEGER ? `from ${min} to ${max}` : `of at least ${min}`}; got "${value}"`,
      );
    return n;
  };
}

/**
 * A setting a command reads from the environment (`BENCH_ROUNDS=5 npm run bench`), checked as an
 * option is: unset gives `fallback`; a bad value prints `<command>: <message>` and the usage, exit 2.
 * @template T
 * @param {string} command the name printed first (`client bench`)
 * @param {string} usage   the usage line
 * @param {string} name    the environment variable
 * @param {T} fallback     the value when it is unset
 * @param {(value: string, name: string) => T} check as an option's `check`, e.g. `integer(1)`
 * @returns {T}
 */
export function fromEnv(command, usage, name, fallback, check) {
  const raw = process.env[name];
  if (raw === undefined) return fallback;
  return orUsageExit(command, usage, () => check(raw, name));
}

/**
 * `check`-like test for positional names (API names of redocly.yaml, ...): every one must be known.
 * @param {string[]} names  as typed
 * @param {string[]} known  the allowed names
 * @param {string} what     what a name is (`API of redocly.yaml`)
 * @returns {string[]} `names`
 * @throws {UsageError} naming the first unknown name and the known ones
 */
export function knownNames(names, known, what) {
  const unknown = names.find((n) => !known.includes(n));
  if (unknown !== undefined) throw new UsageError(`"${unknown}" is not an ${what} (${known.join(', ')})`);
  return names;
}

/**
 * The APIs a command that takes API names (`npm run bundle -- central`) works on: those named, or
 * every API of redocly.yaml when none is. An unknown name is a usage error (exit 2).
 * @param {string} command the name printed first (`bundle`)
 * @param {string} usage   the usage line
 * @template {{ name: string }} T
 * @param {T[]} all `apis()` of `@svc/oas/apis` (a parameter: this module imports node: modules only)
 * @param {string[]} [argv]
 * @returns {T[]} in redocly.yaml order
 */
export function selectedApis(command, usage, all, argv) {
  const names = commandLine(command, usage, { options: {}, allowPositionals: true }, argv).positionals;
  try {
    knownNames(
      names,
      all.map((a) => a.name),
      'API of redocly.yaml',
    );
  } catch (e) {
    usageExit(command, usage, /** @type {UsageError} */ (e).message);
  }
  return all.filter((a) => !names.length || names.includes(a.name));
}
