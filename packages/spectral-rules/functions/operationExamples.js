import { createRulesetFunction } from '@stoplight/spectral-core';
import { isObject, mediaKind, operationsOf, resolveRef } from '@svc/oas';
import { printPath } from './lib/house.js';

/**
 * Enforces named examples (`svc-operation-examples`): every JSON request
 * body and every 2xx JSON response body has a non-empty `examples` map (named
 * Example Objects); a lone `example` is not enough. Non-JSON bodies
 * (`application/octet-stream` uploads and downloads) are exempt, and so are
 * 2xx responses without content.
 *
 * Why: the explorer shows the named examples, Prism serves them as mock
 * responses (selectable by name), and the contract tests replay them against
 * the schemas; `example` cannot be named or selected.
 *
 * Request bodies and responses shared through `components` are reported once,
 * at the component, naming the first operation that uses them.
 *
 * Given: `$.paths` (with `resolved: false`).
 */
export default createRulesetFunction(
  {
    input: { type: 'object' },
    options: null,
  },
  function operationExamples(paths, _options, context) {
    const doc = context.document.data;
    const results = [];
    const reported = new Set();

    const checkContent = (container, containerPath, what, name) => {
      if (!isObject(container) || !isObject(container.content)) return;
      for (const [mediaType, media] of Object.entries(container.content)) {
        if (mediaKind(mediaType) !== 'json') continue;
        if (isObject(media) && isObject(media.examples) && Object.keys(media.examples).length > 0) continue;
        const path = [...containerPath, 'content', mediaType];
        const key = JSON.stringify(path);
        if (reported.has(key)) continue;
        reported.add(key);
        const shared = containerPath[0] === 'components' ? ` (${printPath(containerPath)})` : '';
        const found = isObject(media) && media.example !== undefined ? 'only "example"' : 'no "examples"';
        results.push({
          message: `${what} ${mediaType} of ${name}${shared} has ${found}; it needs a named "examples" map`,
          path,
        });
      }
    };

    for (const [key, item] of Object.entries(paths)) {
      for (const { method, operation, path } of operationsOf(doc, item, [...context.path, key])) {
        const name = `${method.toUpperCase()} ${key}`;
        if (operation.requestBody !== undefined) {
          const body = resolveRef(doc, operation.requestBody, [...path, 'requestBody']);
          checkContent(body.value, body.path, 'request body', name);
        }
        if (!isObject(operation.responses)) continue;
        for (const [code, raw] of Object.entries(operation.responses)) {
          if (!/^2(?:\d\d|XX)$/i.test(code)) continue;
          const response = resolveRef(doc, raw, [...path, 'responses', code]);
          checkContent(response.value, response.path, `${code} response`, name);
        }
      }
    }
    return results;
  },
);
