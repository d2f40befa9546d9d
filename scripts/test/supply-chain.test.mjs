import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { auditVerdict, belowFloor, FLOORS } from '../lib/supply-chain.mjs';

const read = (file) => JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'));

describe('belowFloor', () => {
  it.each([
    [
      "Prism's old tree",
      {
        'node_modules/postman-collection/node_modules/lodash': { version: '4.17.21' },
        'node_modules/uuid': { version: '8.3.2' },
      },
      ['node_modules/postman-collection/node_modules/lodash@4.17.21', 'node_modules/uuid@8.3.2'],
    ],
    ['the last vulnerable lodash', { 'node_modules/lodash': { version: '4.17.23' } }, ['node_modules/lodash@4.17.23']],
    [
      'the fixes',
      { 'node_modules/lodash': { version: '4.18.0' }, 'node_modules/a/node_modules/uuid': { version: '11.1.1' } },
      [],
    ],
    [
      'names that only end alike',
      { 'node_modules/lodash.merge': { version: '4.6.2' }, 'node_modules/@types/uuid': { version: '8.0.0' } },
      [],
    ],
    [
      'a version that is not semver counts as below',
      { 'node_modules/uuid': { version: 'latest' } },
      ['node_modules/uuid@latest'],
    ],
  ])('%s', (_title, packages, want) => {
    expect(belowFloor({ packages }).map((l) => `${l.path}@${l.version}`)).toEqual(want);
  });

  it('refuses a lockfile without a packages map', () => {
    expect(() => belowFloor(/** @type {any} */ ({ lockfileVersion: 1, dependencies: {} }))).toThrow(
      /lockfileVersion 2 or 3/,
    );
  });

  it('the repository lockfile holds no version below a fix, and package.json overrides each one to a fixed range', () => {
    expect(belowFloor(read('package-lock.json'))).toEqual([]);
    const overrides = JSON.stringify(read('package.json').overrides ?? {});
    for (const f of FLOORS) {
      const range = new RegExp(`"${f.name}":"([^"]+)"`).exec(overrides)?.[1];
      expect(range, `no override for ${f.name}`).toBeDefined();
      expect(semver.gte(semver.minVersion(range), f.fixed), `${f.name} override ${range}`).toBe(true);
    }
  });
});

describe('auditVerdict', () => {
  const refused = JSON.stringify({
    message: '405 Method Not Allowed - POST https://registry.example/-/npm/v1/security/advisories/bulk',
    statusCode: 405,
  });
  const report = (counts) =>
    JSON.stringify({
      auditReportVersion: 2,
      vulnerabilities: {},
      metadata: { vulnerabilities: { info: 0, low: 0, moderate: 0, high: 0, critical: 0, ...counts } },
    });
  it.each([
    [
      'a registry that answers 405',
      { stdout: refused, stderr: '', status: 1 },
      { checked: false, reason: expect.stringMatching(/^the registry answered 405 Method Not Allowed/) },
    ],
    [
      'no registry at all',
      { stdout: '', stderr: 'npm error code ENOTFOUND\nnpm error network request failed', status: 1 },
      { checked: false, reason: 'code ENOTFOUND' },
    ],
    ['a clean report', { stdout: report({}), stderr: '', status: 0 }, { checked: true, ok: true }],
    [
      'a moderate advisory at level high',
      { stdout: report({ moderate: 2 }), stderr: '', status: 0 },
      { checked: true, ok: true },
    ],
    ['a high advisory', { stdout: report({ high: 1 }), stderr: '', status: 1 }, { checked: true, ok: false }],
  ])('%s', (_title, run, want) => expect(auditVerdict(run)).toMatchObject(want));

  it('fails a moderate advisory at level moderate', () => {
    expect(auditVerdict({ stdout: report({ moderate: 1 }), stderr: '', status: 1 }, 'moderate')).toMatchObject({
      checked: true,
      ok: false,
    });
  });
});
