// The pipeline's gate: what a reset or a restore of the control API closes while it changes the
// state under the served APIs. Requests that come meanwhile wait; those already in flight are
// counted, and the pause resolves once they are answered.

/**
 * The gate a restore or a reset closes: requests that come meanwhile wait; those of the served
 * APIs already in flight are counted, and the pause resolves once they are answered.
 */
export function createGate() {
  let inflight = 0;
  /** @type {Promise<void> | undefined} */
  let held;
  /** @type {(value?: any) => void} */
  let open = () => {};
  let drained = () => {};
  const done = () => {
    inflight -= 1;
    if (inflight === 0) drained();
  };
  return {
    closed: () => held !== undefined,
    /** @template T @param {Promise<T>} answering @param {boolean} own  a control API request (not counted) */
    count(answering, own) {
      if (own) return answering;
      inflight += 1;
      return answering.finally(done);
    },
    /** @template T @param {() => Promise<T>} later @param {boolean} own */
    through(later, own) {
      return /** @type {Promise<void>} */ (held).then(() => this.count(later(), own));
    },
    pause() {
      held = new Promise((resolve) => (open = resolve));
      const drain = new Promise((resolve) => (drained = () => resolve(undefined)));
      if (inflight === 0) drained();
      return {
        drained: drain,
        resume() {
          held = undefined;
          open(undefined);
        },
      };
    },
  };
}
