// The operation index: for every operationId, where everything about it lives (the source YAML,
// the explorer, the client, the contract test, the simulator's handler). scripts/operations.mjs writes it as
// dist/operations.json and docs/operations.md.

import { explorerLink, operations, serverBasePath } from '@svc/oas';
import ts from 'typescript';

/**
 * One operation of the index. Files are relative to the repository root; lines are 1-based.
 * @typedef {object} IndexEntry
 * @property {string} api
 * @property {string} operationId
 * @property {string} method        upper case
 * @property {string} path          the path template of the spec (`/images/{uuid}`)
 * @property {string} basePath      of the API's first server (`/api/svc/v3`)
 * @property {string} summary
 * @property {string} tag           the operation's first tag
 * @property {{ file: string, line: number }} source   where its operationId is written
 * @property {string} explorer      the explorer's deep link, relative to the page (`?api=central#/Images/images_create`)
 * @property {{ factory: string | undefined, file: string | undefined, line: number | undefined, call: string }} client
 *   the typed call of the generated client: `factory` (`createCentralClient`, where it is defined) and `call` (`.POST('/images')`)
 * @property {{ name: string, file: string, line: number }[]} clientMethods  workflow methods whose TSDoc names it
 * @property {{ title: string, file: string, line: number }[]} contractTests  tests that `cover('<operationId>')`
 * @property {{ file: string, line: number } | undefined} simulator  its handler in the simulator's tables
 */

const line = (sf, node) => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;

function walk(node, visit) {
  visit(node);
  ts.forEachChild(node, (child) => walk(child, visit));
}

/**
 * The client's factories and workflow methods, read from its TypeScript sources: every
 * `create<Api>Client` function, and every member of an `<Api>Workflows` interface with the text of
 * its TSDoc (which names the operations it calls, by operationId or as `` `METHOD /path` ``).
 * @param {{ file: string, text: string }[]} files client sources (not the generated ones)
 * @returns {{ factories: Map<string, { name: string, file: string, line: number }>, methods: { api: string, name: string, doc: string, file: string, line: number }[] }}
 *   keyed and tagged by the lower-case API name (`CentralWorkflows` -> `central`)
 */
export function clientSurface(files) {
  const factories = new Map();
  const methods = [];
  for (const { file, text } of files) {
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    walk(sf, (node) => {
      if (ts.isFunctionDeclaration(node) && node.name) {
        const api = /^create(\w+)Client$/.exec(node.name.text)?.[1];
        if (api) factories.set(api.toLowerCase(), { name: node.name.text, file, line: line(sf, node) });
      }
      if (!ts.isInterfaceDeclaration(node)) return;
      const api = /^(\w+)Workflows$/.exec(node.name.text)?.[1]?.toLowerCase();
      if (!api) return;
      for (const member of node.members) {
        if (!member.name) continue;
        const name = member.name.getText(sf);
        const doc = (ts.getLeadingCommentRanges(text, member.getFullStart()) ?? [])
          .map((r) => text.slice(r.pos, r.end))
          .join('\n');
        const known = methods.find((m) => m.api === api && m.name === name);
        if (known)
          known.doc += doc; // an overload
        else methods.push({ api, name, doc, file, line: line(sf, member) });
      }
    });
  }
  return { factories, methods };
}

/** The operations of one API that a TSDoc text names: by operationId, `` `METHOD /path` `` or a backquoted path with one operation. */
function named(doc, ops) {
  const found = new Set();
  for (const o of ops) {
    const id = o.operationId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (new RegExp(`(?<![\\w])${id}(?![\\w])`).test(doc)) found.add(o.operationId);
  }
  for (const [, method, path] of doc.matchAll(/`(?:(GET|PUT|POST|DELETE|PATCH|HEAD|OPTIONS|TRACE) )?(\/[^`\s]*)`/g)) {
    const matches = ops.filter((o) => o.path === path && (!method || o.method === method.toLowerCase()));
    if (matches.length === 1) found.add(matches[0].operationId);
  }
  return found;
}

/**
 * The contract tests of the suites: every `cover('<operationId>')` call, with the suite's API (its
 * `contract('<api>', …)` call) and the title and line of the `it(…)` around it.
 * @param {{ file: string, text: string }[]} files contract suite sources
 * @returns {{ api: string | undefined, operationId: string, title: string, file: string, line: number }[]}
 */
export function contractTests(files) {
  const out = [];
  for (const { file, text } of files) {
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    let api;
    const covers = [];
    walk(sf, (node) => {
      if (!ts.isCallExpression(node) || !node.arguments.length || !ts.isStringLiteral(node.arguments[0])) return;
      const callee = ts.isPropertyAccessExpression(node.expression)
        ? node.expression.name.text
        : ts.isIdentifier(node.expression)
          ? node.expression.text
          : '';
      if (callee === 'contract' && api === undefined) api = node.arguments[0].text;
      if (callee === 'cover') covers.push(node);
    });
    for (const call of covers) {
      let test = call.parent;
      while (test && !(ts.isCallExpression(test) && ts.isIdentifier(test.expression) && test.expression.text === 'it'))
        test = test.parent;
      const title = test?.arguments[0] && ts.isStringLiteralLike(test.arguments[0]) ? test.arguments[0].text : '';
      out.push({ api, operationId: call.arguments[0].text, title, file, line: line(sf, test ?? call) });
    }
  }
  return out;
}

/**
 * The name of a property, method or shorthand member of an object literal, when it is written out.
 * @param {import('typescript').ObjectLiteralElementLike} member
 */
function memberName(member) {
  if (ts.isSpreadAssignment(member) || !member.name) return undefined;
  return ts.isIdentifier(member.name) || ts.isStringLiteral(member.name) ? member.name.text : undefined;
}

/**
 * The simulator's handler tables, read from its sources: the members of the object literal
 * exported as `handlers` by each API adapter (`packages/simulator/src/apis/<api>/index.js`, keyed
 * by operationId). A table outside `apis/<api>/` serves any API.
 * @param {{ file: string, text: string }[]} files simulator sources
 * @returns {{ api: string | undefined, operationId: string, file: string, line: number }[]}
 */
export function simulatorHandlers(files) {
  const out = [];
  for (const { file, text } of files) {
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const api = /(?:^|\/)apis\/([^/]+)\//.exec(file)?.[1];
    walk(sf, (node) => {
      if (!ts.isVariableDeclaration(node) || !ts.isIdentifier(node.name) || node.name.text !== 'handlers') return;
      if (!node.initializer || !ts.isObjectLiteralExpression(node.initializer)) return;
      for (const member of node.initializer.properties) {
        const operationId = memberName(member);
        if (operationId) out.push({ api, operationId, file, line: line(sf, member) });
      }
    });
  }
  return out;
}

/**
 * Builds the index and lists what is wrong with it: an operation without an operationId, without a
 * contract test or without a simulator handler; a `cover` naming no operation of its suite's API; a
 * simulator handler naming no operation.
 * @param {object} input
 * @param {{ name: string, doc: Record<string, any> }[]} input.apis the bundles, in `redocly.yaml` order
 * @param {(api: string, path: (string|number)[]) => { file: string, line: number }} input.source
 *   where a bundle location is written in the sources (repository-relative file)
 * @param {{ file: string, text: string }[]} input.clientFiles
 * @param {{ file: string, text: string }[]} input.testFiles
 * @param {{ file: string, text: string }[]} input.simulatorFiles
 * @returns {{ entries: IndexEntry[], problems: string[] }}
 */
export function operationIndex({ apis, source, clientFiles, testFiles, simulatorFiles }) {
  const { factories, methods } = clientSurface(clientFiles);
  const tests = contractTests(testFiles);
  const handlers = simulatorHandlers(simulatorFiles);
  const entries = [];
  const problems = [];
  for (const { name: api, doc } of apis) {
    const ops = operations(doc);
    const basePath = serverBasePath(doc.servers?.[0]?.url);
    const factory = factories.get(api) ?? { name: undefined, file: undefined, line: undefined };
    if (!factory.name) problems.push(`${api}: the client has no create<Api>Client factory for it`);
    const mentions = methods.filter((m) => m.api === api).map((m) => ({ method: m, ids: named(m.doc, ops) }));
    for (const o of ops) {
      if (!o.operationId) {
        problems.push(`${api}: ${o.method.toUpperCase()} ${o.path} has no operationId`);
        continue;
      }
      const tag = o.operation.tags?.[0] ?? 'default';
      const covering = tests.filter((t) => t.api === api && t.operationId === o.operationId);
      if (!covering.length)
        problems.push(
          `${api}: ${o.operationId} has no contract test (no cover('${o.operationId}') in a suite of contract('${api}'))`,
        );
      const handler = handlers.find((h) => h.operationId === o.operationId && (h.api ?? api) === api);
      if (!handler)
        problems.push(
          `${api}: ${o.operationId} has no simulator handler (no ${o.operationId} in the handlers of packages/simulator/src/apis/${api}/)`,
        );
      entries.push({
        api,
        operationId: o.operationId,
        method: o.method.toUpperCase(),
        path: o.path,
        basePath,
        summary: o.operation.summary ?? '',
        tag,
        source: source(api, ['paths', o.path, o.method, 'operationId']),
        explorer: explorerLink(api, tag, o.operationId),
        client: {
          factory: factory.name,
          file: factory.file,
          line: factory.line,
          call: `.${o.method.toUpperCase()}('${o.path}')`,
        },
        clientMethods: mentions
          .filter((m) => m.ids.has(o.operationId))
          .map(({ method: { name, file, line } }) => ({ name, file, line })),
        contractTests: covering.map(({ title, file, line }) => ({ title, file, line })),
        simulator: handler && { file: handler.file, line: handler.line },
      });
    }
  }
  for (const t of tests) {
    if (!entries.some((e) => e.api === t.api && e.operationId === t.operationId)) {
      problems.push(
        `${t.file}:${t.line}: cover('${t.operationId}') names no operation of ${t.api === undefined ? 'a contract(...) suite' : `dist/${t.api}.json`}`,
      );
    }
  }
  for (const h of handlers) {
    if (!entries.some((e) => e.operationId === h.operationId && (h.api ?? e.api) === e.api))
      problems.push(
        `${h.file}:${h.line}: simulator handler ${h.operationId} names no operation of ${h.api ? `dist/${h.api}.json` : 'the bundles'}`,
      );
  }
  return { entries, problems };
}

const cell = (text) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');

/**
 * `docs/operations.md`: one table per API, links relative to `docs/`.
 * @param {IndexEntry[]} entries
 * @param {string} explorerOrigin where `npm start` serves the explorer (`http://127.0.0.1:8080/`)
 * @returns {string}
 */
export function toMarkdown(entries, explorerOrigin) {
  const link = (label, file, at) => `[${cell(label)}](../${encodeURI(file)}#L${at})`;
  const lines = [
    '<!-- Generated by scripts/operations.mjs (npm run operations, part of npm run build). Do not edit. -->',
    '# Operation index',
    '',
    'Every operation of every API: where its description is written, where to try it, the client call',
    `the contract test that calls it and the simulator handler that answers it. Explorer links open the page \`npm start\` serves (${explorerOrigin}).`,
    'The same data, for tools: `dist/operations.json`.',
  ];
  for (const api of [...new Set(entries.map((e) => e.api))]) {
    const rows = entries.filter((e) => e.api === api);
    lines.push(
      '',
      `## ${api} (\`${rows[0].basePath}\`)`,
      '',
      '| operationId | method and path | tag | source | explorer | client | contract test | simulator |',
      '|---|---|---|---|---|---|---|---|',
    );
    for (const e of rows) {
      const call = e.client.factory
        ? `${link(`${e.client.factory}()`, e.client.file, e.client.line)}\`${cell(e.client.call)}\``
        : '';
      const client = [call, ...e.clientMethods.map((m) => link(`${m.name}()`, m.file, m.line))]
        .filter(Boolean)
        .join('<br>');
      const tests = e.contractTests.map((t) => link(t.title || t.file, t.file, t.line)).join('<br>');
      const simulator = e.simulator
        ? link(
            `${e.simulator.file.replace(/^packages\/simulator\/src\//, '')}:${e.simulator.line}`,
            e.simulator.file,
            e.simulator.line,
          )
        : '';
      lines.push(
        `| \`${e.operationId}\` | \`${e.method} ${cell(e.path)}\`<br>${cell(e.summary)} | ${cell(e.tag)} | ${link(`${e.source.file}:${e.source.line}`, e.source.file, e.source.line)} | [open](${explorerOrigin}${e.explorer}) | ${client} | ${tests} | ${simulator} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
