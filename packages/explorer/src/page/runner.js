// The workflow runner ("Start here"): which workflow and step the link names, the answers
// recorded per step in this session, opening a step with its values filled in, Executing it and
// waiting for its answer. Steps follow answers and renders, never timers. ES module.
import { exampleOf, mediaKind, operationHash } from '@svc/oas';
import { localSources } from './local-examples.js';
import { operationLink } from './query.js';
import { isLocalSvc, serverInfo } from './requests.js';
import { revealOperation } from './reveal.js';
import {
  ANSWERS_KEY,
  config,
  indexByApi,
  notify,
  page,
  readSession,
  setUrlParams,
  specObject,
  writeSession,
} from './state.js';
import { pointerSet, resolveValue, stepInputs, stepState } from './workflow.js';

// ---- Workflows ("Start here"): answers recorded per workflow step, in this session.
export function activeWorkflow() {
  const params = new URLSearchParams(location.search);
  const id = params.get('workflow');
  if (!id) return null;
  for (const entry of config.index) {
    const workflow = entry.workflows.find((w) => w.workflowId === id);
    if (workflow) {
      const step = Math.max(0, Math.min(workflow.steps.length - 1, Number(params.get('step') || 0) || 0));
      return { api: entry.api, workflow, step };
    }
  }
  return null;
}
export function stepApi(active, step) {
  return step.api || active.api;
}

/** Where a step's operation is: its API's index entry. */
export function stepOperation(active, step) {
  return indexByApi[stepApi(active, step)]?.operations[step.operationId];
}

export const answersOf = (workflowId) => readSession(ANSWERS_KEY, {})[workflowId] || {};
/** Keeps the latest answer of a step; `count` says how many it had (a repeated step counts up). */
export function recordAnswer(workflowId, stepId, answer) {
  const all = readSession(ANSWERS_KEY, {});
  const before = all[workflowId]?.[stepId];
  all[workflowId] = { ...(all[workflowId] || {}), [stepId]: { ...answer, count: (before?.count ?? 0) + 1 } };
  writeSession(ANSWERS_KEY, all);
}

/**
 * Starts a workflow again: forgets its answers in this tab and opens its first step.
 * @param {any} system Swagger UI's system
 * @param {{ api: string, workflow: any, step: number }} active
 */
export function restartWorkflow(system, active) {
  const all = readSession(ANSWERS_KEY, {});
  delete all[active.workflow.workflowId];
  writeSession(ANSWERS_KEY, all);
  openStep(system, { ...active, step: 0 }, 0);
}

/**
 * Opens a step's operation with the values of the previous answers filled in. Another API's
 * operation loads that API (a page load: the answers stay in session storage).
 */
export function openStep(system, active, index) {
  const step = active.workflow.steps[index];
  const op = stepOperation(active, step);
  if (!op) return;
  const link = operationLink(stepApi(active, step), op.tag, step.operationId, {
    workflow: active.workflow.workflowId,
    step: String(index),
  });
  if (stepApi(active, step) !== page.api) {
    location.assign(link);
    return;
  }
  // The operations of the steps done are folded, so that the page stays short.
  const answers = answersOf(active.workflow.workflowId);
  active.workflow.steps.forEach((other, j) => {
    const at = stepOperation(active, other);
    if (j === index || !at || stepApi(active, other) !== page.api || other.operationId === step.operationId) return;
    if (stepState(other, answers[other.stepId]).state === 'done')
      system.layoutActions.show(['operations', at.tag, other.operationId], false);
  });
  history.replaceState(history.state, '', link);
  notify();
  system.layoutActions.parseDeepLinkHash(decodeURIComponent(location.hash));
  system.layoutActions.show(['operations', op.tag, step.operationId], true);
  revealOperation(step.operationId);
  fillStep(system, { ...active, step: index });
}

/**
 * Puts values into an operation's parameters in the "Try it out" form.
 * @param {{ path: string, method: string }} op
 * @param {{ name: string, in?: string, value: any }[]} values `in` defaults to where the spec has the parameter
 */
export function setParameters(system, op, values) {
  const resolved = system.specSelectors
    .specJsonWithResolvedSubtrees()
    .getIn(['paths', op.path, op.method, 'parameters']);
  for (const { name, in: declared, value } of values) {
    const param = resolved?.find((p) => p.get('name') === name && (!declared || p.get('in') === declared));
    const where = declared || (param ? param.get('in') : 'path');
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    system.specActions.changeParam([op.path, op.method], name, where, text);
    // A value Swagger UI already keeps under the parameter's identity wins over the one above.
    if (param) system.specActions.changeParamByIdentity([op.path, op.method], param, text);
  }
}

/**
 * Opens an operation of the API shown (deep link), scrolls to it and focuses it.
 * @param {{ workflow: string | null, step: string | null }} [keep] the workflow parameters of the
 *   link: by default the workflow is left
 */
export function showOperation(system, tag, operationId, keep = { workflow: null, step: null }) {
  setUrlParams(keep, operationHash(tag, operationId));
  notify();
  system.layoutActions.parseDeepLinkHash(decodeURIComponent(location.hash));
  system.layoutActions.show(['operations', tag, operationId], true);
  revealOperation(operationId);
}

/** Whether the server selected is the local svc beside this explorer. */
export function onLocalSvc(system) {
  const { oas3Selectors, specSelectors } = system;
  // before Swagger UI's Servers has picked one, its first (the default) is the one
  const server = oas3Selectors.selectedServer() || specSelectors.servers()?.first()?.get('url') || '';
  return isLocalSvc(oas3Selectors.serverEffectiveValue({ server }) || server);
}

/** Puts the step's inputs into the operation's form (parameters, request body). */
export async function fillStep(system, active) {
  const info = await serverInfo;
  const step = active.workflow.steps[active.step];
  const op = stepOperation(active, step);
  if (!op) return;
  const answers = answersOf(active.workflow.workflowId);
  const inputs = stepInputs(step, answers);
  const pathMethod = [op.path, op.method];
  // A value an earlier step has not given yet stays empty (the panel says which step gives it),
  // rather than showing the spec's example UUID as if it were real.
  const waiting = (step.parameters ?? []).filter((p) => !resolveValue(p.value, answers).found);
  setParameters(system, op, [...waiting.map((p) => ({ ...p, value: '' })), ...inputs.parameters]);
  const spec = specObject(system);
  const example = step.requestBodyExample ? spec.components?.examples?.[step.requestBodyExample]?.value : undefined;
  if (example !== undefined || inputs.body.length) {
    const content = spec.paths?.[op.path]?.[op.method]?.requestBody?.content || {};
    const json = Object.keys(content).find((t) => mediaKind(t) === 'json');
    if (json) {
      const body = structuredClone(example ?? exampleOf(spec, content[json]) ?? {});
      if (info.localSvcUrl && onLocalSvc(system)) localSources(body, info.localSvcUrl);
      for (const { pointer, value } of inputs.body) pointerSet(body, pointer, value);
      system.oas3Actions.setRetainRequestBodyValueFlag?.({ value: true, pathMethod });
      system.oas3Actions.setRequestBodyValue({ value: JSON.stringify(body, null, 2), pathMethod });
    }
  }
}

/** "Poll until done": the interval between two Executes, and at most how many. */
export const POLL = { intervalMs: 1000, attempts: 40 };

/**
 * Executes the current step's operation (its Execute button, which the step bar stands in for)
 * and waits for the answer to be recorded.
 * @returns {Promise<{ status: number, body: any } | null>} the answer; null when the operation is not open
 */
export function executeStep(system, active) {
  const step = active.workflow.steps[active.step];
  const block = document.querySelector('.opblock.is-open[id$="-' + CSS.escape(step.operationId) + '"]');
  const button = /** @type {HTMLButtonElement | null} */ (block?.querySelector('button.execute'));
  if (!button) {
    openStep(system, active, active.step);
    return Promise.resolve(null);
  }
  const before = answersOf(active.workflow.workflowId)[step.stepId]?.count ?? 0;
  return new Promise((resolve) => {
    const unsubscribe = system.getStore().subscribe(() => {
      const answer = answersOf(active.workflow.workflowId)[step.stepId];
      if ((answer?.count ?? 0) <= before) return;
      unsubscribe();
      resolve(answer);
    });
    button.click();
  });
}

/**
 * Resolves once Swagger UI has resolved an operation's subtree (its `$ref`s), which the form's
 * parameters need before they take values: watched on Swagger UI's store, not timed.
 * @param {any} system Swagger UI's system
 * @param {{ path: string, method: string } | undefined} op
 * @returns {Promise<void>}
 */
export function whenResolved(system, op) {
  const ready = () => !op || Boolean(system.specSelectors.specResolvedSubtree(['paths', op.path, op.method]));
  if (ready()) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = system.getStore().subscribe(() => {
      if (!ready()) return;
      unsubscribe();
      resolve();
    });
  });
}

/**
 * A workflow step opened by link (another API's step, a reload), once a spec is loaded: a link
 * without an operation opens the step (on its API: maybe a page load); one with the step's
 * operation fills its form once Swagger UI shows the operation open and resolved.
 * @param {any} system Swagger UI's system
 */
export function resumeWorkflow(system) {
  const active = activeWorkflow();
  if (!active) return;
  const step = active.workflow.steps[active.step];
  if (!location.hash) openStep(system, active, active.step);
  else if (stepApi(active, step) === page.api) {
    revealOperation(step.operationId, { focus: false }).then((block) => {
      if (block) whenResolved(system, stepOperation(active, step)).then(() => fillStep(system, active));
    });
  }
}

/**
 * Records an answer of the current step's operation (Swagger UI's `setResponse`).
 * @param {string} path
 * @param {string} method
 * @param {{ status: number, headers?: Record<string, string>, body?: any, text?: string }} res
 */
export function recordStepAnswer(path, method, res) {
  const active = activeWorkflow();
  const step = active?.workflow.steps[active.step];
  const op = step && stepOperation(active, step);
  if (!(op && stepApi(active, step) === page.api && op.path === path && op.method === method)) return;
  let body = res.body;
  if (body === undefined || typeof body !== 'object') {
    try {
      body = JSON.parse(res.text);
    } catch {
      body = res.text;
    }
  }
  const headers = {};
  for (const [k, v] of Object.entries(res.headers || {})) headers[k.toLowerCase()] = String(v);
  recordAnswer(active.workflow.workflowId, step.stepId, { status: res.status, headers, body });
}

/**
 * A link that starts or leaves a workflow of the API shown, followed in the page (no load):
 * `workflowId` null leaves the workflow followed. Another API's workflow, or a click that asks
 * for a new tab, is left to the browser.
 * @param {any} system Swagger UI's system
 * @param {string} api the link's API
 * @param {string | null} workflowId
 * @returns {(event: MouseEvent) => void} the link's click handler
 */
export function inPageWorkflowLink(system, api, workflowId) {
  return (event) => {
    if (api !== page.api || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    if (workflowId === null) {
      setUrlParams({ workflow: null, step: null });
      return;
    }
    setUrlParams({ workflow: workflowId, step: '0' }, '');
    resumeWorkflow(system);
  };
}
