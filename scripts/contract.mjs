// `npm run contract -- --target https://host:9440 --user U [--insecure] [--api central]`
// Contract mode against a real server: a `prism proxy --errors` per API in front of the target,
// the read-only operations (lists, gets, polls) called through it, and every response that does
// not match the spec reported by operation and field. The password comes from $SVC_PASSWORD
// (or the variable named by --password-env) and is never printed.
// Exit 0: every response conforms; 1: violations; 2: usage or start-up error.
import { existsSync, readFileSync } from 'node:fs';
import { integer, parseCommandLine } from '@svc/args';
import { startPrism } from '@svc/mock';
import { serverBasePath } from '@svc/oas';
import { apis, shownPath } from '@svc/oas/apis';
import { formatReport, runReadOnly } from './lib/contract-live.mjs';

const USAGE =
  'Usage: npm run contract -- --target https://host:9440 --user <name> [--insecure] [--api <name>]... [--password-env SVC_PASSWORD]';

/** Reads and checks the options; every error names the option and the rule. */
function options() {
  const { values } = parseCommandLine({
    options: {
      target: { type: 'string' },
      user: { type: 'string' },
      'password-env': { type: 'string', default: 'SVC_PASSWORD' },
      insecure: { type: 'boolean', default: false },
      api: { type: 'string', multiple: true },
      'timeout-ms': { type: 'string', default: '60000', check: integer(1) },
    },
  });
  if (!values.target)
    throw new Error('--target is required: the origin of the server, e.g. https://pc.example.internal:9440');
  let target;
  try {
    target = new URL(values.target);
  } catch {
    throw new Error(`--target "${values.target}" is not a URL: give the origin, e.g. https://pc.example.internal:9440`);
  }
  if (!/^https?:$/.test(target.protocol))
    throw new Error(`--target must be http:// or https://, not ${target.protocol}`);
  if (target.username || target.password)
    throw new Error('--target must not carry credentials: pass --user and set the password in the environment');
  if (target.pathname !== '/' || target.search)
    throw new Error(
      `--target is the origin only (scheme, host, port); each API's base path (${apis()
        .map((a) => a.name)
        .join(', ')}) is added from its servers`,
    );
  if (!values.user) throw new Error('--user is required: the user name for HTTP basic authentication');
  const envName = values['password-env'];
  const password = process.env[envName];
  if (!password)
    throw new Error(`the password is read from the environment variable ${envName}, which is empty or not set`);
  const known = apis();
  const chosen = values.api ?? known.map((a) => a.name);
  for (const name of chosen) {
    if (!known.some((a) => a.name === name))
      throw new Error(`--api "${name}" is not an API of redocly.yaml (${known.map((a) => a.name).join(', ')})`);
  }
  const timeoutMs = values['timeout-ms'];
  return {
    origin: target.origin,
    user: values.user,
    password,
    insecure: values.insecure,
    apis: known.filter((a) => chosen.includes(a.name)),
    timeoutMs,
  };
}

async function main() {
  let opts;
  try {
    opts = options();
  } catch (e) {
    console.error(`contract: ${e.message}\n${USAGE}`);
    return 2;
  }
  if (opts.insecure) {
    console.warn(
      'contract: WARNING --insecure: the Prism proxies accept any TLS certificate of the target (NODE_TLS_REJECT_UNAUTHORIZED=0 for them only)',
    );
  }
  const authorization = `Basic ${Buffer.from(`${opts.user}:${opts.password}`).toString('base64')}`;
  const redact = (text) => text.split(opts.password).join('***').split(authorization.slice(6)).join('***');

  const targets = [];
  for (const api of opts.apis) {
    if (!existsSync(api.bundleJson)) {
      console.error(`contract: ${shownPath(api.bundleJson)} is missing: run \`npm run bundle\` first`);
      return 2;
    }
    const doc = JSON.parse(readFileSync(api.bundleJson, 'utf8'));
    const upstream = `${opts.origin}${serverBasePath(doc.servers?.[0]?.url)}`;
    console.log(`contract: ${api.name}: prism proxy --errors in front of ${upstream} (user ${opts.user})`);
    targets.push({ api, doc, upstream });
  }
  // The proxies start side by side, in one Prism process; the calls go API by API.
  const prism = startPrism({ insecure: opts.insecure });
  const proxies = await Promise.allSettled(
    targets.map(({ api, upstream }) => prism.proxy({ document: api.bundleJson, upstream })),
  );
  let violations = 0;
  let unanswered = 0;
  try {
    const failed = proxies.find((p) => p.status === 'rejected');
    if (failed) {
      console.error(`contract: ${redact(failed.reason?.message ?? String(failed.reason))}`);
      return 2;
    }
    for (const [i, { api, doc }] of targets.entries()) {
      const proxy = /** @type {PromiseFulfilledResult<import('@svc/mock').RunningMock>} */ (proxies[i]).value;
      const results = await runReadOnly({
        api: api.name,
        doc,
        proxyUrl: proxy.url,
        authorization,
        timeoutMs: opts.timeoutMs,
      });
      for (const line of formatReport(results)) console.log(redact(line));
      violations += results.reduce((n, r) => n + r.violations.length, 0);
      unanswered += results.filter((r) => r.unchecked || !r.status).length;
      if (results.length && results.every((r) => r.status === 401))
        console.log(`contract: ${api.name}: every call got 401: check --user and the password variable`);
    }
  } finally {
    await prism.close();
  }
  console.log(
    `contract: ${violations} violation(s)${unanswered ? `, ${unanswered} call(s) not checked (no answer from the target)` : ''}`,
  );
  return violations || unanswered ? 1 : 0;
}

process.exitCode = await main();
