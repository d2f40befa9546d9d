// Shared harness of the contract suites: a client per API against its Prism mock, the
// sl-violations check after every test, coverage of operations, and the error-status table.

import { deref, exampleOf, requestBodyOf } from '@svc/oas';
import type { Client, Middleware } from 'openapi-fetch';
import { Agent, type Dispatcher } from 'undici';
import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  jsonMediaType,
  loadBundle,
  type Operation,
  operations,
  responseSchemaPointer,
  SchemaValidator,
} from '../src/spec.js';

/** The credentials every suite's client is made with; each request must carry them. */
export const credentials = { username: 'admin', password: 'contract-secret' };

// Every request on a connection of its own (`Connection: close`): on a busy machine the test can
// stall longer than Prism's 5 s keep-alive, and Prism then closes a reused connection under a POST
// that no client may send again ("other side closed", seen at load average 40).
const ownConnection = new Agent().compose(
  (dispatch: Dispatcher['dispatch']) => (options, handler) => dispatch({ ...options, reset: true }, handler),
);

/** What every suite's client is made with beside its base URL: the credentials and the fetch above. */
export const clientOptions = {
  ...credentials,
  fetch: (request: Request, init?: RequestInit) =>
    fetch(request, { ...init, dispatcher: ownConnection } as RequestInit),
};
const basicAuth = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;

/** One exchange seen by the recorder: what the client sent and Prism's verdict. */
export interface Exchange {
  method: string;
  /** Path and query the client built, e.g. `/images/c2d4.../file`. */
  url: string;
  schemaPath: string;
  authorization: string | null;
  contentType: string | null;
  status: number;
  violations: string | null;
}

/** Records every exchange, with Prism's `sl-violations` header (set when a request or response breaks the spec). */
export function recorder() {
  const exchanges: Exchange[] = [];
  const middleware: Middleware = {
    onResponse({ request, response, schemaPath }) {
      const { pathname, search } = new URL(request.url);
      exchanges.push({
        method: request.method,
        url: pathname + search,
        schemaPath,
        authorization: request.headers.get('authorization'),
        contentType: request.headers.get('content-type'),
        status: response.status,
        violations: response.headers.get('sl-violations'),
      });
    },
  };
  return { exchanges, middleware };
}

/** Values of the required path and header parameters, from the parameters' examples (`exampleOf`). */
export function exampleParams(doc: any, op: Operation) {
  const path: Record<string, string> = {};
  const header: Record<string, string> = {};
  for (const p of op.op.parameters) {
    if (p.in === 'path') path[p.name] = exampleOf(doc, p) as string;
    if (p.in === 'header' && p.required) header[p.name] = exampleOf(doc, p) as string;
  }
  return { path, header };
}

/** Everything a contract suite of one API needs; hooks are registered on creation. */
export interface Contract<C> {
  doc: any;
  ops: Operation[];
  client: () => C;
  exchanges: Exchange[];
  /** Marks an operation as exercised (the coverage test and `npm run operations` key on it); throws when the bundle has no such operationId. */
  cover(operationId: string): Operation;
  /** The body validates against the schema the spec declares for this operation and status. */
  expectConforms(op: Operation, status: number, body: unknown): void;
  /** The last request the client sent: method, path with parameters filled in and query, content type. */
  expectSent(want: { method: string; url: string; contentType?: string | null }): void;
}

/**
 * Sets up a contract suite: a client of `api` against its mock (from the global setup) and, after
 * each test, the check that every request carried the credentials and that Prism found no
 * violation (`sl-violations`) in it or in its answer.
 */
export function contract<C extends Client<any>>(api: string, make: (baseUrl: string) => C): Contract<C> {
  const doc = loadBundle(api);
  const ops = operations(api, doc);
  const schemas = new SchemaValidator(api, doc);
  const { exchanges, middleware } = recorder();
  const covered = new Set<string>();
  let client: C;

  beforeAll(() => {
    const url = inject('mocks')[api];
    if (!url) throw new Error(`no mock of ${api} was started (is it in redocly.yaml?)`);
    client = make(url);
    client.use(middleware);
  });

  afterEach(() => {
    // Prism sets sl-violations when a request or its response breaks the spec.
    const broken = exchanges.filter((e) => e.violations !== null);
    expect(broken, JSON.stringify(broken)).toEqual([]);
    for (const e of exchanges) expect(e.authorization, `${e.method} ${e.url}`).toBe(basicAuth);
    exchanges.length = 0;
  });

  return {
    doc,
    ops,
    exchanges,
    client: () => client,
    cover(operationId) {
      const op = ops.find((o) => o.operationId === operationId);
      if (!op) throw new Error(`no operation ${operationId} in dist/${api}.json`);
      covered.add(op.operationId);
      return op;
    },
    expectConforms(op, status, body) {
      expect(schemas.validate(responseSchemaPointer(doc, op.path, op.method, String(status)), body)).toEqual([]);
    },
    expectSent(want) {
      const last = exchanges.at(-1);
      expect(
        last && {
          method: last.method,
          url: last.url,
          ...('contentType' in want ? { contentType: last.contentType } : {}),
        },
      ).toEqual(want);
    },
    get covered() {
      return covered;
    },
  } as Contract<C> & { covered: Set<string> };
}

/** A test (to be declared last) that fails, naming them, when operationIds of the bundle have no success test. */
export function coverageTest(c: Contract<unknown>) {
  it('covers every operationId of the bundle', () => {
    const covered: Set<string> = (c as any).covered;
    expect(c.ops.map((o) => o.operationId).filter((id) => !covered.has(id))).toEqual([]);
  });
}

/**
 * Every declared 4xx/5xx status of every operation, asked of the mock with `Prefer: code=...`:
 * the status comes back and the body validates against the declared schema.
 */
export function errorStatusSuite<C extends Client<any>>(api: string, c: Contract<C>) {
  describe(`${api}: error responses (Prefer: code=...)`, () => {
    const cases = c.ops.flatMap((op) =>
      Object.keys(op.op.responses)
        .filter((status) => /^[45]\d\d$/.test(status))
        .map((status) => ({ op, status })),
    );
    it.each(cases.map((x) => [`${x.op.operationId} ${x.status}`, x] as const))('%s', async (_, { op, status }) => {
      const body = requestBodyOf(c.doc, op.op);
      const binary = body?.kind === 'binary';
      const { path, header } = exampleParams(c.doc, op);
      const { response, error } = await c.client().request(
        op.method as any,
        op.path as any,
        {
          params: { path, header },
          body: binary ? new Uint8Array([1, 2, 3]) : body?.example,
          headers: {
            Prefer: `code=${status}`,
            // Prism negotiates on Accept; production sends the 401 page whatever the client accepts.
            ...(status === '401' ? { Accept: 'application/json, text/html;q=0.9' } : {}),
            ...(binary ? { 'Content-Type': body.mediaType } : {}),
          },
        } as any,
      );
      expect(response.status).toBe(Number(status));
      const declared = deref<any>(c.doc, op.op.responses[status]);
      if (jsonMediaType(declared.content)) {
        expect(error).toBeTypeOf('object');
        c.expectConforms(op, Number(status), error);
      } else {
        // 401 is not JSON in production: openapi-fetch hands back the text.
        expect(response.headers.get('content-type')).toMatch(/^text\/html/);
        expect(typeof error).toBe('string');
      }
    });
  });
}
