import { afterEach, expect } from 'vitest';
import { takeCspViolations } from './browser';

// Every browser test runs the built app under the server's Content-Security-Policy: a blocked
// script, style, image, connection or frame fails the test that caused it.
afterEach(() => {
  expect(takeCspViolations()).toEqual([]);
});
