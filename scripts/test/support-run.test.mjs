// The waits of the scripts' tests (support/run.mjs): each ends on its event, or names what never
// happened.
import { describe, expect, it } from 'vitest';
import { GrowingText, runCommand } from './support/run.mjs';

describe('runCommand', () => {
  it('resolves with the exit code and the output', async () => {
    const r = await runCommand(process.execPath, ['-e', 'console.log("out"); console.error("err"); process.exit(3)']);
    expect(r).toEqual({ code: 3, signal: null, out: expect.stringMatching(/out\n[\s\S]*err\n|err\n[\s\S]*out\n/) });
  });

  it('kills a command past its limit and names it', async () => {
    const hang = 'setInterval(() => {}, 1000)';
    await expect(runCommand(process.execPath, ['-e', hang], { limitMs: 300 })).rejects.toThrow(
      /^`node -e setInterval\(\(\) => \{\}, 1000\)` did not end within 0\.3 s; its output:/,
    );
  });
});

describe('GrowingText', () => {
  it('resolves when the pattern appears after `from`', async () => {
    const text = new GrowingText();
    text.append('ready 1\n');
    const waiting = text.until(/ready (\d)/, { what: 'the second ready', limitMs: 60_000, from: text.text.length });
    text.append('ready 2\n');
    expect((await waiting)[1]).toBe('2');
  });

  it('names what never happened when the source ends first, or past the limit', async () => {
    const ended = new GrowingText();
    const waiting = ended.until(/ready/, { what: 'the server start', limitMs: 60_000 });
    ended.append('listening soon\n');
    ended.end('the server exited with code 1');
    await expect(waiting).rejects.toThrow(
      /^the server start did not happen \(the server exited with code 1 first\); the text ended:\nlistening soon/,
    );
    await expect(new GrowingText().until(/ready/, { what: 'the server start', limitMs: 50 })).rejects.toThrow(
      /^the server start did not happen within 0\.05 s/,
    );
  });
});
