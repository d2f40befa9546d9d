// Live reload for `npm run dev`: a server-sent events stream, and the small script the page gets
// that reloads it on an event.

/** Path of the server-sent events stream. */
export const EVENTS_PATH = '/__dev/events';

/**
 * Adds the live-reload script to an HTML page: before `</body>`, or at the end.
 * @param {string} html
 * @returns {string}
 */
export function injectReload(html) {
  const script = `<script>new EventSource(${JSON.stringify(EVENTS_PATH)}).addEventListener('reload', () => location.reload());</script>`;
  return html.includes('</body>') ? html.replace('</body>', `${script}</body>`) : `${html}${script}`;
}

/**
 * The open event streams of the pages.
 * @returns {{ serve: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void,
 *   reload: (what: string) => void, close: () => void }}
 *   `serve` answers `GET EVENTS_PATH`; `reload(what)` sends `event: reload` with `what` (JSON) as
 *   data to every open page; `close` ends the streams
 */
export function createReloadEvents() {
  /** @type {Set<import('node:http').ServerResponse>} */
  const clients = new Set();
  return {
    serve(req, res) {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      });
      res.write(': connected\n\n');
      clients.add(res);
      req.on('close', () => clients.delete(res));
    },
    reload(what) {
      for (const res of clients) res.write(`event: reload\ndata: ${JSON.stringify(what)}\n\n`);
    },
    close() {
      for (const res of clients) res.end();
      clients.clear();
    },
  };
}
