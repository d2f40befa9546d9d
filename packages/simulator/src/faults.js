// Faults on demand, for testing clients' resilience: 503 and 429 answers (with Retry-After) on
// read-only calls, added latency, and tasks that end FAILED. Off by default; a seed makes a run
// repeatable. One home for them: `--faults` (parseFaults), its rules (faultRulesOf) and the rules
// in force at run time (createFaultRules, the control API's `/_svc/faults`), which the pipeline
// meets for every request to the served APIs.
import { AsyncLocalStorage } from 'node:async_hooks';
import { HttpError } from './errors.js';

/**
 * @typedef {object} FaultOptions
 * @property {number} [rate503]   share of read-only calls answered 503, 0..1
 * @property {number} [rate429]   share of read-only calls answered 429, 0..1
 * @property {number} [latencyMs] milliseconds added before every answer
 * @property {number} [taskFailRate] share of tasks that end FAILED, 0..1
 * @property {number} [retryAfterSeconds] the Retry-After of a 503/429 (default 1)
 * @property {number} [killAt] the crash tests' seam: the process kills itself (SIGKILL) just before its
 *   Nth durable write, counted from its start (domain/durable.js); 0 or absent: never
 */

const KEYS = {
  503: 'rate503',
  429: 'rate429',
  latency: 'latencyMs',
  'task-fail': 'taskFailRate',
  'retry-after': 'retryAfterSeconds',
  'kill-at': 'killAt',
};

/**
 * Parses the CLI's `--faults` value: comma-separated `key=value`, keys `503`, `429` (rates 0..1),
 * `latency` (ms), `task-fail` (rate 0..1), `retry-after` (seconds), `kill-at` (the crash tests' Nth durable
 * write). Example: `503=0.1,429=0.05,latency=20,task-fail=0.2`.
 * @param {string} text
 * @returns {FaultOptions}
 * @throws {Error} naming the key and the rule, for an unknown key or a value out of range
 */
export function parseFaults(text) {
  /** @type {Record<string, number>} */
  const out = {};
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [key, raw] = part.split('=');
    const name = KEYS[key];
    if (!name)
      throw new Error(
        `--faults: unknown key "${key}"; keys are ${Object.keys(KEYS).join(', ')} (e.g. 503=0.1,latency=20)`,
      );
    const value = Number(raw);
    if (raw === undefined || raw === '' || !Number.isFinite(value) || value < 0)
      throw new Error(`--faults: ${key} must be a number >= 0, not "${raw ?? ''}"`);
    if (name.endsWith('Rate') || name.startsWith('rate')) {
      if (value > 1) throw new Error(`--faults: ${key} is a rate between 0 and 1, not ${raw}`);
    }
    if (name === 'killAt' && !Number.isInteger(value))
      throw new Error(`--faults: kill-at is a count of durable writes (an integer >= 1), not ${raw}`);
    out[name] = value;
  }
  return out;
}

/**
 * mulberry32: a small seeded PRNG, so that a seed replays the same faults (the fuzz test's too).
 * @param {number} seed
 * @returns {() => number} numbers in [0, 1)
 */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A fault rule as the control API reads and answers it (spec/control `FaultRule`).
 * @typedef {object} FaultRule
 * @property {string} [operation_id]  the operation a request must match
 * @property {string} [method]  its HTTP method (upper case)
 * @property {string} [path]  its path with the base path, no query; `*` stands for a segment or part of one
 * @property {boolean} [idempotent]  true: only requests clients repeat (GET, HEAD, x-svc-idempotent POSTs); false: only the others
 * @property {number} probability  0..1
 * @property {number} [status]  400..599: the answer of a hit, before the request runs
 * @property {number} [retry_after_seconds]  the Retry-After of a 429 or 503 (default 1)
 * @property {number} [latency_ms]  milliseconds a hit waits first
 * @property {true} [fail_task]  the task the hit request starts ends FAILED (never matches an idempotent request)
 * @property {number} [count]  hits left; the rule is removed after the last
 * @property {number} [hits]  hits so far (answers only)
 */

/**
 * What the rules do to one request: the sum of the latencies of the rules that hit, the first
 * status hit (with its Retry-After), and whether its task must fail.
 * @typedef {{ latencyMs: number, status: number | undefined, retryAfterSeconds: number, failTask: boolean }} FaultHit
 */

/**
 * The fault rules in force (see createFaultRules).
 * @typedef {object} FaultRules
 * @property {(operationId: string | undefined, method: string, path: string, idempotent: boolean) => FaultHit | undefined} match
 * @property {(hit: FaultHit | undefined) => Promise<void> | undefined} delay
 * @property {(hit: FaultHit | undefined) => HttpError | undefined} errorOf
 * @property {<T>(hit: FaultHit | undefined, run: () => T) => T} during
 * @property {() => boolean} taskFails
 * @property {() => { rules: FaultRule[], seed?: number }} list
 * @property {(rules: FaultRule[], seed?: number) => void} set
 * @property {() => void} clear
 */

/** A rule that cannot be put in force; names the field (`rules[0].status`) and the rule. */
export class FaultRuleInvalid extends Error {
  /** @param {string} field  e.g. `rules[1].probability` @param {string} rule */
  constructor(field, rule) {
    super(`${field} ${rule}`);
    this.field = field;
    this.rule = rule;
  }
}

const RULE_FIELDS = new Set([
  'operation_id',
  'method',
  'path',
  'idempotent',
  'probability',
  'status',
  'retry_after_seconds',
  'latency_ms',
  'fail_task',
  'count',
  'hits',
]);
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);
/** The most rules in force (spec/control `FaultRules.rules` maxItems). */
export const MAX_FAULT_RULES = 100;

/**
 * The rules `--faults` starts with: `latency=MS` on every request, `503=R` and `429=R` on the
 * idempotent ones (the share of them answered each status is R, as before the rules: the 429
 * rule's probability is R429 / (1 - R503), as it is tried after the 503's), `task-fail=R` as
 * `fail_task`. `kill-at` is no rule: it stays the crash tests' seam (domain/durable.js).
 * @param {FaultOptions} [options]  parseFaults' result
 * @returns {FaultRule[]}
 */
export function faultRulesOf(options = {}) {
  const { rate503 = 0, rate429 = 0, latencyMs = 0, taskFailRate = 0, retryAfterSeconds = 1 } = options;
  /** @type {FaultRule[]} */
  const rules = [];
  if (latencyMs > 0) rules.push({ latency_ms: latencyMs, probability: 1 });
  const retry = { retry_after_seconds: retryAfterSeconds };
  if (rate503 > 0) rules.push({ idempotent: true, status: 503, ...retry, probability: rate503 });
  if (rate429 > 0)
    rules.push({ idempotent: true, status: 429, ...retry, probability: Math.min(1, rate429 / (1 - rate503 || 1)) });
  if (taskFailRate > 0) rules.push({ fail_task: true, probability: taskFailRate });
  return rules;
}

/** `/api/svc/v3/images/*` -> a RegExp where `*` is any run of characters but `/`. */
function pathPattern(path) {
  const source = path
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]*');
  return new RegExp(`^${source}$`);
}

/**
 * Checks one rule and compiles it.
 * @param {any} rule
 * @param {number} i
 */
function compile(rule, i) {
  const at = `rules[${i}]`;
  if (rule === null || typeof rule !== 'object' || Array.isArray(rule))
    throw new FaultRuleInvalid(at, 'must be an object');
  for (const key of Object.keys(rule))
    if (!RULE_FIELDS.has(key)) throw new FaultRuleInvalid(`${at}.${key}`, 'is not a field of a fault rule');
  const number = (key, min, max, integer) => {
    const v = rule[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v)))
      throw new FaultRuleInvalid(
        `${at}.${key}`,
        `must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`,
      );
    return v;
  };
  const probability = number('probability', 0, 1, false);
  if (probability === undefined) throw new FaultRuleInvalid(`${at}.probability`, 'is required (0 to 1)');
  const status = number('status', 400, 599, true);
  const latencyMs = number('latency_ms', 0, 60_000, true);
  const count = number('count', 1, 2 ** 31 - 1, true);
  const retryAfterSeconds = number('retry_after_seconds', 0, 3600, true) ?? 1;
  if (rule.fail_task !== undefined && rule.fail_task !== true)
    throw new FaultRuleInvalid(`${at}.fail_task`, 'must be true (or left out)');
  if (status === undefined && latencyMs === undefined && rule.fail_task !== true)
    throw new FaultRuleInvalid(at, 'must do something: status, latency_ms or fail_task');
  if (rule.method !== undefined && !METHODS.has(rule.method))
    throw new FaultRuleInvalid(`${at}.method`, `must be one of ${[...METHODS].join(', ')}`);
  if (rule.idempotent !== undefined && typeof rule.idempotent !== 'boolean')
    throw new FaultRuleInvalid(`${at}.idempotent`, 'must be true or false');
  /** @type {[string, RegExp, number][]} */
  const strings = [
    ['operation_id', /^[a-z][a-z0-9_]*$/, 128],
    ['path', /^\//, 2048],
  ];
  for (const [key, pattern, most] of strings)
    if (
      rule[key] !== undefined &&
      (typeof rule[key] !== 'string' || !pattern.test(rule[key]) || rule[key].length > most)
    )
      throw new FaultRuleInvalid(`${at}.${key}`, `must be a string matching ${pattern} of at most ${most} characters`);
  return {
    operationId: rule.operation_id,
    method: rule.method,
    methodLower: rule.method?.toLowerCase(),
    path: rule.path,
    pathRe: rule.path === undefined ? undefined : pathPattern(rule.path),
    idempotent: rule.idempotent,
    probability,
    status,
    retryAfterSeconds,
    latencyMs,
    failTask: rule.fail_task === true,
    count,
    hits: 0,
  };
}

/**
 * The fault rules in force at run time: `--faults` gives the first ones (faultRulesOf), the
 * control API (`/_svc/faults`) reads, replaces and clears them.
 *
 * The pipeline, for each request to another API from a connection (not a batch's sub-request,
 * not `/_svc/`), once the operation is routed and before its body is read:
 * ```js
 * const hit = faults.match(operationId, method, path, isReadOnly({ method, operation }));
 * await faults.delay(hit);                  // the rules' latency (undefined: none, nothing to await)
 * const refused = faults.errorOf(hit);      // an HttpError with Retry-After for 429/503
 * if (refused) throw refused;
 * // ... body, validation, then the handler inside the hit's context:
 * const answer = await faults.during(hit, () => handler(ctx));
 * ```
 * `during` runs the handler in the hit's async context when the hit fails its task: the domain's
 * `faults.taskFails()`, called when a task it started runs (through setImmediate, which carries the
 * context), then answers true. Nothing is allocated for a request no rule hits.
 * @param {{ rules?: FaultRule[], seed?: number }} [o]  the first rules; `seed` seeds the draws (default: random)
 * @returns {FaultRules}
 * @throws {FaultRuleInvalid} naming the rule and field that cannot be put in force
 */
export function createFaultRules({ rules = [], seed } = {}) {
  /** @type {ReturnType<typeof compile>[]} */
  let active = [];
  let seeded = seed;
  let random = prng(seed ?? Math.floor(Math.random() * 2 ** 32));
  /** @type {AsyncLocalStorage<FaultHit>} */
  const context = new AsyncLocalStorage();

  const api = {
    match(operationId, method, path, idempotent) {
      if (active.length === 0) return undefined;
      /** @type {FaultHit | undefined} */
      let hit;
      let spent = false;
      for (const r of active) {
        if (r.operationId !== undefined && r.operationId !== operationId) continue;
        if (r.method !== undefined && r.method !== method && r.methodLower !== method) continue;
        if (r.idempotent !== undefined && r.idempotent !== idempotent) continue;
        // a read starts no task
        if (r.failTask && idempotent) continue;
        // past the first status, a rule can only add its latency
        if (hit?.status !== undefined && r.latencyMs === undefined) continue;
        if (r.pathRe !== undefined && !r.pathRe.test(path)) continue;
        if (r.probability < 1 && !(random() < r.probability)) continue;
        hit ??= { latencyMs: 0, status: undefined, retryAfterSeconds: 1, failTask: false };
        r.hits += 1;
        if (r.count !== undefined && --r.count === 0) spent = true;
        if (r.latencyMs !== undefined) hit.latencyMs += r.latencyMs;
        if (hit.status === undefined) {
          if (r.status !== undefined) [hit.status, hit.retryAfterSeconds] = [r.status, r.retryAfterSeconds];
          if (r.failTask) hit.failTask = true;
        }
      }
      if (spent) active = active.filter((r) => r.count !== 0);
      return hit;
    },
    delay: (hit) => (hit && hit.latencyMs > 0 ? new Promise((r) => setTimeout(r, hit.latencyMs)) : undefined),
    errorOf(hit) {
      if (hit?.status === undefined) return undefined;
      const { status } = hit;
      const retry = status === 429 || status === 503 ? { 'retry-after': String(hit.retryAfterSeconds) } : undefined;
      if (status === 503)
        return new HttpError(
          503,
          'SERVICE_UNAVAILABLE',
          'Service unavailable (simulated fault); retry later',
          undefined,
          retry,
        );
      if (status === 429)
        return new HttpError(
          429,
          'TOO_MANY_REQUESTS',
          'Too many requests (simulated fault); retry later',
          undefined,
          retry,
        );
      return new HttpError(status, 'SIMULATED_FAULT', `Simulated fault: HTTP ${status} (a fault rule of /_svc/faults)`);
    },
    during: (hit, run) => (hit?.failTask ? context.run(hit, run) : run()),
    taskFails: () => context.getStore()?.failTask === true,
    list() {
      const rulesNow = active.map((r) => {
        /** @type {any} the rule's fields in the API's order */
        const out = {};
        if (r.operationId !== undefined) out.operation_id = r.operationId;
        if (r.method !== undefined) out.method = r.method;
        if (r.path !== undefined) out.path = r.path;
        if (r.idempotent !== undefined) out.idempotent = r.idempotent;
        out.probability = r.probability;
        if (r.status !== undefined) out.status = r.status;
        if (r.status === 429 || r.status === 503) out.retry_after_seconds = r.retryAfterSeconds;
        if (r.latencyMs !== undefined) out.latency_ms = r.latencyMs;
        if (r.failTask) out.fail_task = true;
        if (r.count !== undefined) out.count = r.count;
        out.hits = r.hits;
        return out;
      });
      return seeded === undefined ? { rules: rulesNow } : { rules: rulesNow, seed: seeded };
    },
    set(next, nextSeed) {
      if (!Array.isArray(next)) throw new FaultRuleInvalid('rules', 'must be an array');
      if (next.length > MAX_FAULT_RULES)
        throw new FaultRuleInvalid('rules', `must hold at most ${MAX_FAULT_RULES} rules`);
      if (nextSeed !== undefined && !(Number.isInteger(nextSeed) && nextSeed >= 0 && nextSeed < 2 ** 32))
        throw new FaultRuleInvalid('seed', 'must be an integer from 0 to 4294967295');
      // every rule checked before any is in force
      active = next.map(compile);
      if (nextSeed !== undefined) {
        seeded = nextSeed;
        random = prng(nextSeed);
      }
    },
    clear() {
      active = [];
    },
  };
  api.set(rules);
  return api;
}
