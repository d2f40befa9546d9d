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
