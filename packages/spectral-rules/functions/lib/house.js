import { createRulesetFunction } from '@stoplight/spectral-core';
import { operationsOf } from '@svc/oas';

/**
 * This service's conventions that several house rules share (not a Spectral function itself, so it
 * is not listed under `functions:` in ruleset.yaml). Reading the document is `@svc/oas`'s job.
 * @module
 */

/** A version path segment: `v` + digits, optionally `.digits` (`v3`, `v0.8`, `v2.0`). */
export const VERSION_SEGMENT = /^v\d+(?:\.\d+)?$/;

/** A templated path segment such as `{uuid}`. */
export const PARAM_SEGMENT = /^\{[^{}]+\}$/;

/** Describes a schema keyword value for a message: `"integer"`, `absent`. */
export const show = (value) => (value === undefined ? 'absent' : JSON.stringify(value));

/** `['components', 'schemas', 'Image']` -> `components.schemas.Image` (for messages). */
export const printPath = (path) => path.map(String).join('.');

/**
 * A Spectral function given `$.paths[*]` (with `resolved: false`) that checks each operation of
 * the path item: `check` returns that operation's findings.
 * @param {Record<string, any> | null} options the JSON schema of the rule's options
 * @param {(op: { doc: any, pathKey: string, name: string, method: string, operation: Record<string, any>,
 *   path: Array<string | number> }, options: any) => { message: string, path: Array<string | number> }[]} check
 *   `name` is `GET /images`, for messages
 */
export function perOperation(options, check) {
  return createRulesetFunction({ input: { type: 'object' }, options }, (pathItem, opts, context) => {
    const doc = context.document.data;
    const pathKey = String(context.path[context.path.length - 1]);
    return operationsOf(doc, pathItem, context.path).flatMap((op) =>
      check({ ...op, doc, pathKey, name: `${op.method.toUpperCase()} ${pathKey}` }, opts),
    );
  });
}
