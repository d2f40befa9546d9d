// Live reload for `npm run dev`: a server-sent events stream, and the small script the page gets
// that reloads it on an event and shows what the last save broke (a bundle that failed, lint
// errors) until a good build clears it.

/** Path of the server-sent events stream. */
export const EVENTS_PATH = '/__dev/events';

/**
 * One problem of the spec as `npm run dev` reports it.
 * @typedef {object} DevProblem
 * @property {string} file  the source file, relative to the repository (`spec/central/paths/images.yaml`)
 * @property {number} [line] 1-based
 * @property {number} [column] 1-based
 * @property {string} message what is wrong (the rule and its message)
 * @property {'bundle' | 'lint'} stage a bundle that failed (the page keeps the last good build)
 *   or a linter's error (the page shows the build)
 */

/**
 * The page's side of the stream: reload on `reload`; on `problems`, a banner at the top of the
 * page (file, line, message, and whether the page is the last good build) that an empty list
 * takes away. Plain ES5 in a string: it runs before and without the page's own script.
 */
const PAGE_SCRIPT = `(function () {
  var events = new EventSource(${JSON.stringify(EVENTS_PATH)});
  events.addEventListener('reload', function () { location.reload(); });
  events.addEventListener('problems', function (event) {
    var list = [];
    try { list = JSON.parse(event.data); } catch (e) { list = []; }
    var old = document.getElementById('svc-dev-problems');
    if (old) old.remove();
    if (!list.length) return;
    var box = document.createElement('section');
    box.id = 'svc-dev-problems';
    box.setAttribute('role', 'alert');
    box.setAttribute('aria-label', 'npm run dev: problems of the spec');
    box.style.cssText = 'position:sticky;top:0;z-index:20;margin:0;padding:8px 16px;background:#fdecea;color:#7a1d14;border-bottom:3px solid #d93f2f;font:14px sans-serif';
    var stale = list.some(function (p) { return p.stage === 'bundle'; });
    var title = document.createElement('p');
    title.style.cssText = 'margin:0;font-weight:700';
    title.textContent = stale
      ? 'npm run dev: the last save does not bundle. This page shows the last good build; fix the file and save.'
      : 'npm run dev: the spec has lint errors (this page shows its build); fix them and save.';
    var items = document.createElement('ul');
    items.style.cssText = 'margin:4px 0 0;padding-left:20px';
    list.forEach(function (p) {
      var item = document.createElement('li');
      var at = document.createElement('code');
      at.textContent = p.file + (p.line ? ':' + p.line + (p.column ? ':' + p.column : '') : '');
      item.appendChild(at);
      item.appendChild(document.createTextNode(' ' + p.message));
      items.appendChild(item);
    });
    box.appendChild(title);
    box.appendChild(items);
    document.body.insertBefore(box, document.body.firstChild);
  });
})();`;

/**
 * Adds the live-reload script to an HTML page: before `</body>`, or at the end.
 * @param {string} html
 * @returns {string}
 */
export function injectReload(html) {
  const script = `<script>${PAGE_SCRIPT}</script>`;
  return html.includes('</body>') ? html.replace('</body>', `${script}</body>`) : `${html}${script}`;
}

/**
 * The open event streams of the pages, and the problems they are told of.
 * @returns {{ serve: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void,
 *   reload: (what: string) => void, problems: (list: DevProblem[]) => void, close: () => void }}
 *   `serve` answers `GET EVENTS_PATH` (with the problems now, if any); `reload(what)` sends
 *   `event: reload` with `what` (JSON) as data to every open page; `problems(list)` keeps the
 *   spec's problems now and sends them (`event: problems`, an empty list: none left); `close`
 *   ends the streams
 */
export function createReloadEvents() {
  /** @type {Set<import('node:http').ServerResponse>} */
  const clients = new Set();
  /** @type {DevProblem[]} */
  let current = [];
  const problemsEvent = () => `event: problems\ndata: ${JSON.stringify(current)}\n\n`;
  return {
    serve(req, res) {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      });
      res.write(': connected\n\n');
      // a page loaded (or reloaded) while the spec is broken says so at once
      if (current.length) res.write(problemsEvent());
      clients.add(res);
      req.on('close', () => clients.delete(res));
    },
    reload(what) {
      for (const res of clients) res.write(`event: reload\ndata: ${JSON.stringify(what)}\n\n`);
    },
    problems(list) {
      const next = Array.isArray(list) ? list : [];
      if (!next.length && !current.length) return;
      current = next;
      for (const res of clients) res.write(problemsEvent());
    },
    close() {
      for (const res of clients) res.end();
      clients.clear();
    },
  };
}
