// Faults on demand, for testing clients' resilience: 503 and 429 answers (with Retry-After) on
// read-only calls, added latency, and tasks that end FAILED. Off by default; a seed makes a run
// repeatable.

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

/**
 * @typedef {object} Faults
 * @property {() => Promise<void>} delay  waits the added latency
 * @property {() => ({ status: number, reason: string, message: string, retryAfterSeconds: number } | undefined)} httpFault
 * @property {() => boolean} taskFails  whether the next task should end FAILED
 * @property {FaultOptions} options
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
 * @param {FaultOptions} [options]
 * @param {number} [seed]  seeds the draws (default: random)
 * @returns {Faults}
 */
export function createFaults(options = {}, seed) {
  const random = prng(seed ?? Math.floor(Math.random() * 2 ** 32));
  const { rate503 = 0, rate429 = 0, latencyMs = 0, taskFailRate = 0, retryAfterSeconds = 1 } = options;
  return {
    options,
    delay: () => (latencyMs > 0 ? new Promise((r) => setTimeout(r, latencyMs)) : Promise.resolve()),
    httpFault() {
      if (rate503 === 0 && rate429 === 0) return undefined;
      const draw = random();
      if (draw < rate503)
        return {
          status: 503,
          reason: 'SERVICE_UNAVAILABLE',
          message: 'Service unavailable (simulated fault); retry later',
          retryAfterSeconds,
        };
      if (draw < rate503 + rate429)
        return {
          status: 429,
          reason: 'TOO_MANY_REQUESTS',
          message: 'Too many requests (simulated fault); retry later',
          retryAfterSeconds,
        };
      return undefined;
    },
    taskFails: () => taskFailRate > 0 && random() < taskFailRate,
  };
}
