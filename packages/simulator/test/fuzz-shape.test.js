// Request-shape fuzzing of the edge (issue 43): where fuzz.test.js varies what a request means,
// this varies how it arrives: raw HTTP/1.1 framing (Content-Length exact, short, doubled or beside
// Transfer-Encoding; chunks good and bad; a method that is no token), sizes on both sides of each
// limit of src/limits.js (request target, request line and headers, JSON body) and the pace of the
// bytes (at once, or in pieces with pauses, a slow sender). Each request must get an answer, never
// a reset nor a 5xx, with the status the first rule it breaks calls for (in the order the edge
// checks them); an answer from an operation must be one the spec declares; the server must answer
// a plain request after each.
//
// Bounded: SHAPE_FUZZ_RUNS requests (default 80, seed SHAPE_FUZZ_SEED, default 43), against
// timeouts of a few seconds (SHORT). A failure prints the shrunk shape.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADER_LIMIT, JSON_BODY_LIMIT, URL_LIMIT } from '../src/limits.js';
import { open, within } from './support/raw.js';
import { AUTH, startTestSimulator, violationsOf, waitTask } from './support/sim.js';

const RUNS = Number(process.env.SHAPE_FUZZ_RUNS ?? 80);
const SEED = Number(process.env.SHAPE_FUZZ_SEED ?? 43);
const V3 = '/api/svc/v3';
// short enough that a body that never arrives costs little, long enough that a busy machine's
// pauses between the pieces of a head or body never reach them
const SHORT = { headersTimeoutMs: 10_000, uploadIdleTimeoutMs: 5_000, bodyTimeoutMs: 5_000, idleTimeoutMs: 15_000 };
const WRONG_AUTH = `Basic ${Buffer.from('admin:not-the-password').toString('base64')}`;

let t;
/** An image that exists (GET), and a UUID that names none (an upload to it is refused). */
let imageUuid;
const NO_IMAGE = '00000000-0000-4000-8000-00000000fa11';

beforeAll(async () => {
  t = await startTestSimulator({ http: true, ...SHORT });
  const res = await t.call('POST', `${V3}/images`, {
    body: {
      api_version: '3.1.0',
      metadata: { kind: 'image' },
      spec: { name: 'shape', resources: { image_type: 'DISK_IMAGE' } },
    },
  });
  expect(res.status).toBe(202);
  await waitTask(t.call, res.body.status.execution_context.task_uuid);
  imageUuid = res.body.metadata.uuid;
});
afterAll(async () => {
  await t?.close();
});

/**
 * The operations a shape is sent to: a JSON body (`json`), an upload's bytes, or no body expected.
 * @type {{ method: string, path: () => string, body: 'json' | 'bytes' | 'none' }[]}
 */
const TARGETS = [
  { method: 'POST', path: () => `${V3}/images/list`, body: 'json' },
  { method: 'POST', path: () => `${V3}/batch`, body: 'json' },
  { method: 'GET', path: () => `${V3}/images/${imageUuid}`, body: 'none' },
  { method: 'PUT', path: () => `${V3}/images/${NO_IMAGE}/file`, body: 'bytes' },
  { method: 'GET', path: () => '/api/svc/v0.8/images', body: 'none' },
];

const shapes = fc.record({
  target: fc.nat(TARGETS.length - 1),
  method: fc.constantFrom('valid', 'valid', 'valid', 'valid', 'not-a-token'),
  // the request target's length, about URL_LIMIT: under, exactly at, one over, far over
  url: fc.constantFrom('short', 'short', 'at-limit', 'over-limit', 20_000, 70_000),
  // the head's size about HEADER_LIMIT: nothing added, well under, one filler header over it
  head: fc.constantFrom('none', 'none', 'under', 'over', 'far-over'),
  auth: fc.constantFrom('good', 'good', 'good', 'none', 'wrong'),
  framing: fc.constantFrom(
    'none',
    'length',
    'length',
    'short',
    'two-lengths',
    'length-and-chunked',
    'chunked',
    'bad-chunk',
  ),
  // the body's size about JSON_BODY_LIMIT
  size: fc.constantFrom(0, 2, 1000, JSON_BODY_LIMIT, JSON_BODY_LIMIT + 1),
  // the pace: the bytes at once, or in 2-6 pieces with pauses of up to 30 ms
  pieces: fc.integer({ min: 1, max: 6 }),
  pauseMs: fc.integer({ min: 0, max: 30 }),
});

/** The bytes of a shape and what the edge must answer to it. */
function build(shape) {
  const target = TARGETS[shape.target];
  const base = target.path();
  const pad = (n) => (n > base.length + 3 ? `${base}?x=${'a'.repeat(n - base.length - 3)}` : base);
  const path =
    shape.url === 'short'
      ? base
      : shape.url === 'at-limit'
        ? pad(URL_LIMIT)
        : shape.url === 'over-limit'
          ? pad(URL_LIMIT + 1)
          : pad(shape.url);
  const body =
    shape.framing === 'none'
      ? Buffer.alloc(0)
      : target.body === 'bytes'
        ? Buffer.alloc(shape.size, 0x5a)
        : Buffer.from(`{}${' '.repeat(Math.max(0, shape.size - 2))}`);
  /** @type {[string, string][]} */
  const headers = [['Host', '127.0.0.1']];
  // the filler first, so that the head's size is passed before any framing header is read
  const bare = `${shape.method === 'valid' ? target.method : 'G@T'} ${path} HTTP/1.1\r\n`;
  if (shape.head === 'under') headers.push(['X-Filler', 'f'.repeat(Math.max(0, HEADER_LIMIT - bare.length - 1024))]);
  if (shape.head === 'over') headers.push(['X-Filler', 'f'.repeat(HEADER_LIMIT + 1)]);
  if (shape.head === 'far-over') headers.push(['X-Filler', 'f'.repeat(4 * HEADER_LIMIT)]);
  if (shape.auth === 'good') headers.push(['Authorization', AUTH]);
  if (shape.auth === 'wrong') headers.push(['Authorization', WRONG_AUTH]);
  if (shape.framing !== 'none')
    headers.push(['Content-Type', target.body === 'bytes' ? 'application/octet-stream' : 'application/json']);
  let payload = body;
  const declared = shape.framing === 'short' ? body.length + 10 : body.length;
  if (['length', 'short', 'two-lengths', 'length-and-chunked'].includes(shape.framing))
    headers.push(['Content-Length', String(declared)]);
  if (shape.framing === 'two-lengths') headers.push(['Content-Length', String(declared + 1)]);
  if (['chunked', 'bad-chunk', 'length-and-chunked'].includes(shape.framing)) {
    headers.push(['Transfer-Encoding', 'chunked']);
    const size = shape.framing === 'bad-chunk' ? 'zz' : body.length.toString(16);
    payload = Buffer.concat([
      Buffer.from(body.length || shape.framing === 'bad-chunk' ? `${size}\r\n` : ''),
      body,
      Buffer.from(body.length || shape.framing === 'bad-chunk' ? '\r\n0\r\n\r\n' : '0\r\n\r\n'),
    ]);
  }
  const headBytes = bare + headers.map(([k, v]) => `${k}: ${v}\r\n`).join('') + '\r\n';
  const bytes = Buffer.concat([Buffer.from(headBytes, 'latin1'), payload]);

  // the first rule broken, in the order the edge meets them: the parser's (method, a request line
  // past the head's limit, the head's size, the framing headers), the target's length, the
  // credentials, the declared size, then the body itself
  /** @type {{ status?: number, oneOf?: number[] }} */
  let expected;
  if (shape.method !== 'valid') expected = { status: 400 };
  // a request line past the head's limit: 414 when the parser stopped in the chunk where the line
  // starts, 431 (whose message, "request line and headers", is as true) when in a later one
  else if (bare.length > HEADER_LIMIT) expected = { oneOf: shape.pieces === 1 ? [414] : [414, 431] };
  else if (shape.head === 'over' || shape.head === 'far-over')
    expected = path.length > URL_LIMIT ? { oneOf: [414, 431] } : { status: 431 };
  else if (shape.framing === 'two-lengths' || shape.framing === 'length-and-chunked') expected = { status: 400 };
  else if (path.length > URL_LIMIT) expected = { status: 414 };
  else if (shape.auth !== 'good') expected = { status: 401 };
  else if (
    target.body === 'json' &&
    shape.framing !== 'none' &&
    declared > JSON_BODY_LIMIT &&
    shape.framing !== 'chunked' &&
    shape.framing !== 'bad-chunk'
  )
    expected = { status: 413 };
  else if (target.body === 'json' && shape.framing === 'bad-chunk') expected = { status: 400 };
  else if (target.body === 'json' && shape.framing === 'chunked' && body.length > JSON_BODY_LIMIT)
    expected = { status: 413 };
  else if (target.body === 'json' && shape.framing === 'short') expected = { status: 408 };
  // a body the operation does not read (GET) or an upload to no image: the operation's own answer
  else expected = { oneOf: [200, 202, 400, 404, 408, 413, 415, 422] };
  return { bytes, path, method: target.method, expected };
}

describe('request shapes', () => {
  it(`answers ${RUNS} generated request shapes with the status of the first rule each breaks (seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(shapes, async (shape) => {
        const { bytes, path, method, expected } = build(shape);
        const c = await open(t.sim.url);
        try {
          const step = Math.ceil(bytes.length / shape.pieces);
          for (let at = 0; at < bytes.length; at += step) {
            if (!(await c.write(bytes.subarray(at, at + step)))) break; // answered and closed: the rest unsent
            if (shape.pauseMs) await new Promise((resolve) => setTimeout(resolve, shape.pauseMs));
          }
          const answer = await within(c.next('an answer'), 'an answer to the request', 15_000);
          if (expected.status) expect(answer.status).toBe(expected.status);
          else expect(expected.oneOf).toContain(answer.status);
          expect(answer.headers['content-type']).toMatch(/^(application\/json|text\/html)/);
          // the edge's own refusals name the limit or the rule
          if ([414, 431].includes(answer.status)) {
            const error = JSON.parse(answer.body); // the v3 error body, or the element API's { message }
            expect(error.message_list?.[0].message ?? error.message).toMatch(/limit of \d+ bytes/);
          }
          if (answer.status !== 401 && ![400, 408, 413, 414, 431].includes(answer.status))
            expect(
              await violationsOf(path, method, answer.status, answer.headers['content-type'], answer.body),
            ).toEqual([]);
          // an answer that closes the connection does close it (nothing left holding the socket)
          if (answer.headers.connection === 'close') await within(c.closed, 'the close after the answer', 15_000);
        } finally {
          c.socket.destroy();
        }
        const alive = await t.call('GET', `${V3}/images/${imageUuid}`);
        expect(alive.status).toBe(200);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(t.violations).toEqual([]);
  }, 600_000);
});
