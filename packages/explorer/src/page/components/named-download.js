// A downloaded answer with a file name: Swagger UI names one without Content-Disposition
// "<type>:<segment>:<blob URL>". ES module.
import { h } from './react.js';

/**
 * The file name of a downloaded answer: `image-<uuid>.img` for `.../images/<uuid>/file`, else the
 * last segment of the path with `.bin`.
 * @param {string} url the request URL
 * @returns {string}
 */
export function downloadName(url) {
  let path = '';
  try {
    path = new URL(url, 'http://page.invalid/').pathname;
  } catch {
    path = '';
  }
  const image = /\/images\/([0-9A-Za-z-]+)\/file$/.exec(path);
  if (image) return 'image-' + image[1] + '.img';
  const last = path.split('/').filter(Boolean).pop() || 'download';
  return last.replace(/[^A-Za-z0-9._-]+/g, '_') + '.bin';
}

/** Swagger UI's `responseBody` with a file name for bytes. @param {{ Original: any, props: any }} props */
export function NamedDownload({ Original, props }) {
  const headers = props.headers || {};
  const named = Object.entries(headers).some(
    ([k, v]) => k.toLowerCase() === 'content-disposition' && /filename/i.test(String(v)),
  );
  if (named || !/octet-stream|^image\//i.test(String(props.contentType || ''))) return h(Original, props);
  const disposition = 'attachment; filename="' + downloadName(String(props.url || '')) + '"';
  return h(Original, { ...props, headers: { ...headers, 'content-disposition': disposition } });
}
