// Raw HTTP/1.1 over one connection (net or tls), for the tests of the edge: what the server
// answers to bytes no HTTP client would send, and when it closes. Each answer is parsed from the
// bytes as they arrive (interim 1xx answers apart); `closed` tells how the connection ended.
import { connect as netConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

/**
 * @typedef {object} RawAnswer
 * @property {number} status
 * @property {Record<string, string>} headers  lower-case names
 * @property {string} body
 */

/**
 * Opens a connection to `url`'s host and port.
 * @param {string} url  `http://127.0.0.1:port` or `https://...` (then `ca` is trusted)
 * @param {{ ca?: string }} [o]
 * @returns {Promise<{
 *   socket: import('node:net').Socket,
 *   write: (data: string | Buffer) => Promise<boolean>,
 *   next: (what?: string) => Promise<RawAnswer>,
 *   interim: number[],
 *   continued: Promise<number>,
 *   closed: Promise<{ error?: string }>,
 *   received: () => Buffer,
 * }>}
 *   `write` resolves false once the connection cannot take more; `next` resolves the next final
 *   answer (rejects when the connection closes first, naming `what`); `interim`: the 1xx statuses
 *   seen, `continued` resolves the first of them; `closed`: the error code the connection ended with, if any
 */
export async function open(url, { ca } = {}) {
  const { hostname, port, protocol } = new URL(url);
  const socket =
    protocol === 'https:'
      ? tlsConnect({ host: hostname, port: Number(port), ca, servername: 'localhost' })
      : netConnect({ host: hostname, port: Number(port) });
  await new Promise((resolve, reject) => {
    socket.once(protocol === 'https:' ? 'secureConnect' : 'connect', resolve);
    socket.once('error', reject);
  });
  let buffer = Buffer.alloc(0);
  let all = Buffer.alloc(0);
  /** @type {RawAnswer[]} */
  const answers = [];
  /** @type {number[]} */
  const interim = [];
  /** @type {((a: RawAnswer | undefined) => void)[]} */
  const waiting = [];
  let ended = false;
  /** @type {(status: number) => void} */
  let onInterim = () => {};
  const continued = new Promise((resolve) => {
    onInterim = resolve;
  });
  const parse = () => {
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const lines = buffer.subarray(0, end).toString('latin1').split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0])?.[1]);
      /** @type {Record<string, string>} */
      const headers = {};
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      if (status >= 100 && status < 200) {
        interim.push(status);
        onInterim(status);
        buffer = buffer.subarray(end + 4);
        continue;
      }
      const length = Number(headers['content-length'] ?? 0);
      if (buffer.length < end + 4 + length) return;
      const body = buffer.subarray(end + 4, end + 4 + length).toString('utf8');
      buffer = buffer.subarray(end + 4 + length);
      const answer = { status, headers, body };
      const waiter = waiting.shift();
      if (waiter) waiter(answer);
      else answers.push(answer);
    }
  };
  socket.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    all = Buffer.concat([all, chunk]);
    parse();
  });
  const closed = new Promise((resolve) => {
    let error;
    socket.on('error', (e) => {
      error = /** @type {any} */ (e).code ?? e.message;
    });
    socket.on('close', () => {
      ended = true;
      for (const waiter of waiting.splice(0)) waiter(undefined);
      resolve({ error });
    });
  });
  return {
    socket,
    write: (data) =>
      new Promise((resolve) => {
        if (ended || socket.destroyed || !socket.writable) return resolve(false);
        socket.write(data, (error) => resolve(!error));
      }),
    next: (what = 'an answer') =>
      new Promise((resolve, reject) => {
        const ready = answers.shift();
        if (ready) return resolve(ready);
        if (ended) return reject(new Error(`the connection closed before ${what}`));
        waiting.push((answer) =>
          answer ? resolve(answer) : reject(new Error(`the connection closed before ${what}`)),
        );
      }),
    interim,
    continued,
    closed,
    received: () => all,
  };
}

/**
 * `promise`, or an error naming what did not happen within `ms` (a hang guard: generous, as the
 * machine may be busy; the answers awaited take milliseconds).
 * @template T
 * @param {Promise<T>} promise
 * @param {string} what
 * @param {number} [ms]
 * @returns {Promise<T>}
 */
export function within(promise, what, ms = 30_000) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
