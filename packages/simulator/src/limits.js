// The limits of the simulator's edge, each in one place: what a request may weigh and how long
// each part of it may take. The README's "Limits" table lists them with their sources; the one
// limit production documents, 60 sub-requests per batch, lives in the central description
// (`maxItems` of `api_request_list`), so that validation names it.

/** Largest JSON request body of any operation, in bytes (413 above it; production's is not published). */
export const JSON_BODY_LIMIT = 1024 * 1024;

/** Deepest JSON request body accepted, in levels (the deepest schema of the APIs is about 8). */
export const JSON_DEPTH_LIMIT = 64;

/**
 * Largest request line and headers together, in bytes (Node's `maxHeaderSize`, its default): 431
 * above it, 414 when the request line alone is what passed it.
 */
export const HEADER_LIMIT = 16 * 1024;

/** Longest request target (path and query), in bytes: 414 above it (Apache httpd's `LimitRequestLine`). */
export const URL_LIMIT = 8 * 1024;

/**
 * Largest answer of a batch, in bytes: a sub-request whose answer would take the batch's past it
 * is answered in place with a 413 naming the limit (and the batch goes on).
 */
export const BATCH_ANSWER_LIMIT = 8 * 1024 * 1024;

/**
 * Bytes of batch answers held at once, in bytes: each batch takes BATCH_ANSWER_LIMIT of it before
 * its first sub-request runs (so that no batch waits half-built on another) and gives back what
 * its answer did not use, the rest once that answer is written out or its connection gone. Batches
 * past it wait their turn: four maximal batches build at once, where 100 at once held 1 GB.
 */
export const BATCH_MEMORY_LIMIT = 32 * 1024 * 1024;

/** How long the request line and headers may take to arrive, in ms (408; Node's `headersTimeout`). */
export const HEADERS_TIMEOUT_MS = 20_000;

/** How long a JSON request body may take to arrive whole, in ms (408). */
export const JSON_BODY_TIMEOUT_MS = 30_000;

/**
 * How long an upload's body may be silent, in ms, by default (`uploadIdleTimeoutMs`,
 * `--upload-idle-seconds`): then the upload is abandoned as a cut connection is, and answered 408.
 */
export const UPLOAD_IDLE_TIMEOUT_MS = 60_000;

/**
 * How long a connection may be silent with nothing to do, in ms: before its first request, or
 * with an answer that the client does not read. One waiting on its answer (a long poll, at most
 * 300 s) or sending a body is bounded by those instead.
 */
export const IDLE_TIMEOUT_MS = 120_000;

/** How long a connection is kept open between requests, in ms (Node's `keepAliveTimeout`; load balancers use 60 s). */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * After an answer sent before the request's body was read (a 401, a 413, an error), how long the
 * rest of the body is read and dropped before the connection is closed, in ms, and how much of it:
 * a close with unread bytes resets the connection, and a client still sending may lose the answer.
 */
export const LINGER_MS = 5_000;
export const LINGER_BYTES = 64 * 1024 * 1024;

/**
 * Bytes of answers kept for reuse (the list answers a polling client asks again), in bytes: a
 * maximal list page is some 3 MB, so 64 of them held 200 MB or more under an entry count.
 */
export const ANSWER_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * Largest answer kept for reuse, in bytes. Polling clients ask pages of some 20 to 100 images
 * (10 to 70 KB); a page of thousands (2 MB and more) is asked again rarely, and each kept one pins
 * its memory in the allocator's heap: with 64 such pages the process settled some 60 MB higher.
 */
export const ANSWER_CACHE_ENTRY_BYTES = 256 * 1024;
