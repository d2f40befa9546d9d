// An upload held open: the request's head and a first chunk are sent, the rest when the test says.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/**
 * Starts a PUT of `total` bytes and sends the first `first` of them.
 * @param {string} url
 * @param {{ ca?: string, headers: Record<string, string>, total: number, first: number }} o
 */
export function openUpload(url, { ca, headers, total, first }) {
  let settle;
  const answered = new Promise((resolve) => {
    settle = resolve;
  });
  const request = url.startsWith('https:') ? httpsRequest : httpRequest;
  const req = request(url, { method: 'PUT', ca, headers: { ...headers, 'content-length': String(total) } });
  req.on('response', (res) => {
    const chunks = [];
    res.on('data', (c) => chunks.push(c));
    res.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      settle({ status: res.statusCode, text });
    });
  });
  req.on('error', (error) => settle({ status: 0, text: String(error.message) }));
  req.write(Buffer.alloc(first, 1));
  return {
    /** sends the rest; resolves with the answer (`status` 0: the connection failed) */
    finish() {
      req.end(Buffer.alloc(total - first, 1));
      return answered;
    },
    /** the answer, whenever it comes */
    answered,
    abort: () => req.destroy(),
  };
}

/**
 * Waits until `check` returns a truthy value, polling (bounded by `tries`).
 * @template T
 * @param {() => Promise<T> | T} check
 * @param {string} what  for the error
 * @returns {Promise<T>}
 */
export async function waitUntil(check, what, { tries = 400, intervalMs = 25 } = {}) {
  for (let i = 0; i < tries; i++) {
    const value = await check();
    if (value) return value;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`timed out waiting until ${what}`);
}
