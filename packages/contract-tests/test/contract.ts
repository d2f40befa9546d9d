// Helpers for the contract suites: a recording middleware and the bundle's example values.
import type { Middleware } from 'openapi-fetch';
import { deref, type Operation } from '../src/spec.js';

/** One exchange seen by the recorder. */
export interface Exchange {
  method: string;
  schemaPath: string;
  status: number;
  violations: string | null;
}

/** Records every exchange, with Prism's `sl-violations` header (set when a request or response breaks the spec). */
export function recorder() {
  const exchanges: Exchange[] = [];
  const middleware: Middleware = {
    onResponse({ request, response, schemaPath }) {
      exchanges.push({ method: request.method, schemaPath, status: response.status, violations: response.headers.get('sl-violations') });
    },
  };
  return { exchanges, middleware };
}

/** The first named example of an operation's JSON request body, from the bundle. */
export function requestExample(doc: any, op: Operation): unknown {
  const media = op.op.requestBody?.content?.['application/json'];
  if (!media) return undefined;
  const first = Object.values<any>(media.examples ?? {})[0];
  return first ? deref<any>(doc, first).value : undefined;
}

/** Path parameter values from the parameters' examples. */
export function pathParams(doc: any, op: Operation): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of op.op.parameters.map((x: any) => deref<any>(doc, x))) if (p.in === 'path') out[p.name] = p.example;
  return out;
}
