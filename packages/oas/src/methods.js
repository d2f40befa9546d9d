// Its own module so that index.js and subdocument.js import it without a cycle.

/** The HTTP methods a path item may hold, in the order OpenAPI lists them. */
export const HTTP_METHODS = /** @type {const} */ ([
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
]);
Object.freeze(HTTP_METHODS);
