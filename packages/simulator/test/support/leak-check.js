// The leak check after every test file (vitest `setupFiles`): the descriptors this process holds
// are back to what it held before the file, and every simulator the file started through
// `startTestSimulator` was closed with nothing in flight (no stream, budget reservation or long
// poll; its caches within their bounds). Go's goleak and Jest's --detectOpenHandles are the anchors.
import { afterAll, beforeAll, expect } from 'vitest';
import { canCount, descriptors, extraDescriptors } from './leaks.js';
import { started } from './sim.js';

/** @type {Map<string, string>} */
let baseline = new Map();

beforeAll(() => {
  started.length = 0;
  if (canCount) baseline = descriptors();
});

afterAll(async () => {
  const problems = [];
  for (const t of started) {
    if (!t.closed) problems.push(`a simulator on ${t.sim.url} was not closed`);
    else problems.push(...t.leaks);
  }
  started.length = 0;
  if (canCount)
    for (const target of await extraDescriptors(baseline)) problems.push(`a descriptor is left open: ${target}`);
  expect(problems, 'what this test file left behind').toEqual([]);
});
