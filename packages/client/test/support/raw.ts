// A raw TCP server for answers no HTTP server library would send: malformed, cut off, stalled.
// 127.0.0.1, a free port, every socket destroyed on close.

import type { AddressInfo } from 'node:net';
import { createServer, type Socket } from 'node:net';

/** A request as read off the socket: the head and the body (by Content-Length). */
export interface RawRequest {
  method: string;
  url: string;
  head: string;
  body: string;
}

export interface RawServer {
  origin: string;
  requests: RawRequest[];
  close(): Promise<void>;
}

/** Starts a server that hands each request and its socket to `answer`, which writes raw bytes. */
export async function startRawServer(answer: (socket: Socket, request: RawRequest) => void): Promise<RawServer> {
  const requests: RawRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffer.length < end + 4 + length) return;
        const body = buffer.subarray(end + 4, end + 4 + length).toString('utf8');
        buffer = buffer.subarray(end + 4 + length);
        const [method = '', url = ''] = head.split(' ');
        const request = { method, url, head, body };
        requests.push(request);
        answer(socket, request);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The head of an answer: status line and headers, then the blank line. */
export function head(status: string, headers: Record<string, string | number> = {}): string {
  return `HTTP/1.1 ${status}\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;
}
