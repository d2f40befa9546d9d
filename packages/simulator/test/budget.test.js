// The budget that bounds the memory of batch answers held at once (issue 43): first come, first
// served, a lease shrunk to what was used, a waiter that gives up.
import { describe, expect, it } from 'vitest';
import { byteBudget } from '../src/budget.js';

/** Whether `promise` has settled by the time the microtasks queued now have run. */
const settled = async (promise) => {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe('byteBudget', () => {
  it('makes a take past what is free wait until enough is given back, in the order asked', async () => {
    const budget = byteBudget(10);
    const a = await budget.take(8);
    const b = budget.take(8);
    const c = budget.take(1);
    expect(await settled(b)).toBe(false);
    // c would fit, but b asked first
    expect(await settled(c)).toBe(false);
    a.release();
    expect(await settled(b)).toBe(true);
    expect(await settled(c)).toBe(true);
    expect(budget.available()).toBe(1);
    a.release(); // a second release gives nothing back
    expect(budget.available()).toBe(1);
  });

  it('gives back what a lease does not keep', async () => {
    const budget = byteBudget(10);
    const a = await budget.take(10);
    const b = budget.take(6);
    a.keep(4);
    expect(await settled(b)).toBe(true);
    expect(budget.available()).toBe(0);
    a.keep(5); // keeping more than held changes nothing
    expect(budget.available()).toBe(0);
  });

  it('lets a waiter give up on abort, and the next one in', async () => {
    const budget = byteBudget(10);
    const a = await budget.take(6);
    const stop = new AbortController();
    const b = budget.take(10, stop.signal);
    const c = budget.take(4);
    expect(await settled(c)).toBe(false);
    stop.abort(new Error('gone'));
    await expect(b).rejects.toThrow('gone');
    expect(await settled(c)).toBe(true);
    a.release();
    expect(budget.available()).toBe(6);
  });

  it('serves a take larger than the whole budget once all of it is free', async () => {
    const budget = byteBudget(10);
    const a = await budget.take(3);
    const big = budget.take(50);
    expect(await settled(big)).toBe(false);
    a.release();
    const lease = await big;
    expect(budget.available()).toBe(0);
    lease.release();
    expect(budget.available()).toBe(10);
  });

  it('holds nothing of the budget while a lease waits (idle), and takes it back before newcomers', async () => {
    const budget = byteBudget(10);
    const a = await budget.take(8);
    /** @type {(value: string) => void} */
    let finish = () => {};
    const waited = a.idle(() => new Promise((resolve) => (finish = resolve)), 3);
    // what it built (3) is parked apart: the whole budget is free for others meanwhile
    await new Promise((resolve) => setImmediate(resolve));
    expect(budget.available()).toBe(10);
    expect(budget.parked()).toBe(3);
    const b = await budget.take(6);
    const c = budget.take(5);
    finish('done');
    // a waits for its 8: first in line when b gives its 6 back, before c asked earlier
    expect(await settled(waited)).toBe(false);
    b.release();
    expect(await waited).toBe('done');
    expect(await settled(c)).toBe(false);
    expect(budget.held()).toBe(8);
    expect(budget.parked()).toBe(0);
    a.release();
    expect(await settled(c)).toBe(true);
  });

  it('gives up taking a waiting lease back when its client leaves: it then holds nothing', async () => {
    const budget = byteBudget(10);
    const a = await budget.take(10);
    const controller = new AbortController();
    const other = { lease: undefined };
    const waited = a.idle(
      async () => {
        other.lease = await budget.take(10);
        return 'polled';
      },
      0,
      controller.signal,
    );
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort(new Error('gone'));
    await expect(waited).rejects.toThrow('gone');
    expect(budget.held()).toBe(10);
    other.lease?.release();
    a.release();
    expect(budget.held()).toBe(0);
  });
});
