// A thread for scripts/test/dev-threads.test.mjs: echoes, fails, or ends the thread, as asked.
import { answerCalls } from '../../lib/thread.mjs';

answerCalls(async (/** @type {{ op: string, value?: unknown }} */ { op, value }) => {
  if (op === 'echo') return value;
  if (op === 'fail') throw new Error(`refused: ${value}`);
  if (op === 'wait') return new Promise(() => {}); // answered never: the thread ends first
  process.exit(3);
});
