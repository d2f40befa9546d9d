// The supply-chain checks of `npm run supply-chain`: known advisories' fixed versions against the
// lockfile, and the verdict of `npm audit --json`.
import semver from 'semver';

/**
 * Advisories in the dependency tree that package.json's `overrides` fix: the lockfile must hold no
 * version of `name` below `fixed`.
 * @type {{ name: string, fixed: string, advisory: string, via: string }[]}
 */
export const FLOORS = [
  {
    name: 'lodash',
    fixed: '4.18.0',
    advisory: 'GHSA-r5fr-rjxr-66jc (high: code injection via _.template)',
    via: 'Prism > @stoplight/http-spec > postman-collection',
  },
  {
    name: 'uuid',
    fixed: '11.1.1',
    advisory: 'GHSA-w5hq-g745-h8pq (moderate: missing buffer bounds check)',
    via: 'Prism > @stoplight/http-spec > postman-collection',
  },
];

/**
 * Every copy of a floored package in a lockfile (lockfileVersion 2 or 3) below its fixed version.
 * @param {{ packages?: Record<string, { version?: string }> }} lock parsed package-lock.json
 * @param {typeof FLOORS} [floors]
 * @returns {{ path: string, version: string, fixed: string, advisory: string }[]} empty when none
 * @throws {TypeError} when `lock` has no `packages` map (lockfileVersion 1 or not a lockfile)
 */
export function belowFloor(lock, floors = FLOORS) {
  if (!lock || typeof lock.packages !== 'object' || lock.packages === null) {
    throw new TypeError('package-lock.json has no "packages" map: lockfileVersion 2 or 3 is needed (npm 7 or later)');
  }
  const out = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    for (const f of floors) {
      if (!path.endsWith(`node_modules/${f.name}`) || !entry?.version) continue;
      const version = semver.valid(entry.version);
      if (!version || semver.lt(version, f.fixed))
        out.push({ path, version: entry.version, fixed: f.fixed, advisory: f.advisory });
    }
  }
  return out;
}

/**
 * What `npm audit --json` said: checked (with counts by severity) or not checked (the registry
 * refused or was not reached), never a silent pass.
 * @param {{ stdout: string, stderr: string, status: number | null }} run the finished `npm audit --json`
 * @param {'low' | 'moderate' | 'high' | 'critical'} [level] the lowest severity that fails, default `high`
 * @returns {{ checked: false, reason: string } | { checked: true, ok: boolean, counts: Record<string, number> }}
 */
export function auditVerdict({ stdout, stderr, status }, level = 'high') {
  let report;
  try {
    report = JSON.parse(stdout);
  } catch {
    const line =
      String(stderr)
        .split('\n')
        .find((l) => /npm error|ERR!/.test(l)) ?? `exit ${status}, no JSON report`;
    return { checked: false, reason: line.replace(/^npm (error|ERR!)\s*/, '') };
  }
  const counts = report?.metadata?.vulnerabilities;
  if (!counts || typeof counts !== 'object') {
    const why = report?.message ?? report?.error?.summary ?? `exit ${status}, no vulnerability counts in the report`;
    return { checked: false, reason: report?.statusCode ? `the registry answered ${why}` : why };
  }
  const order = ['low', 'moderate', 'high', 'critical'];
  const failing = order.slice(order.indexOf(level)).reduce((n, s) => n + (counts[s] ?? 0), 0);
  return { checked: true, ok: failing === 0, counts };
}
