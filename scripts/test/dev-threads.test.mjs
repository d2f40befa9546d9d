// The threads of `npm run dev` (scripts/lib/thread.mjs): a call gets its own answer, a failure
// its message, and a thread that ends rejects what is pending and what comes after, naming it.
import { describe, expect, it } from 'vitest';
import { startThread } from '../lib/thread.mjs';

const fixture = new URL('./support/dev-thread-fixture.mjs', import.meta.url);

describe('startThread', () => {
  it('answers each call with its own value, side by side, and a failure with its message', async () => {
    const thread = startThread(fixture);
    try {
      const answers = await Promise.all([1, 2, 3].map((n) => thread.call({ op: 'echo', value: { n } })));
      expect(answers).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
      await expect(thread.call({ op: 'fail', value: 'x' })).rejects.toThrow(/^refused: x$/);
      expect(await thread.call({ op: 'echo', value: 'still there' })).toBe('still there');
    } finally {
      await thread.close();
    }
  });

  it('rejects the pending call and every later one when the thread ends, naming it', async () => {
    const thread = startThread(fixture);
    const pending = thread.call({ op: 'wait' });
    await expect(Promise.all([pending, thread.call({ op: 'exit' })])).rejects.toThrow(
      /the thread dev-thread-fixture\.mjs ended \(exit code 3\)/,
    );
    await expect(pending).rejects.toThrow(/ended \(exit code 3\)/);
    await expect(thread.call({ op: 'echo', value: 1 })).rejects.toThrow(/ended \(exit code 3\)/);
  });

  it('rejects what is pending when closed, saying so', async () => {
    const thread = startThread(fixture);
    // the expectation first: the call rejects while close() runs, and a rejection nobody awaits yet
    // is an unhandled one
    const pending = expect(thread.call({ op: 'wait' })).rejects.toThrow(
      /^the thread dev-thread-fixture\.mjs was stopped$/,
    );
    await thread.close();
    await pending;
  });
});
