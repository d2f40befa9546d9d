// Swagger UI's house plugin: only wiring (actions wrapped, components placed). ES module.
import { subdocument } from '@svc/oas';
import { settledResponse } from './answer.js';
import { AuthorizationDialog, AuthorizeWithUser } from './components/authorize.js';
import { BodyNote } from './components/body-note.js';
import { CodeSamples } from './components/code-samples.js';
import { ExecuteWithFileCheck } from './components/execute.js';
import { Explanation } from './components/explanation.js';
import { FollowLinks } from './components/follow-links.js';
import { Logo, layoutOf } from './components/layout.js';
import { NamedDownload } from './components/named-download.js';
import { OperationsOrNoMatch } from './components/no-match.js';
import { PrefilledParameter } from './components/prefilled-parameter.js';
import { useReact } from './components/react.js';
import { SelfSignedToggle } from './components/self-signed.js';
import { TopBar } from './components/top-bar.js';
import { bodyValue, parameterValue, readLiveState, refreshDefaults } from './defaults.js';
import { paramErrors, validationMessages } from './errors.js';
import { focusAnswer } from './focus.js';
import { recordHistory, resumeReplay } from './history.js';
import { stateReplaced } from './live-state.js';
import { refreshState, STATE_REPLACING } from './local-svc-state.js';
import { checkOperationLink } from './notices.js';
import { displayedRequest, forgetAuth, opsFilter, rememberAuth, restoreAuth } from './requests.js';
import { recordStepAnswer, resumeWorkflow } from './runner.js';
import { parsedJson } from './spec-json.js';
import { apiChosen, pageWindow } from './state.js';

/**
 * The house plugin of Swagger UI: wires the page state, the workflow runner and the components
 * into Swagger UI's actions and components. Nothing else lives here.
 * @param {any} system Swagger UI's system
 */
export function ExplorerPlugin(system) {
  const React = system.React;
  const h = React.createElement;
  useReact(React);
  const SvcLayout = layoutOf(system);

  /** @type {((spec: any, path: string[], options?: any) => Promise<any>) | undefined} */
  let resolveSubtree;

  return {
    fn: {
      opsFilter,
      // Swagger UI resolves what it shows one subtree at a time (an operation, the security
      // schemes), and swagger-client's OpenAPI 3.1 resolver reads the whole document it is handed
      // each time. It gets only the part that the subtree needs, with the same result: 125 against
      // 319 ms per central operation in the bench.
      resolveSubtree: (spec, path, options = {}) => {
        resolveSubtree ??= pageWindow.SwaggerUIBundle.plugins.SwaggerClient({
          configs: {},
          getConfigs: () => system.getConfigs(),
        }).fn.resolveSubtree;
        return resolveSubtree(options.returnEntireTree ? spec : subdocument(spec, path), path, options);
      },
    },
    components: { Logo, SvcLayout, Topbar: TopBar, FilterContainer: () => null },
    statePlugins: {
      layout: {
        actions: {
          // Swagger UI 5's own, less its fallback that reads `_` as a space: it logged a deprecation
          // error on every deep link here (each operationId holds a `_`) and showed a key that is
          // no operation's.
          parseDeepLinkHash:
            (rawHash) =>
            ({ layoutActions, layoutSelectors, getConfigs }) => {
              if (!getConfigs().deepLinking || !rawHash) return;
              const hash = rawHash.slice(1).replace(/^!/, '').replace(/^\//, '');
              const key = layoutSelectors.isShownKeyFromUrlHashArray(hash.split('/'));
              if (key[0] === 'operations')
                layoutActions.show(layoutSelectors.isShownKeyFromUrlHashArray([key[1]]), true);
              layoutActions.show(key, true);
              layoutActions.scrollTo(key);
              layoutActions.scrollToVirtualizedOperation(key);
            },
          // The browser's scrollIntoView instead of Swagger UI's zenscroll, which stops 9 px from
          // the top whatever covers it: it keeps the page's scroll-padding-top (the sticky search of
          // the narrow layout) and reduced motion.
          scrollToElement: (ref) => () => {
            ref?.scrollIntoView?.({ block: 'start' });
          },
        },
      },
      auth: {
        wrapActions: {
          authorize: (ori, sys) => (payload) => {
            rememberAuth(payload);
            const result = ori(payload);
            // the lists a 401 refused, now with credentials
            readLiveState(sys, { force: true });
            refreshState();
            return result;
          },
          logout: (ori) => (names) => {
            forgetAuth(names);
            const result = ori(names);
            refreshState();
            return result;
          },
        },
      },
      oas3: {
        wrapActions: {
          // The form's example body becomes the default of the server selected (defaults.js).
          setRequestBodyValue:
            (ori, sys) =>
            ({ value, pathMethod }) =>
              ori({ value: bodyValue(sys, pathMethod, value), pathMethod }),
          // A server picked after the forms were filled: their defaults follow it.
          setSelectedServer: (ori, sys) => (payload) => {
            const result = ori(payload);
            queueMicrotask(() => readLiveState(sys));
            return result;
          },
        },
      },
      spec: {
        // One message for a bad UUID in the list under Execute (see paramErrors below).
        wrapSelectors: {
          validationErrors: (ori) => (_state, pathMethod) => validationMessages(ori(pathMethod) || []),
        },
        wrapActions: {
          // Swagger UI reads every spec with js-yaml (about 80 ms for the central one, before the
          // first operation list); the page's specs are JSON, which the browser reads in a few.
          // Anything else (YAML, a syntax error) still goes to Swagger UI's parser.
          parseToJson: (ori, sys) => (text) => {
            const json = parsedJson(text || sys.specSelectors.specStr());
            if (json === undefined) return ori(text);
            sys.errActions.clear({ source: 'parser' });
            return sys.specActions.updateJsonSpec(json);
          },
          updateUrl: (ori) => (url) => {
            const result = ori(url);
            apiChosen(url);
            return result;
          },
          updateJsonSpec: (ori, sys) => (json) => {
            const result = ori(json);
            // Once this dispatch is over (the store has the spec).
            queueMicrotask(() => {
              restoreAuth(sys);
              resumeWorkflow(sys);
              resumeReplay(sys);
              checkOperationLink();
              readLiveState(sys);
            });
            return result;
          },
          // A parameter's example becomes the default of the server selected (defaults.js).
          changeParamByIdentity: (ori, sys) => (pathMethod, param, value, isXml) =>
            ori(pathMethod, param, parameterValue(sys, pathMethod, param, value), isXml),
          setRequest: (ori) => (path, method, req) => ori(path, method, displayedRequest(req)),
          setResponse: (ori, sys) => (path, method, res) => {
            // 4xx and 5xx come as { error, err }: recorded with their status like any answer
            const answer = settledResponse(res);
            recordStepAnswer(path, method, answer);
            const entry = recordHistory(sys, path, method, answer);
            const result = ori(path, method, res);
            queueMicrotask(() => refreshDefaults(sys));
            if (entry?.local) {
              // a reset or a restore from its form: what the tab knew of the state is gone
              if (STATE_REPLACING.has(entry.operationId) && entry.status >= 200 && entry.status < 300) {
                stateReplaced();
                readLiveState(sys, { force: true });
              }
              refreshState();
            }
            focusAnswer(path, method, answer.status);
            return result;
          },
        },
      },
    },
    wrapComponents: {
      authorizeBtn: (Original, sys) => (props) => h(AuthorizeWithUser, { Original, sys, props }),
      authorizationPopup: (Original) => (props) => h(AuthorizationDialog, { Original, props }),
      RequestSnippets: () => () => null,
      responseBody: (Original) => (props) => h(NamedDownload, { Original, props }),
      responses: (Original, sys) => (props) =>
        h(React.Fragment, null, h(CodeSamples, { sys, path: props.path, method: props.method }), h(Original, props)),
      // The one curl of an Execute is the samples' (above the responses): Swagger UI's own is left out.
      liveResponse: (Original, sys) => (props) =>
        h(
          React.Fragment,
          null,
          props.response
            ? h(Explanation, { response: props.response, sys, path: props.path, method: props.method })
            : null,
          h(Original, props),
          props.response
            ? h(FollowLinks, { sys, response: props.response, path: props.path, method: props.method })
            : null,
        ),
      operations: (Original, sys) => (props) => h(OperationsOrNoMatch, { Original, sys, props }),
      // One message for a bad UUID on the field itself (its title); Original reads an Immutable list.
      JsonSchema_string: (Original) => (props) => {
        const list = props.errors;
        const errors = list?.toJS ? list.toJS() : [];
        const fixed = paramErrors(errors);
        return h(Original, fixed === errors ? props : { ...props, errors: list.clear().push(...fixed) });
      },
      execute: (Original, sys) => (props) => h(ExecuteWithFileCheck, { Original, sys, props }),
      parameterRow: (Original, sys) => (props) => h(PrefilledParameter, { Original, sys, props }),
      RequestBody: (Original, sys) => (props) =>
        h(React.Fragment, null, h(Original, props), h(BodyNote, { sys, specPath: props.specPath })),
      // What Swagger UI renders before its <main> goes in named regions: all content in landmarks.
      ServersContainer: (Original) => (props) =>
        h(
          'section',
          { className: 'svc-servers', 'aria-labelledby': 'svc-servers-title' },
          h('h2', { className: 'svc-visually-hidden', id: 'svc-servers-title' }, 'Servers'),
          h(Original, props),
          h(SelfSignedToggle),
        ),
      AuthorizeBtnContainer: (Original) => (props) =>
        h(
          'section',
          { className: 'svc-authorize', id: 'svc-authorize', 'aria-label': 'Authorize' },
          h(Original, props),
        ),
      InfoContainer: (Original) => (props) =>
        h('section', { className: 'svc-info', 'aria-label': 'About this API' }, h(Original, props)),
    },
  };
}
