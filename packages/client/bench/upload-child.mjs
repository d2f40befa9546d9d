// One streamed upload of `bytes` generated on the fly (never held in memory), in a fresh process so
// its peak RSS is its own. argv: variant (client | raw), base URL, bytes, gc interval in MiB (0: none).
// With an interval (and --expose-gc) the generator collects garbage every so many MiB, in both
// variants alike, so the peak shows memory held rather than spent chunks awaiting collection.
// Prints { ms, maxRssMB, baseMB, sent }.
import { createCentralClient } from '../dist/index.js';

const [variant, base, size, gcEveryMiB] = [
  process.argv[2],
  process.argv[3],
  Number(process.argv[4]),
  Number(process.argv[5] ?? 0),
];
const gcEvery = gcEveryMiB > 0 && typeof globalThis.gc === 'function' ? gcEveryMiB * 1024 * 1024 : 0;
const CHUNK = 64 * 1024;
const IMAGE = 'c2d4b1f5-8a3e-4c6b-9f1d-2e7a5b3c9d10';

/** A byte stream of `total` bytes, made chunk by chunk as the consumer pulls. */
function generated(total) {
  let left = total;
  let n = 0;
  return new ReadableStream(
    {
      pull(controller) {
        if (left <= 0) return controller.close();
        const chunk = new Uint8Array(Math.min(CHUNK, left)).fill(n++ & 0xff);
        left -= chunk.length;
        if (gcEvery && (total - left) % gcEvery < chunk.length) globalThis.gc();
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 8 },
  );
}

const baseMB = process.memoryUsage().rss / 1024 ** 2;
const started = performance.now();
let sent;
if (variant === 'raw') {
  const response = await fetch(`${base}/api/svc/v3/images/${IMAGE}/file`, {
    method: 'PUT',
    body: generated(size),
    duplex: 'half',
    // Without this Node's fetch keeps the whole body to replay it on a redirect (nodejs/undici#4058).
    redirect: 'error',
    headers: {
      'Content-Type': 'application/octet-stream',
      Accept: 'application/json',
      Authorization: `Basic ${btoa('admin:bench')}`,
    },
  });
  await response.arrayBuffer();
  sent = Number(response.headers.get('x-bytes'));
} else {
  let seen;
  const central = createCentralClient({
    baseUrl: `${base}/api/svc/v3`,
    username: 'admin',
    password: 'bench',
    middleware: [
      {
        onResponse: ({ response }) => {
          seen = response.headers.get('x-bytes');
        },
      },
    ],
  });
  await central.uploadImageFile(IMAGE, generated(size));
  sent = Number(seen);
}
const ms = performance.now() - started;
console.log(JSON.stringify({ ms, maxRssMB: process.resourceUsage().maxRSS / 1024, baseMB, sent }));
